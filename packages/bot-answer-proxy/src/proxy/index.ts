/**
 * `bot-answer-proxy`: the key-holding proxy for the `<bot-answer>` element, as a Web-standard
 * handler that runs anywhere `Request`/`Response` do (Node, Deno, Bun, Hono, Next.js route
 * handlers, Cloudflare Workers). Nothing here imports a Node built-in; the Node server lives in
 * `bot-answer-proxy/node`.
 *
 * - {@link createProxyHandler}: `(Request, {clientAddress}?) => Promise<Response>`, serving answers,
 *   feedback and search as you type.
 */
export { createProxyHandler } from './handler.js';
export type { ProxyHandler, WebHandler } from './handler.js';
export { parseRetryAfter } from './upstream.js';
export { fetchUpstream } from './upstream-client.js';
export { DEFAULTS } from './config.js';
export type { Authorization, HandlerContext, ProxyConfig, RateLimiter } from './config.js';
export type { UpstreamClient, UpstreamRequest, UpstreamResponse } from './upstream-client.js';
export { FAILURES, ProxyError } from './errors.js';
export type { Failure, FailureInfo } from './errors.js';
export { StreamNormaliser } from './normalise.js';
export type { NormalisedEvent } from './normalise.js';
export { normaliseSource, normaliseSources } from './sources.js';
export { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../../bot-answer/src/protocol/stream-events.js';
export { memoryAnswerCache } from './stores/memory-cache.js';
export type { MemoryAnswerCacheOptions } from './stores/memory-cache.js';
export { cacheApiAnswerCache } from './stores/workers-cache.js';
export type { CacheApiAnswerCacheOptions, CacheApiLike } from './stores/workers-cache.js';
export type { AnswerCacheStore, CachedAnswer, CachedSearch, StoreConfig, StoreFailureMode } from './stores/types.js';
export { normaliseSearchResults } from './search.js';
export type { SearchResponse, SearchResult } from '../../../bot-answer/src/protocol/search.js';
export { SqlInsightsStore } from '../insights/sql/store.js';
export type { Migration, SqlClient, SqlDialect, SqlResult, SqlStatement } from '../insights/sql/client.js';
export type { InsightsControl } from '../insights/insights.js';
export type { InsightsStatus } from '../insights/recorder.js';
export type {
  AggregateLimits,
  DayCount,
  ExportCursor,
  ExportRow,
  FeedbackRow,
  InsightsAggregates,
  InsightsBatch,
  InsightsFilter,
  InsightsStore,
  KeyCount,
  QuestionOutcome,
  QuestionRow,
  RatedAnswer,
} from '../insights/types.js';
export { redactPersonalData } from './redact.js';
export { d1InsightsStore } from '../insights/sql/d1.js';
export type { D1DatabaseLike } from '../insights/sql/d1.js';
