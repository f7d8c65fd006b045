/**
 * `bot-answer/proxy`: the key-holding proxy for the `<bot-answer>` element.
 *
 * - {@link createProxyHandler}: a Web-standard `(Request) => Promise<Response>` handler for any
 *   runtime (Node, Hono, Next.js route handlers, edge).
 * - {@link serveNode}: serves any Web handler over `node:http`.
 * - {@link startProxy}: the whole server as the `bot-answer-proxy` command runs it (demo mode included).
 * - {@link createNodeFetch}: a pooled keep-alive upstream client for Node.
 */
export { createProxyHandler, parseRetryAfter } from './handler.js';
export type { HandlerContext, ProxyHandler, WebHandler } from './handler.js';
export { DEFAULTS } from './config.js';
export type { ProxyConfig, RateLimiter, UpstreamFetch, UpstreamResponse } from './config.js';
export { serveNode, toRequest } from './node-server.js';
export type { NodeServer, ServeNodeOptions } from './node-server.js';
export { createNodeFetch } from './node-fetch.js';
export type { NodeFetch, NodeFetchOptions } from './node-fetch.js';
export { startProxy } from './server.js';
export type { RunningProxy, StartProxyOptions } from './server.js';
export { FAILURES, ProxyError } from './errors.js';
export type { Failure, FailureInfo } from './errors.js';
export { StreamNormaliser } from './normalise.js';
export type { NormalisedEvent } from './normalise.js';
export { normaliseSource, normaliseSources } from './sources.js';
