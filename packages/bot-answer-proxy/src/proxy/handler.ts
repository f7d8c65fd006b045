import type { AnswerRequest } from '../../../bot-answer/src/protocol/types.js';
import { createAccessLog } from './access-log.js';
import { fetchAnswer } from './answer.js';
import { upstreamRequest } from './history.js';
import { AnswerCache, resolveCache } from './answer-cache.js';
import { checkCaller, readAnswerRequest, readFeedback } from './checks.js';
import { resolveConfig, type HandlerContext, type ProxyConfig } from './config.js';
import { JSON_HEADERS, RequestContext } from './context.js';
import { decideOrigin, preflightHeaders } from './cors.js';
import { FAILURES, ProxyError, toProxyError } from './errors.js';
import { Insights, type AnswerWatch, type InsightsControl } from '../insights/insights.js';
import { memoryRateLimiter } from './rate-limit.js';
import { redactPersonalData } from './redact.js';
import { SearchRoute } from './search.js';
import { MAX_COMMENT_CHARS } from './request-body.js';
import { AnswerStream, SSE_HEADERS, resultFrames } from './sse.js';
import { deadline, RequestTimers } from './timers.js';

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
  /** Insights recording, when `insightsStore` is set: its state, and writing what waits now. */
  readonly insights: InsightsControl | undefined;
}

/**
 * Creates the key-holding proxy as a Web-standard handler: `POST /api/answer` (JSON or the
 * project's SSE stream), `POST /api/answer/feedback`, `GET /api/search` (search as you type),
 * `OPTIONS` on each (CORS preflight),
 * `GET /healthz`, and with insights on, the owner's routes under `/insights`. Runs anywhere `Request`/`Response` exist (Node via `serveNode`, Hono, Next.js
 * route handlers, Cloudflare Workers and other edge runtimes).
 */
