import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import { logLine } from '../access-log.js';
import { DEFAULTS, type RateLimiter } from '../config.js';
import { requirePeer } from '../optional-peer.js';
import { memoryRateLimiter } from '../rate-limit.js';
import type { AnswerCacheStore, CachedAnswer, CachedSearch, StoreConfig, StoreFailureMode } from './types.js';

/** Options of {@link createRedisStores}. */
export interface RedisStoresOptions {
  /** `redis://[:password@]host:port[/db]` (or `rediss://`). Ignored when `client` is given. */
  url?: string;
  /** A client of your own (ioredis); you close it. Give it `enableOfflineQueue: false`, or requests wait while Redis is away. */
  client?: Redis;
  /** Prefix of every key. Default `bot-answer`. */
  keyPrefix?: string;
  /** Answer requests per client per minute, shared by every instance. 0 or unset: no limiter. */
  rateLimitPerMinute?: number;
  /** Searches per client per minute, shared by every instance. 0 or unset: no search limiter. */
  searchRateLimitPerMinute?: number;
  /** What the limiter does while Redis is away. Default `'fallback'`: counts per instance in memory. */
  failure?: StoreFailureMode;
  /** Receives the outage and recovery lines (JSON), once each per outage. Default `console.log`. */
  log?: (line: string) => void;
}

/** The shared stores of every proxy instance, in one Redis. */
export interface RedisStores {
  /** The shared rate limiter (rate-limiter-flexible's Redis limiter), when a limit was given. */
  rateLimiter?: RateLimiter;
  /** The shared search limiter, when a search limit was given. */
  searchRateLimiter?: RateLimiter;
  /** The shared answer cache, with a cross-instance lock so one instance asks each question. */
  cache: AnswerCacheStore;
  /** The shared search cache (keys under `<prefix>:search:`). */
  searchCache: AnswerCacheStore<CachedSearch>;
  client: Redis;
  /** Resolves `true` once connected, `false` if not within `timeoutMs` (default 2000); never rejects. */
  ready(timeoutMs?: number): Promise<boolean>;
  /** True while Redis answers. */
  readonly up: boolean;
  /** Closes the client it made. */
  close(): Promise<void>;
}

/**
 * Rate limits, the answer cache and the search cache shared through Redis (ioredis), for several proxy instances.
 *
 * The client fails fast while Redis is away (no offline queue, 1 s command timeout) and
 * reconnects on its own (every 0.2 s to 2 s); the outage is logged once, and so is the recovery.
 */
