import { createParser } from 'eventsource-parser';
import type { AnswerRequest, AnswerResponse } from '../protocol/types.js';
import { AnswerCache, resolveCache, type CacheReply } from './answer-cache.js';
import { createAnswerStream, frame, type AnswerStream } from './answer-stream.js';
import { resolveConfig, type BodyReader, type ProxyConfig, type ResolvedConfig, type UpstreamResponse } from './config.js';
import { corsHeaders, decideOrigin, preflightHeaders, type OriginDecision } from './cors.js';
import { FAILURES, ProxyError, toProxyError, type Failure } from './errors.js';
import { StreamNormaliser } from './normalise.js';
import { checkRateLimit, clientKey, memoryRateLimiter } from './rate-limit.js';
import { isJsonContentType, parseAnswerRequest, readRequestText } from './request-body.js';
import { createRedactor } from './redact.js';
import { ACCEPTS_LIGHT, ACCEPTS_LIGHT_SIGNAL, isLightRequest, LightResponse, LightSignal, type LightRequest } from './light.js';
import { RequestTimers } from './timers.js';
import { Utf8Pieces } from './utf8.js';

/** Per-request information a host can give the handler. */
export interface HandlerContext {
  /** The client's address (the TCP peer); used for rate limiting. */
  clientAddress?: string;
}

/** A Web-standard request handler, as `createProxyHandler` returns and `serveNode` serves. */
export type WebHandler = (request: Request, context?: HandlerContext) => Promise<Response>;

/** The proxy's handler: a {@link WebHandler} with a graceful shutdown. */
export interface ProxyHandler extends WebHandler {
  /**
   * Refuses new answer requests (503 `shutting_down`), lets open streams finish for up to
   * `deadlineMs` (default 10000), then ends the rest with a terminal `shutting_down` error event.
   * Resolves when every stream has ended, or 2 s after the deadline at the latest.
   */
  shutdown(deadlineMs?: number): Promise<void>;
  /** Answer streams currently open. */
  readonly activeStreams: number;
  /** Removes every cached answer (resolves to how many, when the store can tell); 0 without a cache. */
  clearCache(): Promise<number | undefined>;
}

/** The fields of one request's log line. */
interface LogRecord {
  time: string;
  level: 'info' | 'warn' | 'error';
  msg: 'request';
  id: string;
  method: string;
  path: string;
  status: number;
  duration_ms?: number;
  bytes: number;
  bot?: string;
  stream?: boolean;
  outcome: string;
  code?: string;
  upstream_status?: number;
  malformed_events?: number;
  message?: string;
  upstream_note?: string;
  /** How the answer cache served it: hit, miss, shared (another request's answer), when the cache is on. */
  cache?: string;
}

const encoder = new TextEncoder();

const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
  'x-content-type-options': 'nosniff',
};

/**
 * Creates the key-holding proxy as a Web-standard handler:
 * `POST /api/answer` (JSON or the project's SSE stream), `OPTIONS /api/answer` (CORS
 * preflight) and `GET /healthz`. Runs anywhere `Request`/`Response` exist (Node via
 * `serveNode`, Hono, Next.js route handlers, edge runtimes).
 */