export function createProxyHandler(config: ProxyConfig): ProxyHandler {
  const cfg = resolveConfig(config);
  const log = createAccessLog(cfg);
  const limiter = cfg.rateLimiter ?? (cfg.rateLimitPerMinute > 0 ? memoryRateLimiter(cfg.rateLimitPerMinute) : undefined);
  const cacheSettings = resolveCache(config, cfg);
  const cache = cacheSettings ? new AnswerCache(cacheSettings) : undefined;
  const search = new SearchRoute(cfg, config);
  if (cfg.insightsToken && !cfg.insightsStore) throw new TypeError('bot-answer proxy: insightsToken needs an insightsStore (INSIGHTS_DB) to read from');
  const insights = cfg.insightsStore ? new Insights(cfg.insightsStore, cfg, log) : undefined;
  const streams = new Set<AnswerStream>();
  let shuttingDown = false;
  let drained: (() => void) | undefined;

  async function handle(request: Request, host: HandlerContext = {}): Promise<Response> {
    const ctx = new RequestContext(request, host, cfg, log);
    try {
      return await route(ctx);
    } catch (error) {
      return ctx.fail(toProxyError(error));
    }
  }

  async function route(ctx: RequestContext): Promise<Response> {
    const { request } = ctx;
    const pathname = ctx.url.pathname;
    if (pathname === cfg.healthPath) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return ctx.fail(new ProxyError('method_not_allowed'), { allow: 'GET, HEAD' });
      return ctx.respond(200, '{"ok":true}', { ...JSON_HEADERS });
    }
    if (insights?.owns(pathname)) return (await insights.route(ctx)) ?? ctx.fail(new ProxyError('not_found'));
    if (pathname === cfg.searchPath) {
      ctx.cors = decideOrigin(ctx.origin, ctx.url.host, cfg.allowedOrigins);
      return search.handle(ctx);
    }
    const isFeedback = pathname === cfg.feedbackPath;
    if (pathname !== cfg.answerPath && !isFeedback) throw new ProxyError('not_found');
    ctx.cors = decideOrigin(ctx.origin, ctx.url.host, cfg.allowedOrigins);
    if (request.method === 'OPTIONS') {
      if (ctx.cors === 'forbidden') throw new ProxyError('origin_not_allowed');
      ctx.record.outcome = 'preflight';
      return ctx.respond(204, null, preflightHeaders(cfg.allowCredentials));
    }
    if (request.method !== 'POST') return ctx.fail(new ProxyError('method_not_allowed'), { allow: 'POST, OPTIONS' });
    await checkCaller(ctx, limiter, isFeedback ? 'feedback:' : '');
    if (isFeedback) return feedback(ctx);
    const body = await readAnswerRequest(ctx);
    const watch = insights?.watch(ctx, body);
    if (shuttingDown) throw new ProxyError('shutting_down');
    return answer(ctx, body, watch);
  }

  async function feedback(ctx: RequestContext): Promise<Response> {
    const feedback = await readFeedback(ctx);
    ctx.record.outcome = 'feedback';
    const comment = feedback.comment === undefined ? undefined : redactPersonalData(log.redact(feedback.comment)).slice(0, MAX_COMMENT_CHARS);
    log.event('info', 'feedback', { id: log.redact(feedback.request_id), bot: log.redact(feedback.bot_id), rating: feedback.rating, comment, user: ctx.user });
    insights?.feedback(ctx, feedback);
    return ctx.respond(204, null, {});
  }

  async function answer(ctx: RequestContext, asked: AnswerRequest, watch: AnswerWatch | undefined): Promise<Response> {
    const { request, record } = ctx;
    // What the upstream receives (and the cache keys on): the conversation as the setting says.
    const body = upstreamRequest(asked, cfg.upstreamHistory);
    if (body.history) record.history = body.history.length;
    const upstream = new AbortController();
    const timers = new RequestTimers(upstream, cfg, ctx.startedAt);
    const onClientGone = () => timers.abortUpstream();
    request.signal.addEventListener('abort', onClientGone, { once: true });
    const cleanup = () => {
      timers.clear();
      request.signal.removeEventListener('abort', onClientGone);
    };
    // With the cache on, every answer (errors from the upstream too) says whether it asked the upstream.
    const cacheHeader = (): Record<string, string> => (record.cache === undefined ? {} : { 'x-cache': record.cache === 'miss' ? 'MISS' : 'HIT' });
    try {
      const fetch = () => fetchAnswer(ctx, body, upstream.signal, timers);
      const answer = cache ? await cache.answer(body, request.signal, fetch, (outcome) => (record.cache = outcome)) : await fetch();
      if (answer.result) {
        watch?.result(answer.result);
        cleanup();
        if (body.stream) return ctx.respond(200, resultFrames(answer.result), { ...SSE_HEADERS, ...cacheHeader() });
        return ctx.respond(200, JSON.stringify(answer.result), { ...JSON_HEADERS, ...cacheHeader() });
      }
      const events = watch ? watch.events(answer.events) : answer.events;
      const stream: AnswerStream = new AnswerStream(events, cfg.heartbeatMs, (end) => {
        cleanup();
        streams.delete(stream);
        if (streams.size === 0) drained?.();
        record.bytes = end.bytes;
        record.outcome = end.outcome;
        if (end.failure) {
          record.code = FAILURES[end.failure].code;
          record.level = 'warn';
        }
        if (events.malformed > 0) record.malformed_events = events.malformed;
        if (cfg.debug && events.upstreamNote) record.upstream_note = events.upstreamNote;
        ctx.complete();
      });
      streams.add(stream);
      record.status = 200;
      return new Response(stream.body, { status: 200, headers: ctx.headers({ ...SSE_HEADERS, ...cacheHeader() }) });
    } catch (error) {
      cleanup();
      timers.abortUpstream();
      if (request.signal.aborted && !timers.reason) return ctx.fail(new ProxyError('stream_broken'));
      return ctx.fail(timers.reason ? new ProxyError(timers.reason) : toProxyError(error), cacheHeader());
    }
  }

  const handler = handle as ProxyHandler;
  handler.shutdown = async (deadlineMs = 10_000) => {
    shuttingDown = true;
    if (streams.size > 0) {
      const allDone = new Promise<void>((resolve) => (drained = resolve));
      const wait = (ms: number) => deadline(allDone, ms, () => {});
      await wait(deadlineMs);
      for (const stream of streams) stream.stop('shutting_down');
      // A stream whose client stopped reading cannot take its error event: do not wait on it for ever.
      if (streams.size > 0) await wait(2_000);
    }
    // The last answers' rows are written before the store closes (one attempt: a database that is away loses them).
    await insights?.flush();
  };
  Object.defineProperty(handler, 'activeStreams', { get: () => streams.size });
  handler.clearCache = async () => (cache ? cache.clear() : 0);
  Object.defineProperty(handler, 'insights', { value: insights });
  return handler;
}
