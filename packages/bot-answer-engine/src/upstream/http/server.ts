import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AUTH_MESSAGES, generateKey, KeyChecker } from './auth.js';
import { loadBots } from '../bots.js';
import { writerSettings } from '../compose/written/settings.js';
import { AnswerWriter } from '../compose/written/write-answer.js';
import { retrievalContext } from '../follow-up.js';
import { checkUrlSettings } from '../folder/document-url.js';
import { KnowledgeBaseError, type KnowledgeBaseSettings } from '../folder/knowledge-base.js';
import { faultStatusBody } from './faults.js';
import { bodyForRecord, readBody, sendJson } from './http-io.js';
import type { AnswerApiOptions, AnswerNote, RecordedRequest, RunningAnswerApi } from '../options.js';
import { answerSource, collectAnswer, streamAnswer, type AnswerSource, type StreamOutcome, type StreamSettings } from './stream-answer.js';
import { validateAnswerRequest } from './validate.js';
import { readSearchQuery, SEARCH_PATH } from './search-route.js';

const ANSWER_PATH = '/v1/answer';
const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
// The real service limited the whole workspace, whatever the key or bot: one bucket.
const WORKSPACE = 'workspace';

/**
 * Starts the local Answer API: `POST /v1/answer` as the spec describes it, answering from
 * Markdown knowledge bases, and `GET /v1/search` (search as you type). Resolves once it listens.
 */