export function createProxyHandler(config: ProxyConfig): ProxyHandler {
  const cfg = resolveConfig(config);
  const redact = createRedactor(cfg.apiKey);
  const limiter = cfg.rateLimiter ?? (cfg.rateLimitPerMinute > 0 ? memoryRateLimiter(cfg.rateLimitPerMinute) : undefined);
  const cacheSettings = resolveCache(config, cfg);
  const cache = cacheSettings ? new AnswerCache(cacheSettings) : undefined;
  const storeFailure = config.storeFailure ?? 'fallback';
  const streams = new Set<AnswerStream>();
  const lightSignals = (cfg.fetch as { [ACCEPTS_LIGHT_SIGNAL]?: boolean })[ACCEPTS_LIGHT_SIGNAL] === true;
  let shuttingDown = false;
  let drained: (() => void) | undefined;

  const writeLog = (record: LogRecord, startedAt: number) => {
    record.time = new Date().toISOString();
    record.duration_ms = Date.now() - startedAt;
    // Only these fields carry text from outside (the client, or the upstream, which may echo
    // the key back): the key never reaches a log line, and the rest is not scanned for it.
    record.method = redact(record.method);
    record.path = redact(record.path);
    if (record.bot !== undefined) record.bot = redact(record.bot);
    if (record.message !== undefined) record.message = redact(record.message);
    if (record.upstream_note !== undefined) record.upstream_note = redact(record.upstream_note);
    cfg.log(JSON.stringify(record));
  };

  async function handle(request: Request | LightRequest, context: HandlerContext = {}): Promise<Response | LightResponse> {
    const startedAt = Date.now();
    const id = crypto.randomUUID();
    // From the Node adapter: no Request to build, no Response to read back.
    const light = isLightRequest(request);
    let url: URL | undefined;
    const hostOf = () => (url ??= new URL(request.url)).host;
    const pathname = light ? request.pathname : (url = new URL(request.url)).pathname;
    const record: LogRecord = { time: '', level: 'info', msg: 'request', id, method: request.method, path: pathname, status: 0, bytes: 0, outcome: 'ok' };
    const origin = request.headers.get('origin');
    let decision: OriginDecision = 'none';
    const isAnswer = pathname === cfg.answerPath;

    const respond = (status: number, body: string | null, headers: Record<string, string>): Response | LightResponse => {
      headers['x-request-id'] = id;
      if (isAnswer) corsHeaders(headers, decision, origin);
      const bytes = body === null ? null : encoder.encode(body);
      if (bytes !== null) headers['content-length'] = String(bytes.byteLength);
      record.status = status;
      record.bytes = bytes === null ? 0 : bytes.byteLength;
      if (status >= 500) record.level = record.level === 'info' ? 'warn' : record.level;
      writeLog(record, startedAt);
      const payload = request.method === 'HEAD' ? null : bytes;
      return light ? new LightResponse(status, headers, payload) : new Response(payload, { status, headers });
    };

    const fail = (error: ProxyError, extra?: Record<string, string>): Response | LightResponse => {
      const info = error.info;
      record.outcome = request.signal.aborted ? 'aborted' : info.outcome;
      record.code = info.code;
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extra };
      if (error.retryAfter !== undefined) headers['retry-after'] = String(error.retryAfter);
      return respond(request.signal.aborted ? 499 : info.status, JSON.stringify({ error: error.toBody() }), headers);
    };

    try {
      if (pathname === cfg.healthPath) {
        if (request.method !== 'GET' && request.method !== 'HEAD') return fail(new ProxyError('method_not_allowed'), { allow: 'GET, HEAD' });
        return respond(200, '{"ok":true}', { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      }
      if (!isAnswer) return fail(new ProxyError('not_found'));
      decision = decideOrigin(origin, hostOf, cfg.allowedOrigins);
      if (request.method === 'OPTIONS') {
        if (decision === 'forbidden') return fail(new ProxyError('origin_not_allowed'));
        const headers: Record<string, string> = {};
        preflightHeaders(headers);
        record.outcome = 'preflight';
        return respond(204, null, headers);
      }
      if (request.method !== 'POST') return fail(new ProxyError('method_not_allowed'), { allow: 'POST, OPTIONS' });
      if (decision === 'forbidden') return fail(new ProxyError('origin_not_allowed'));
      if (limiter) {
        const wait = await checkRateLimit(limiter, clientKey(request.headers, context.clientAddress, cfg.trustProxy), storeFailure);
        if (wait !== undefined) return fail(new ProxyError('rate_limited', { retryAfter: wait }));
      }
      if (!isJsonContentType(request.headers.get('content-type'))) return fail(new ProxyError('not_json_content_type'));
      const body = parseAnswerRequest(await readRequestText(request, cfg.maxBodyBytes), cfg.maxMessageChars);
      record.bot = body.bot_id;
      record.stream = body.stream;
      if (cfg.debug) record.message = body.message;
      if (cfg.allowedBotIds.length > 0 && !cfg.allowedBotIds.includes(body.bot_id)) return fail(new ProxyError('bot_not_allowed'));
      if (shuttingDown) return fail(new ProxyError('shutting_down'));
      if (cache && !light) {
        const reply: CacheReply = (status, payload, kind, headers) => {
          const all: Record<string, string> = { ...(kind === 'json' ? JSON_HEADERS : SSE_HEADERS), ...headers };
          if (typeof payload === 'string') return respond(status, payload, all) as Response;
          all['x-request-id'] = id;
          corsHeaders(all, decision, origin);
          record.status = status;
          writeLog(record, startedAt);
          return new Response(payload, { status, headers: all });
        };
        const produce = () => answer(request, body, record, startedAt, decision, respond, fail) as Promise<Response>;
        return await cache.serve(body, request.signal, produce, reply, (outcome) => (record.cache = outcome));
      }
      return await answer(request, body, record, startedAt, decision, respond, fail);
    } catch (error) {
      return fail(toProxyError(error));
    }
  }

  async function answer(
    request: Request | LightRequest,
    body: AnswerRequest,
    record: LogRecord,
    startedAt: number,
    decision: OriginDecision,
    respond: (status: number, body: string | null, headers: Record<string, string>) => Response | LightResponse,
    fail: (error: ProxyError, extra?: Record<string, string>) => Response | LightResponse,
  ): Promise<Response | LightResponse> {
    // The pooled Node client takes a plain signal object: an AbortSignal is heavy to keep per open stream.
    const upstreamAbort = lightSignals ? new LightSignal() : new AbortController();
    const upstreamSignal = upstreamAbort instanceof LightSignal ? (upstreamAbort as unknown as AbortSignal) : upstreamAbort.signal;
    const timers = new RequestTimers(upstreamAbort, cfg, startedAt);
    const onClientGone = () => timers.abortUpstream();
    request.signal.addEventListener('abort', onClientGone, { once: true });
    const cleanup = () => {
      timers.clear();
      request.signal.removeEventListener('abort', onClientGone);
    };
    let keepOpen = false;
    try {
      const upstream = await callUpstream(cfg, body, upstreamSignal, timers);
      record.upstream_status = upstream.status;
      checkUpstreamStatus(upstream, record, cfg);
      const type = (upstream.headers.get('content-type') ?? '').toLowerCase();
      const isSse = type.includes('text/event-stream') || (!type.includes('json') && body.stream === true);

      // Taken once, when needed: a small JSON body is read whole with `text()` instead.
      let reader: BodyReader | null | undefined;
      const bodyReader = () => (reader === undefined ? (reader = readerOf(upstream)) : reader);
      if (body.stream && isSse && bodyReader()) {
        const running: AnswerStream = createAnswerStream({
          reader: bodyReader()!,
          timers,
          clientSignal: request.signal,
          heartbeatMs: cfg.heartbeatMs,
          maxEventChars: cfg.maxEventChars,
          onEnd: (end) => {
            cleanup();
            streams.delete(running);
            if (streams.size === 0) drained?.();
            record.bytes = end.bytes;
            record.outcome = end.outcome;
            if (end.failure) {
              record.code = FAILURES[end.failure].code;
              record.level = 'warn';
            }
            if (end.normaliser.malformed > 0) record.malformed_events = end.normaliser.malformed;
            if (cfg.debug && end.normaliser.upstreamErrorNote) record.upstream_note = end.normaliser.upstreamErrorNote;
            writeLog(record, startedAt);
          },
        });
        streams.add(running);
        keepOpen = true;
        const headers: Record<string, string> = { ...SSE_HEADERS, 'x-request-id': record.id };
        corsHeaders(headers, decision, request.headers.get('origin'));
        record.status = 200;
        return isLightRequest(request) ? new LightResponse(200, headers, running) : new Response(running.stream, { status: 200, headers });
      }

      // One complete answer: JSON (asked for, or the upstream ignored `stream: true`), or a stream collected whole.
      const normaliser = new StreamNormaliser(() => {});
      if (isSse) await collectSse(bodyReader(), normaliser, timers, cfg.maxEventChars);
      else {
        const text = await readUpstreamText(upstream, bodyReader, cfg.maxUpstreamBytes, timers);
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          throw new ProxyError('upstream_bad_answer');
        }
        if (!normaliser.value(json)) throw new ProxyError('upstream_bad_answer');
        if (!normaliser.ended) normaliser.end();
      }
      if (cfg.debug && normaliser.upstreamErrorNote) record.upstream_note = normaliser.upstreamErrorNote;
      const result: AnswerResponse = { answer: normaliser.text, answer_found: normaliser.answerFound ?? normaliser.text.length > 0, sources: normaliser.sources };
      const failed = failureOf(normaliser);
      if (failed) throw new ProxyError(failed);
      if (body.stream) {
        let text = '';
        if (result.answer !== '') text += frame({ type: 'delta', text: result.answer });
        if (result.sources.length > 0) text += frame({ type: 'sources', sources: result.sources });
        text += frame({ type: 'done', answer_found: result.answer_found });
        return respond(200, text, { ...SSE_HEADERS });
      }
      return respond(200, JSON.stringify(result), { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    } catch (error) {
      // Only a failed exchange is aborted: aborting a completed one would cost the pooled connection.
      timers.abortUpstream();
      if (request.signal.aborted && !timers.reason) {
        record.outcome = 'aborted';
        const response = fail(new ProxyError('stream_broken'));
        return response;
      }
      const failure = timers.reason ? new ProxyError(timers.reason) : toProxyError(error);
      if (failure.failure === 'internal') record.level = 'error';
      return fail(failure);
    } finally {
      if (!keepOpen) cleanup();
    }
  }

  const handler = handle as unknown as ProxyHandler;
  // The cache works on Web responses: with it on, the Node adapter passes Web requests.
  Object.defineProperty(handler, ACCEPTS_LIGHT, { value: !cache });
  handler.clearCache = async () => (cache ? cache.clear() : 0);
  handler.shutdown = async (deadlineMs = 10_000) => {
    shuttingDown = true;
    if (streams.size === 0) return;
    const allDone = new Promise<void>((resolve) => (drained = resolve));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs)));
    await Promise.race([allDone, deadline]);
    clearTimeout(timer);
    for (const running of streams) running.stop('shutting_down');
    if (streams.size > 0) {
      // A stream whose client stopped reading cannot take its error event; do not wait on it for ever.
      let grace: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([allDone, new Promise<void>((resolve) => (grace = setTimeout(resolve, 2_000)))]);
      clearTimeout(grace);
    }
  };
  Object.defineProperty(handler, 'activeStreams', { get: () => streams.size });
  return handler;
}


