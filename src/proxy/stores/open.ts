import { DEFAULTS, type RateLimiter } from '../config.js';
import { createRedisStores } from './redis.js';
import type { StoreConfig, StoreFailureMode } from './types.js';

/** Where the command's shared state lives: its settings as flags and environment give them. */
export interface SharedStateOptions {
  /** Redis shared by every instance; unset: everything in memory. */
  redisUrl?: string;
  /** Prefix of every Redis key. Default `bot-answer`. */
  redisKeyPrefix?: string;
  /** What happens while Redis is away. Default `'fallback'`. */
  redisFailureMode?: StoreFailureMode;
}

/** The handler settings for `options`, and how to close what was opened. */
export interface OpenedStores {
  config: StoreConfig & { rateLimiter?: RateLimiter };
  close(): Promise<void>;
}

/**
 * Opens the shared stores the command's settings ask for: with a Redis URL, one ioredis client
 * serving the rate limiter and (when the cache is on) the answer cache; waits up to 2 s for
 * it, then goes on in the failure mode (the client keeps reconnecting). Without one: nothing
 * (the handler's memory defaults).
 */
export async function openStores(options: SharedStateOptions & StoreConfig & { rateLimitPerMinute?: number }, log: (line: string) => void): Promise<OpenedStores> {
  if (!options.redisUrl) return { config: {}, close: async () => {} };
  const stores = createRedisStores({
    url: options.redisUrl,
    keyPrefix: options.redisKeyPrefix,
    rateLimitPerMinute: options.rateLimitPerMinute ?? DEFAULTS.rateLimitPerMinute,
    failure: options.redisFailureMode,
    log,
  });
  await stores.ready(2_000);
  return {
    config: {
      rateLimiter: stores.rateLimiter,
      cacheStore: (options.cacheTtlSeconds ?? 0) > 0 ? stores.cache : undefined,
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
