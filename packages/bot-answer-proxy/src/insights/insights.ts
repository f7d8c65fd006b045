import type { AnswerRequest, Outcome, Source } from '../../../bot-answer/src/protocol/types.js';
import type { AccessLog } from '../proxy/access-log.js';
import type { AnswerEvents, AnswerResult } from '../proxy/answer.js';
import type { ResolvedConfig } from '../proxy/config.js';
import type { RequestContext } from '../proxy/context.js';
import type { Feedback } from '../proxy/request-body.js';
import { MIN_TOKEN_CHARS } from './auth.js';
import { InsightsRecorder, type InsightsStatus } from './recorder.js';
import { InsightsRoutes } from './routes.js';
import type { InsightsStore } from './types.js';

/** The request ids the proxy gives answers (`crypto.randomUUID()`): feedback naming anything else is not stored. */
const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the handler exposes of insights: the recorder's state, and writing what waits now. */
export interface InsightsControl {
  readonly status: InsightsStatus;
  /** Opens the store: creates or migrates its schema (done before the first write anyway). */
  open(): Promise<void>;
  /** Writes every row enqueued so far (tests, shutdown). */
  flush(): Promise<void>;
  /** Deletes rows past retention now (the Node server calls it hourly). */
  retain(): Promise<void>;
}

type WaitUntil = (promise: Promise<unknown>) => void;

const urls = (sources: readonly Source[]): string[] => sources.flatMap((s) => (typeof s.url === 'string' ? [s.url] : []));

/**
 * Insights inside the handler: the recorder every answer request and rating is handed to, and
 * the owner's routes (only with a token). Built once per handler from its settings.
 */
export class Insights implements InsightsControl {
  readonly recorder: InsightsRecorder;
  private readonly routes: InsightsRoutes | undefined;
  private readonly base: string;
  private opening: Promise<void> | undefined;

  constructor(store: InsightsStore, cfg: ResolvedConfig, log: AccessLog) {
    const token = cfg.insightsToken;
    if (token !== undefined && token.length < MIN_TOKEN_CHARS) throw new TypeError(`bot-answer proxy: insightsToken (INSIGHTS_TOKEN) must be at least ${MIN_TOKEN_CHARS} characters`);
    if (!Number.isInteger(cfg.insightsRetentionDays) || cfg.insightsRetentionDays < 1) throw new TypeError('bot-answer proxy: insightsRetentionDays (INSIGHTS_RETENTION_DAYS) must be a whole number of days, at least 1');
    this.base = cfg.insightsPath.replace(/\/+$/, '');
    this.recorder = new InsightsRecorder({
      store,
      retentionDays: cfg.insightsRetentionDays,
      log: (level, msg, fields) => log.event(level, msg, fields),
      redactKey: log.redact,
    });
    this.routes = token ? new InsightsRoutes(store, token, this.base, () => this.ready()) : undefined;
  }

  get status(): InsightsStatus {
    return this.recorder.status;
  }

  flush(): Promise<void> {
    return this.recorder.flush();
  }

  open(): Promise<void> {
    return this.ready();
  }

  retain(): Promise<void> {
    return this.recorder.retain();
  }

  /** Opens the store once (the page's first read); a failed opening is tried again next time. */
  private ready(): Promise<void> {
    this.opening ??= this.recorder.open().catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    });
    return this.opening;
  }

  /** Whether `pathname` is an insights route (the page, its files, the export). */
  owns(pathname: string): boolean {
    return pathname === this.base || pathname.startsWith(`${this.base}/`);
  }

  /** Serves an insights route: 404 for every one of them without a token. */
  route(ctx: RequestContext): Promise<Response> | undefined {
    return this.routes?.route(ctx);
  }

  /**
   * Follows an answer request from its checked body to its end, then enqueues its row. Returns
   * what the handler tells it on the way: a whole result, or the stream's events to watch.
   */
  watch(ctx: RequestContext, body: AnswerRequest): AnswerWatch {
    const watch = new AnswerWatch();
    ctx.onComplete = () => {
      const { record } = ctx;
      const outcome = record.outcome === 'aborted' ? 'stopped' : record.code ? record.code : watch.outcome;
      this.recorder.question(
        {
          request_id: ctx.id,
          time: ctx.startedAt,
          bot_id: body.bot_id,
          question: body.message,
          answer_found: watch.answerFound && outcome === 'answered',
          outcome,
          cache: record.cache ?? null,
          sources: watch.sources,
          duration_ms: record.duration_ms ?? Date.now() - ctx.startedAt,
        },
        waitUntilOf(ctx),
      );
    };
    return watch;
  }

  /** Enqueues a rating (feedback for a request id the proxy could not have given is not stored). */
  feedback(ctx: RequestContext, feedback: Feedback): void {
    if (!REQUEST_ID.test(feedback.request_id)) return;
    this.recorder.feedback(
      { request_id: feedback.request_id.toLowerCase(), time: Date.now(), bot_id: feedback.bot_id, rating: feedback.rating, comment: feedback.comment ?? null },
      waitUntilOf(ctx),
    );
  }
}

/** The runtime's `waitUntil`, when the host passed one (Workers: `ctx.waitUntil`). */
function waitUntilOf(ctx: RequestContext): WaitUntil | undefined {
  const waitUntil = ctx.host.waitUntil;
  return typeof waitUntil === 'function' ? (promise) => (waitUntil as WaitUntil)(promise) : undefined;
}

/** What an answer request found: set from a whole result, or from its stream's events as they pass. */
export class AnswerWatch {
  answerFound = false;
  /** The answer's outcome, once it is complete (a request that ends otherwise is recorded by how it ended). */
  outcome: Outcome = 'refused';
  sources: string[] = [];

  result(result: AnswerResult): void {
    this.answerFound = result.answer_found;
    this.outcome = result.outcome;
    this.sources = urls(result.sources);
  }

  /** The events unchanged, with their sources and `done` noted on the way. */
  events(inner: AnswerEvents): AnswerEvents {
    return {
      next: async () => {
        const events = await inner.next();
        for (const event of events) {
          if (event.type === 'sources') this.sources = urls(event.sources);
          else if (event.type === 'done') {
            this.answerFound = event.answer_found;
            this.outcome = event.outcome;
          }
        }
        return events;
      },
      stop: (failure) => inner.stop(failure),
      get malformed() {
        return inner.malformed;
      },
      get upstreamNote() {
        return inner.upstreamNote;
      },
    };
  }
}
