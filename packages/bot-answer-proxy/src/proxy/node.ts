/**
 * `bot-answer-proxy/node`: everything in `bot-answer-proxy`, plus the Node server around it.
 *
 * - {@link createNodeListener}: a Web handler as a `node:http` `(req, res)` listener (Express, Connect).
 * - {@link serveNode}: serves any Web handler over `node:http`, with graceful shutdown.
 * - {@link startProxy}: the whole server as the `bot-answer-proxy` command runs it (demo mode included).
 * - {@link undiciUpstream}: a keep-alive pooled upstream client (undici) for Node.
 * - {@link sqliteInsightsStore}, {@link postgresInsightsStore}: where insights are recorded.
 * - {@link MissingPeerError}: what a setting throws when the optional package it needs (ioredis, pg,
 *   better-sqlite3, bot-answer-engine) is not installed.
 */
export * from './index.js';
export { createNodeListener, serveNode } from './node-server.js';
export type { NodeListenerOptions, NodeServer, ServeNodeOptions } from './node-server.js';
export { undiciUpstream } from './node-upstream.js';
export type { PooledUpstream } from './node-upstream.js';
export { MissingPeerError } from './optional-peer.js';
export { startProxy } from './server.js';
export type { RunningProxy, StartProxyOptions } from './server.js';
export { clearRedisCache, createRedisStores, redisAnswerCache } from './stores/redis.js';
export type { RedisStores, RedisStoresOptions, SharedStateOptions } from './stores/redis.js';
export { openInsightsStore } from '../insights/sql/open.js';
export { postgresInsightsStore } from '../insights/sql/postgres.js';
export type { PostgresInsightsOptions } from '../insights/sql/postgres.js';
export { sqliteInsightsStore } from '../insights/sql/sqlite.js';
