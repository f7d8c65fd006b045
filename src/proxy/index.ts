/**
 * `bot-answer/proxy`: the key-holding proxy for the `<bot-answer>` element, as a Web-standard
 * handler that runs anywhere `Request`/`Response` do (Node, Deno, Bun, Hono, Next.js route
 * handlers, edge runtimes). Nothing here imports a Node built-in; the Node server lives in
 * `bot-answer/proxy/node`.
 *
 * - {@link createProxyHandler}: `(Request, {clientAddress}?) => Promise<Response>`.
 * - {@link memoryAnswerCache}, {@link cacheApiAnswerCache}: answer-cache stores (the Redis ones are in `bot-answer/proxy/node`).
 */
export { createProxyHandler, parseRetryAfter } from './handler.js';
export type { HandlerContext, ProxyHandler, WebHandler } from './handler.js';
export { DEFAULTS } from './config.js';
export type { BodyReader, BodyReadResult, ProxyConfig, RateLimiter, UpstreamFetch, UpstreamResponse } from './config.js';
export { FAILURES, ProxyError } from './errors.js';
export type { Failure, FailureInfo } from './errors.js';
export { StreamNormaliser } from './normalise.js';
export type { NormalisedEvent } from './normalise.js';
export { normaliseSource, normaliseSources } from './sources.js';
export { memoryAnswerCache } from './stores/memory-cache.js';
export type { MemoryAnswerCacheOptions } from './stores/memory-cache.js';
export { cacheApiAnswerCache } from './stores/workers-cache.js';
export type { CacheApiAnswerCacheOptions, CacheApiLike } from './stores/workers-cache.js';
export type { AnswerCacheStore, CachedAnswer, StoreConfig, StoreFailureMode } from './stores/types.js';