export async function startAnswerApi(options: AnswerApiOptions = {}): Promise<RunningAnswerApi> {
  const log = options.log ?? ((): void => {});
  const keys = options.keys?.filter(Boolean).length ? options.keys.filter(Boolean) : [generateKey()];
  const keyChecker = new KeyChecker(keys, options.revokedKeys?.filter(Boolean) ?? []);
  const kbSettings: KnowledgeBaseSettings = { baseUrl: options.kbBaseUrl, urlExtension: options.kbUrlExtension, appName: options.kbAppName, anchors: options.kbAnchors };
  const urlProblem = checkUrlSettings(kbSettings, { baseUrl: 'ANSWER_KB_BASE_URL', urlExtension: 'ANSWER_KB_URL_EXTENSION' });
  if (urlProblem) throw new KnowledgeBaseError(urlProblem);
  const written = writerSettings(options);
  const writer = written && new AnswerWriter(written, log);
  const site = options.kbSite ? { url: options.kbSite, ...(options.kbSiteMaxPages ? { maxPages: options.kbSiteMaxPages } : {}), ...(options.kbSiteRefreshMs !== undefined ? { refreshMs: options.kbSiteRefreshMs } : {}) } : undefined;
  const bots = await loadBots(options.kb, options.botsFile, { kbSettings, ...(site ? { site } : {}), indexFolder: options.kbIndex, watch: options.watch, log });
  const limiter = options.rateLimitPerMinute ? new RateLimiterMemory({ points: options.rateLimitPerMinute, duration: 60 }) : undefined;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const faults = options.faults ?? {};
  const dialect = options.dialect ?? 'named';
  const streamSettings: StreamSettings = {
    dialect: dialect === 'json' ? 'named' : dialect,
    endMarker: options.endMarker ?? true,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    faults,
  };
  const pacing = { paceMs: options.paceMs ?? 30, wordsPerChunk: options.wordsPerChunk ?? 3 };

  const requests: RecordedRequest[] = [];
  // Ids keep counting even when a caller empties `requests` to save memory.
  let nextId = 1;
  const aborts = new AbortWaiters(requests);
  const inFlight = new Set<AbortController>();
  let closing = false;

  /** `GET /v1/search`: search as you type, with the same key as answers; not counted in the answers' rate limit. */
  const search = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET') return sendJson(res, 405, { detail: 'Method Not Allowed' }, { allow: 'GET' });
    const authFailure = keyChecker.check(req.headers.authorization);
    if (authFailure) return sendJson(res, 401, { detail: AUTH_MESSAGES[authFailure] }, { 'www-authenticate': 'Bearer' });
    const query = readSearchQuery(new URL(req.url ?? '/', 'http://localhost').searchParams);
    if (!query.ok) return sendJson(res, 400, { detail: query.detail });
    const bot = bots.get(query.botId);
    if (!bot) return sendJson(res, 404, { detail: 'Bot not found' });
    sendJson(res, 200, { results: bot.search(query.text, query.limit) });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, record: RecordedRequest, signal: AbortSignal): Promise<void> => {
    if (record.path === SEARCH_PATH) return search(req, res);
    if (record.path !== ANSWER_PATH) return sendJson(res, 404, { detail: 'Not Found' });
    if (req.method !== 'POST') return sendJson(res, 405, { detail: 'Method Not Allowed' }, { allow: 'POST' });

    const read = await readBody(req, maxBodyBytes);
    if ('tooLarge' in read) {
      return sendJson(res, 413, { detail: `Request body is larger than ${maxBodyBytes} bytes` });
    }
    record.body = bodyForRecord(read.body);

    if (faults.headerDelayMs) await sleep(faults.headerDelayMs, undefined, { signal });
    if (faults.status) return sendJson(res, faults.status, faultStatusBody(faults.status));

    const authFailure = keyChecker.check(req.headers.authorization);
    if (authFailure) return sendJson(res, 401, { detail: AUTH_MESSAGES[authFailure] }, { 'www-authenticate': 'Bearer' });

    const valid = validateAnswerRequest(req.headers['content-type'], read.body);
    if (!valid.ok) return sendJson(res, valid.status, { detail: valid.detail });
    const { message, bot_id, inline_sources, stream, history } = valid.request;

    const bot = bots.get(bot_id);
    if (!bot) return sendJson(res, 404, { detail: 'Bot not found' });

    if (limiter) {
      try {
        await limiter.consume(WORKSPACE);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        return sendJson(
          res,
          429,
          { detail: `Rate limit exceeded: ${options.rateLimitPerMinute} request(s) per minute per workspace` },
          { 'retry-after': String(retryAfter) },
        );
      }
    }

    const context = retrievalContext(history);
    const json = !stream || dialect === 'json';
    const finish = (outcome: StreamOutcome): void => {
      if (outcome !== 'cut') return;
      // Cut on purpose by the fault, so the client did not go away: not an abort.
      record.finishedAt = Date.now();
      res.destroy();
    };
    if (!writer) {
      const answer = bot.answer(message, inline_sources, context);
      if (json) return sendJson(res, 200, answer);
      return finish(await streamAnswer(res, answerSource(answer, pacing), streamSettings, signal));
    }

    // Retrieval and its relevance gate first: an off-topic question never reaches the model, nor
    // one it is not sure of unless the model is to read the closest pages of those too.
    const found = bot.find(message, context);
    const note: AnswerNote = { mode: 'docs' };
    record.answer = note;
    const docs = () => bot.compose(found.passages, inline_sources, message, found.outcome);
    const asked = found.outcome === 'answered' || (found.outcome === 'not_sure' && writer.settings.askWhenNotSure);
    const passages = asked ? bot.forModel(message, context, found.passages) : [];
    const source: AnswerSource | Promise<AnswerSource> =
      passages.length === 0
        ? answerSource(docs(), pacing)
        : writer.write({ message, inlineSources: inline_sources, history, passages, notSure: () => bot.compose(found.passages, inline_sources, message, 'not_sure') }, () => answerSource(docs(), pacing), signal, note);
    if (json) {
      let answer;
      try {
        answer = await collectAnswer(await source);
      } catch (error) {
        if (signal.aborted || !note.failed) throw error;
        // Nothing was sent yet: the docs answer the whole question instead.
        Object.assign(note, { mode: 'docs', fallback: note.failed, failed: undefined });
        log(`model ${written!.model}: ${note.fallback}; answered from the docs`);
        answer = docs();
      }
      return sendJson(res, 200, answer);
    }
    const outcome = await streamAnswer(res, source, streamSettings, signal);
    if (outcome === 'failed') log(`model ${written!.model}: ${note.failed}; the answer ended with an error event`);
    finish(outcome);
  };

  const server = createServer({ noDelay: true }, (req, res) => {
    const record: RecordedRequest = {
      id: nextId++,
      method: req.method ?? '',
      path: pathOf(req.url),
      headers: { ...req.headers },
      body: undefined,
      startedAt: Date.now(),
    };
    requests.push(record);
    const controller = new AbortController();
    inFlight.add(controller);
    res.on('finish', () => {
      record.finishedAt ??= Date.now();
    });
    // 'close' before 'finish' means the connection went away mid-response: stop at once.
    res.on('close', () => {
      inFlight.delete(controller);
      if (record.finishedAt === undefined && !closing) {
        record.abortedAt = Date.now();
        aborts.aborted(record);
      } else {
        aborts.finished(record);
      }
      controller.abort();
      log(`${record.method} ${record.path} ${record.abortedAt ? 'aborted by client' : res.statusCode} ${Date.now() - record.startedAt}ms${answerNote(record.answer)}`);
    });
    handle(req, res, record, controller.signal).catch((error: unknown) => {
      if (controller.signal.aborted) return;
      log(`${record.method} ${record.path} failed: ${(error as Error).message}`);
      if (!res.headersSent) sendJson(res, 500, { detail: 'Internal Server Error' });
      else res.destroy();
    });
  });

  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  try {
    await once(server, 'listening');
  } catch (error) {
    for (const bot of bots.values()) bot.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    keys,
    answers: written ? { mode: 'written', model: written.model } : { mode: 'extractive' },
    bots: [...bots.values()].map((bot) => ({
      id: bot.id,
      kb: bot.dir,
      index: bot.indexFile,
      get documents() {
        return bot.documents;
      },
    })),
    requests,
    waitForAbort: (id) => aborts.wait(id),
    close: async () => {
      if (closing) return;
      closing = true;
      for (const bot of bots.values()) bot.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const controller of inFlight) controller.abort();
      server.closeAllConnections();
      aborts.cancelAll();
      await limiter?.delete(WORKSPACE);
      await closed;
    },
  };
}