export function createRedisStores(options: RedisStoresOptions): RedisStores {
  const prefix = options.keyPrefix ?? 'bot-answer';
  const log = options.log ?? ((line: string) => console.log(line));
  const own = !options.client;
  if (own && !options.url) throw new TypeError('bot-answer proxy: createRedisStores needs a url or a client');
  const client =
    options.client ??
    new (requirePeer<typeof import('ioredis')>('ioredis', 'Redis (REDIS_URL)').Redis)(options.url!, {
      enableOfflineQueue: false,
      commandTimeout: 1_000,
      connectTimeout: 2_000,
      maxRetriesPerRequest: 1,
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
  const health = watch(client, log);
  const limiter = (perMinute: number, keyPrefix: string): RateLimiter | undefined =>
    perMinute > 0
      ? new RateLimiterRedis({
          storeClient: client,
          points: perMinute,
          duration: 60,
          keyPrefix,
          rejectIfRedisNotReady: true,
          insuranceLimiter: (options.failure ?? 'fallback') === 'fallback' ? memoryRateLimiter(perMinute) : undefined,
        })
      : undefined;
  return {
    rateLimiter: limiter(options.rateLimitPerMinute ?? 0, `${prefix}:rl`),
    searchRateLimiter: limiter(options.searchRateLimitPerMinute ?? 0, `${prefix}:rl-search`),
    cache: redisAnswerCache(client, prefix),
    searchCache: redisAnswerCache<CachedSearch>(client, `${prefix}:search`),
    client,
    ready: (timeoutMs = 2_000) => health.ready(timeoutMs),
    get up() {
      return health.up;
    },
    async close() {
      health.stop();
      if (own) await client.quit().catch(() => client.disconnect());
    },
  };
}

/** Where the command's shared state lives: its settings as flags and environment give them. */
export interface SharedStateOptions {
  /** Redis shared by every instance; unset: everything in memory. */
  redisUrl?: string;
  /** Prefix of every Redis key. Default `bot-answer`. */
  redisKeyPrefix?: string;
  /** What happens while Redis is away. Default `'fallback'`. */
  redisFailureMode?: StoreFailureMode;
}

/**
 * Opens the shared stores the command's settings ask for: with a Redis URL, one ioredis client
 * serving the rate limiter and (when the cache is on) the answer cache; waits up to 2 s for
 * it, then goes on in the failure mode (the client keeps reconnecting). Without one: nothing
 * (the handler's memory defaults).
 */
export async function openStores(
  options: SharedStateOptions & StoreConfig & { rateLimitPerMinute?: number; searchRateLimitPerMinute?: number },
  log: (line: string) => void,
): Promise<{ config: StoreConfig & { rateLimiter?: RateLimiter; searchRateLimiter?: RateLimiter }; close(): Promise<void> }> {
  if (!options.redisUrl) return { config: {}, close: async () => {} };
  const stores = createRedisStores({
    url: options.redisUrl,
    keyPrefix: options.redisKeyPrefix,
    rateLimitPerMinute: options.rateLimitPerMinute ?? DEFAULTS.rateLimitPerMinute,
    searchRateLimitPerMinute: options.searchRateLimitPerMinute ?? DEFAULTS.searchRateLimitPerMinute,
    failure: options.redisFailureMode,
    log,
  });
  await stores.ready(2_000);
  return {
    config: {
      rateLimiter: stores.rateLimiter,
      searchRateLimiter: stores.searchRateLimiter,
      cacheStore: (options.cacheTtlSeconds ?? 0) > 0 ? stores.cache : undefined,
      searchCacheStore: stores.searchCache,
      storeFailure: options.redisFailureMode,
    },
    close: () => stores.close(),
  };
}

/** Removes every cached answer from the Redis at `options.redisUrl`; resolves to how many. */
export async function clearRedisCache(options: SharedStateOptions): Promise<number> {
  if (!options.redisUrl) throw new TypeError('the answer cache is in memory without REDIS_URL: restarting the proxy clears it');
  const stores = createRedisStores({ url: options.redisUrl, keyPrefix: options.redisKeyPrefix, log: () => {} });
  try {
    if (!(await stores.ready(5_000))) throw new Error('could not reach Redis at REDIS_URL');
    return (await stores.cache.clear()) ?? 0;
  } finally {
    await stores.close();
  }
}

const UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** The answer cache in Redis: `SET key value EX ttl`, a `SET NX PX` lock per question, `SCAN` + `UNLINK` to clear. */
export function redisAnswerCache<T = CachedAnswer>(client: Redis, prefix = 'bot-answer'): AnswerCacheStore<T> {
  const tokens = new Map<string, string>();
  const cacheKey = (key: string) => `${prefix}:cache:${key}`;
  const lockKey = (key: string) => `${prefix}:lock:${key}`;
  return {
    async get(key) {
      const text = await client.get(cacheKey(key));
      return text === null ? undefined : (JSON.parse(text) as T);
    },
    async set(key, value, ttlSeconds) {
      await client.set(cacheKey(key), JSON.stringify(value), 'EX', Math.max(1, Math.round(ttlSeconds)));
    },
    async clear() {
      let cursor = '0';
      let removed = 0;
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:cache:*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) removed += await client.unlink(...keys);
      } while (cursor !== '0');
      return removed;
    },
    async lock(key, ttlMs) {
      const token = randomUUID();
      const taken = await client.set(lockKey(key), token, 'PX', Math.max(1, Math.round(ttlMs)), 'NX');
      if (taken !== 'OK') return false;
      tokens.set(key, token);
      return true;
    },
    async unlock(key) {
      const token = tokens.get(key);
      if (token === undefined) return;
      tokens.delete(key);
      await client.eval(UNLOCK, 1, lockKey(key), token);
    },
  };
}

/** Logs an outage once when the connection goes, and once when it is back. */
function watch(client: Redis, log: (line: string) => void) {
  let up = client.status === 'ready';
  let reported = false;
  const down = (error?: Error) => {
    up = false;
    if (reported) return;
    reported = true;
    log(logLine('error', 'redis unavailable: reconnecting in the background; until then limits and cache follow the store-failure setting', { error: (error as { code?: string } | undefined)?.code ?? error?.message }));
  };
  const onReady = () => {
    up = true;
    if (reported) log(logLine('info', 'redis available again'));
    reported = false;
  };
  client.on('ready', onReady);
  client.on('error', down);
  client.on('close', down);
  return {
    get up() {
      return up;
    },
    ready(timeoutMs: number): Promise<boolean> {
      if (client.status === 'ready') return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          client.off('ready', ok);
          resolve(false);
        }, timeoutMs);
        const ok = () => {
          clearTimeout(timer);
          resolve(true);
        };
        client.once('ready', ok);
      });
    },
    stop() {
      client.off('ready', onReady);
      client.off('close', down);
      // An error listener stays: without one, a late socket error would be thrown.
      client.off('error', down);
      client.on('error', () => {});
    },
  };
}