function failureOf(normaliser: StreamNormaliser): Failure | undefined {
  return normaliser.errorFailure;
}

/** The upstream body's reader: the light one when the client offers it, else the Web stream's. */
function readerOf(response: UpstreamResponse): BodyReader | null {
  return response.reader ? response.reader() : (response.body?.getReader() ?? null);
}

/** Sends the one upstream request; never retried (each upstream request costs money). */
async function callUpstream(cfg: ResolvedConfig, body: AnswerRequest, signal: AbortSignal, timers: RequestTimers): Promise<UpstreamResponse> {
  timers.startHeaders();
  try {
    const response = await cfg.fetch(cfg.upstreamUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${cfg.apiKey}`,
        'content-type': 'application/json',
        accept: body.stream ? 'text/event-stream, application/json' : 'application/json',
      },
      body: JSON.stringify(body),
      signal,
      redirect: 'manual',
    });
    timers.headersArrived();
    return response;
  } catch (error) {
    if (timers.reason) throw new ProxyError(timers.reason);
    throw new ProxyError('upstream_unreachable');
  }
}

/** Maps a non-success upstream status to a failure; the upstream's body is never passed on. */
function checkUpstreamStatus(response: UpstreamResponse, record: LogRecord, cfg: ResolvedConfig): void {
  const status = response.status;
  if (status >= 200 && status < 300 && response.type !== 'opaqueredirect') return;
  response.body?.cancel().catch(() => {});
  let failure: Failure;
  let retryAfter: number | undefined;
  if (response.type === 'opaqueredirect' || (status >= 300 && status < 400)) failure = 'upstream_redirect';
  else if (status === 401 || status === 403) {
    failure = 'upstream_unauthorized';
    record.level = 'error';
    cfg.log(JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'upstream rejected the API key: check ANSWER_API_KEY', id: record.id, upstream_status: status }));
  } else if (status === 404) failure = 'upstream_unknown_bot';
  else if (status === 400 || status === 422) failure = 'upstream_rejected';
  else if (status === 402) failure = 'upstream_payment';
  else if (status === 429) {
    failure = 'upstream_rate_limited';
    retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  } else failure = 'upstream_failed';
  throw new ProxyError(failure, { retryAfter });
}

/** Retry-After as whole seconds (from seconds or an HTTP date), 60 when missing, capped at an hour. */
export function parseRetryAfter(value: string | null): number {
  if (value) {
    const seconds = /^\s*\d+\s*$/.test(value) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
    if (Number.isFinite(seconds)) return Math.min(3600, Math.max(1, Math.ceil(seconds)));
  }
  return 60;
}

/** Reads an upstream body as text up to `maxBytes`, restarting the idle timeout per chunk. */
async function readUpstreamText(response: UpstreamResponse, bodyReader: () => BodyReader | null, maxBytes: number, timers: RequestTimers): Promise<string> {
  const length = Number(response.headers.get('content-length') ?? NaN);
  // A declared length is enforced by the HTTP framing, so a small body can be read in one go.
  if (response.text && Number.isInteger(length) && length <= maxBytes) {
    try {
      return await response.text();
    } catch {
      throw new ProxyError(timers.reason ?? 'stream_broken');
    }
  }
  const reader = bodyReader();
  if (!reader) return '';
  const decoder = new Utf8Pieces();
  let text = '';
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.end();
      timers.touch();
      total += value.byteLength;
      if (total > maxBytes) throw new ProxyError('upstream_bad_answer');
      text += decoder.decode(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    if (error instanceof ProxyError) throw error;
    throw new ProxyError(timers.reason ?? 'stream_broken');
  }
}

/** Reads a whole upstream SSE stream into `normaliser` (for a JSON answer to a stream). */
async function collectSse(reader: BodyReader | null, normaliser: StreamNormaliser, timers: RequestTimers, maxEventChars: number): Promise<void> {
  if (!reader) return normaliser.end();
  const decoder = new Utf8Pieces();
  let oversized = false;
  const parser = createParser({
    onEvent: (event) => normaliser.event(event.event, event.data),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') oversized = true;
    },
    maxBufferSize: maxEventChars,
  });
  try {
    while (!normaliser.ended) {
      const { done, value } = await reader.read();
      if (done) {
        parser.feed(`${decoder.end()}\n\n`);
        normaliser.end();
        break;
      }
      timers.touch();
      parser.feed(decoder.decode(value));
      if (oversized) normaliser.broken('upstream_event_too_large');
    }
  } catch {
    normaliser.broken(timers.reason ?? 'stream_broken');
  } finally {
    reader.cancel().catch(() => {});
  }
}