/** How a request was answered, for its log line: ` written (model, tokens 812+143)` or ` docs (why)`. */
function answerNote(note: AnswerNote | undefined): string {
  if (!note) return '';
  const details = [note.fallback ?? note.failed, note.usage && `tokens ${note.usage.prompt}+${note.usage.completion}`, note.finish && note.finish !== 'stop' && `finish ${note.finish}`];
  const said = details.filter(Boolean).join(', ');
  return ` ${note.mode}${said ? ` (${said})` : ''}`;
}

function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    return url ?? '';
  }
}

interface AbortWaiter {
  id: number | undefined;
  resolve: (record: RecordedRequest) => void;
  reject: (error: Error) => void;
}

/**
 * Promises for client aborts. Waiting by id resolves when that request is aborted (at once if
 * it already was). Waiting without id resolves with the earliest aborted request that no
 * id-less wait has returned yet, so an abort that happened just before the call is not missed.
 */
class AbortWaiters {
  readonly #waiters: AbortWaiter[] = [];
  readonly #delivered = new Set<number>();

  constructor(private readonly requests: readonly RecordedRequest[]) {}

  wait(id?: number): Promise<RecordedRequest> {
    return new Promise((resolve, reject) => {
      const done = id === undefined ? this.requests.find((r) => r.abortedAt !== undefined && !this.#delivered.has(r.id)) : this.requests.find((r) => r.id === id);
      if (done?.abortedAt !== undefined) {
        if (id === undefined) this.#delivered.add(done.id);
        return resolve(done);
      }
      if (done?.finishedAt !== undefined) return reject(new Error(`Request ${id} finished without being aborted`));
      this.#waiters.push({ id, resolve, reject });
    });
  }

  aborted(record: RecordedRequest): void {
    let anyTaken = false;
    for (const waiter of [...this.#waiters]) {
      const match = waiter.id === record.id || (waiter.id === undefined && !anyTaken);
      if (!match) continue;
      if (waiter.id === undefined) {
        anyTaken = true;
        this.#delivered.add(record.id);
      }
      this.#remove(waiter);
      waiter.resolve(record);
    }
  }

  finished(record: RecordedRequest): void {
    for (const waiter of [...this.#waiters]) {
      if (waiter.id !== record.id) continue;
      this.#remove(waiter);
      waiter.reject(new Error(`Request ${record.id} finished without being aborted`));
    }
  }

  cancelAll(): void {
    for (const waiter of this.#waiters.splice(0)) waiter.reject(new Error('The local Answer API was closed'));
  }

  #remove(waiter: AbortWaiter): void {
    this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
  }
}
