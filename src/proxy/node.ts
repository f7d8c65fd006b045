/**
 * `bot-answer/proxy/node`: everything in `bot-answer/proxy`, plus the Node server around it.
 *
 * - {@link createNodeListener}: a Web handler as a `node:http` `(req, res)` listener (Express, Connect).
 * - {@link serveNode}: serves any Web handler over `node:http` with back-pressure, client aborts and graceful shutdown.
 * - {@link startProxy}: the whole server as the `bot-answer-proxy` command runs it (demo mode included).
 * - {@link createNodeFetch}: a pooled keep-alive upstream client for Node.
 * - {@link createRedisStores}: rate limits and the answer cache shared by every instance through Redis (ioredis).
 */
export * from './index.js';
export { createNodeListener, serveNode, toRequest } from './node-server.js';
export type { NodeListenerOptions, NodeServer, ServeNodeOptions } from './node-server.js';
export { createNodeFetch } from './node-fetch.js';
export type { NodeFetch, NodeFetchOptions } from './node-fetch.js';
export { startProxy } from './server.js';
export type { RunningProxy, StartProxyOptions } from './server.js';
export { createRedisStores, redisAnswerCache } from './stores/redis.js';
export type { RedisStores, RedisStoresOptions } from './stores/redis.js';
export { clearRedisCache } from './stores/open.js';
export type { SharedStateOptions } from './stores/open.js';
