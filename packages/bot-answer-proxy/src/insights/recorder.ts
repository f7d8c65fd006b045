import { redactPersonalData } from '../proxy/redact.js';
import { questionKey } from './question-key.js';
import type { FeedbackRow, InsightsBatch, InsightsStore, QuestionRow } from './types.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Longest question stored, in characters (after redaction); longer ones are cut and end with `…`. */
export const MAX_STORED_QUESTION_CHARS = 500;
/** How many source URLs of an answer are kept, and the longest one. */
const MAX_SOURCES = 3;
const MAX_URL_CHARS = 2_000;

/** An answer request as the handler hands it over: the question as the visitor typed it. */
export type RawQuestion = Omit<QuestionRow, 'question_key'>;
/** A rating as the handler hands it over: the comment as the visitor typed it. */
export type RawFeedback = FeedbackRow;

/** A row waiting to be written: as handed over, and once redacted (done once, however often it is tried). */
type Pending = { question: RawQuestion; ready?: QuestionRow } | { feedback: RawFeedback; ready?: FeedbackRow };

/** Settings of the {@link InsightsRecorder}. */
export interface RecorderOptions {
  store: InsightsStore;
  /** Rows older than this are deleted: with the first write, then at most hourly after a write (and whenever `retain()` is called). */
  retentionDays: number;
  /** Writes one log line (the proxy's log). */
  log: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;
  /** Redacts the upstream key (the proxy's log redactor), before the personal-data rules. */
  redactKey: (text: string) => string;
  /** Rows held while the database is away; beyond it the oldest are dropped (and counted). Default 10000. */
  maxBuffered?: number;
  /** Rows per write. Default 500. */
  batchSize?: number;
  /** How long rows wait to be written together. Default 100 ms. */
  flushMs?: number;
  /** A write still running after this long pauses insights (logged once). Default 2000 ms. */
  slowMs?: number;
  /** Waits between attempts while the database fails: doubling from 250 ms up to this. Default 5000 ms. */
  maxRetryMs?: number;
}

/** What insights are doing, for tests and health checks. */
export interface InsightsStatus {
  /** Rows waiting to be written. */
  pending: number;
  /** Rows dropped since start because the buffer was full. */
  dropped: number;
  /** True while the database fails or is slow. */
  paused: boolean;
}

