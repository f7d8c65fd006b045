/**
 * `bot-answer/proxy`: the key-holding proxy for the `<bot-answer>` element, as a Web-standard
 * handler that runs anywhere `Request`/`Response` do (Node, Deno, Bun, Hono, Next.js route
 * handlers, Cloudflare Workers). Nothing here imports a Node built-in; the Node server lives in
 * `bot-answer/proxy/node`.
 *
 * - {@link createProxyHandler}: `(Request, {clientAddress}?) => Promise<Response>`.
 */
export { createProxyHandler } from './handler.js';
export type { ProxyHandler, WebHandler } from './handler.js';
export { parseRetryAfter, fetchUpstream } from './upstream.js';
export { DEFAULTS } from './config.js';
export type { Authorization, HandlerContext, ProxyConfig, RateLimiter, UpstreamClient, UpstreamRequest, UpstreamResponse } from './config.js';
export { FAILURES, ProxyError } from './errors.js';
export type { Failure, FailureInfo } from './errors.js';
export { StreamNormaliser } from './normalise.js';
export type { NormalisedEvent } from './normalise.js';
export { normaliseSource, normaliseSources } from './sources.js';
export { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../protocol/stream-events.js';
export { memoryAnswerCache } from './stores/memory-cache.js';
export type { MemoryAnswerCacheOptions } from './stores/memory-cache.js';
export { cacheApiAnswerCache } from './stores/workers-cache.js';
export type { CacheApiAnswerCacheOptions, CacheApiLike } from './stores/workers-cache.js';
export type { AnswerCacheStore, CachedAnswer, StoreConfig, StoreFailureMode } from './stores/types.js';