/** Caps `text` at `max` characters (code points), ending a cut text with `…`. */
function cap(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

const unrefTimer = (timer: ReturnType<typeof setTimeout>) => (timer as { unref?: () => void }).unref?.();

/**
 * Records answer requests and ratings without ever standing in an answer's way: the handler
 * only enqueues a row (no redaction, no I/O on the answer path). Rows are redacted and written
 * in batches, one write at a time. While the database fails or is slow they wait in a bounded
 * buffer (the oldest dropped and counted when it is full); one log line says insights are
 * paused, one that they resumed.
 */
export class InsightsRecorder {
  private queue: Pending[] = [];
  private dropped = 0;
  private droppedWhilePaused = 0;
  private paused = false;
  private opened = false;
  private lastRetention = 0;
  private retryMs = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> | undefined;
  private readonly maxBuffered: number;
  private readonly batchSize: number;
  private readonly flushMs: number;
  private readonly slowMs: number;
  private readonly maxRetryMs: number;

  constructor(private readonly options: RecorderOptions) {
    this.maxBuffered = options.maxBuffered ?? 10_000;
    this.batchSize = options.batchSize ?? 500;
    this.flushMs = options.flushMs ?? 100;
    this.slowMs = options.slowMs ?? 2_000;
    this.maxRetryMs = options.maxRetryMs ?? 5_000;
  }

  get status(): InsightsStatus {
    return { pending: this.queue.length, dropped: this.dropped, paused: this.paused };
  }

  /**
   * Enqueues an answer request. With `waitUntil` (Cloudflare Workers, Vercel) the write starts
   * now and the runtime is asked to keep the request alive until it is done; elsewhere a timer
   * gathers rows into batches.
   */
  question(row: RawQuestion, waitUntil?: (promise: Promise<unknown>) => void): void {
    this.enqueue({ question: row }, waitUntil);
  }

  /** Enqueues a rating (and comment) of an answer. */
  feedback(row: RawFeedback, waitUntil?: (promise: Promise<unknown>) => void): void {
    this.enqueue({ feedback: row }, waitUntil);
  }

  /** Writes everything enqueued so far (one attempt per batch); resolves when done or failed. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
    if (this.queue.length > 0) await this.write();
  }

  /** Opens the store (creating or migrating the schema). Rows past retention go with the first write, or `retain()`. */
  async open(): Promise<void> {
    await this.options.store.open();
    this.opened = true;
  }

  /** Deletes rows older than the retention period now. */
  async retain(): Promise<void> {
    this.lastRetention = Date.now();
    await this.options.store.deleteBefore(Date.now() - this.options.retentionDays * DAY_MS);
  }

  private enqueue(item: Pending, waitUntil?: (promise: Promise<unknown>) => void): void {
    if (this.queue.length >= this.maxBuffered) {
      this.queue.shift();
      this.dropped++;
      if (this.paused) this.droppedWhilePaused++;
    }
    this.queue.push(item);
    if (waitUntil) waitUntil(this.flush());
    // A full batch goes at once, unless the database is failing: then the retry timer decides.
    else this.schedule(this.queue.length >= this.batchSize && this.retryMs === 0 ? 0 : this.flushMs);
  }

  private schedule(ms: number): void {
    if (this.writing || (this.timer && ms > 0)) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, ms);
    unrefTimer(this.timer);
  }

  /** Writes batches until the queue is empty or the database fails; one run at a time. */
  private write(): Promise<void> {
    this.writing ??= this.drain().finally(() => {
      this.writing = undefined;
      if (this.queue.length > 0) this.schedule(this.retryMs || this.flushMs);
    });
    return this.writing;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const items = this.queue.splice(0, this.batchSize);
      const started = Date.now();
      const slow = setTimeout(() => this.pause('slow', undefined), this.slowMs);
      unrefTimer(slow);
      try {
        if (!this.opened) await this.open();
        await this.options.store.write(this.prepare(items));
        if (Date.now() - this.lastRetention > HOUR_MS) await this.retain();
      } catch (error) {
        this.requeue(items);
        this.pause('failed', error);
        this.retryMs = Math.min(this.maxRetryMs, Math.max(250, this.retryMs * 2));
        return;
      } finally {
        clearTimeout(slow);
      }
      this.retryMs = 0;
      // A database that stays slow keeps insights paused: one line, not one per write.
      if (Date.now() - started < this.slowMs) this.resume();
    }
  }

  /** Puts a batch that could not be written back in front, within the buffer's bound. */
  private requeue(items: Pending[]): void {
    const room = this.maxBuffered - this.queue.length;
    const kept = room >= items.length ? items : items.slice(items.length - Math.max(0, room));
    const lost = items.length - kept.length;
    this.dropped += lost;
    this.droppedWhilePaused += lost;
    this.queue = kept.concat(this.queue);
  }

  private pause(why: 'slow' | 'failed', error: unknown): void {
    if (this.paused) return;
    this.paused = true;
    const reason = error === undefined ? undefined : ((error as { code?: string }).code ?? (error as Error).message ?? String(error));
    this.options.log('warn', `insights paused: the database is ${why === 'slow' ? 'slow' : 'unreachable or failing'}; answers are not affected, questions wait in memory (the oldest dropped beyond ${this.maxBuffered}) and are written when it is back`, {
      error: reason,
    });
  }

  private resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.options.log('info', 'insights resumed: the database answers again; the questions held meanwhile are being written', {
      pending: this.queue.length,
      dropped: this.droppedWhilePaused,
    });
    this.droppedWhilePaused = 0;
  }

  /** Redacts and caps what visitors typed, and computes each question's grouping key (once per row). */
  private prepare(items: Pending[]): InsightsBatch {
    const redact = (text: string) => redactPersonalData(this.options.redactKey(text));
    const batch: InsightsBatch = { questions: [], feedback: [] };
    for (const item of items) {
      if ('question' in item) {
        if (!item.ready) {
          const raw = item.question;
          const question = cap(redact(raw.question), MAX_STORED_QUESTION_CHARS);
          const sources = raw.sources.filter((url) => url.length <= MAX_URL_CHARS).slice(0, MAX_SOURCES);
          item.ready = { ...raw, question, question_key: questionKey(question), sources };
        }
        batch.questions.push(item.ready);
      } else {
        const raw = item.feedback;
        item.ready ??= { ...raw, comment: raw.comment === null ? null : redact(raw.comment) };
        batch.feedback.push(item.ready);
      }
    }
    return batch;
  }
}
