import type { SearchResponse } from '../../../../bot-answer/src/protocol/search.js';
import type { AnswerResponse } from '../../../../bot-answer/src/protocol/types.js';

/** A complete answer, as the cache keeps it: exactly what a JSON answer carries (answers kept by older releases lack `outcome`). */
export type CachedAnswer = AnswerResponse;

/** A search's results, as the search cache keeps them: exactly what the response carries. */
export type CachedSearch = SearchResponse;

/**
 * Where the answer cache keeps answers (and the search cache, with `T` = `CachedSearch`, its
 * results): in memory (the default), Redis (`bot-answer-proxy/node`), the Workers Cache API, or
 * anything with these methods. A method that fails rejects; the proxy then skips the cache or
 * refuses, as `storeFailure` says.
 */
export interface AnswerCacheStore<T = CachedAnswer> {
  /** The value kept under `key`, or `undefined`. */
  get(key: string): Promise<T | undefined>;
  /** Keeps `value` under `key` for `ttlSeconds`. */
  set(key: string, value: T, ttlSeconds: number): Promise<void>;
  /** Removes every cached answer; resolves to how many were removed when the store can tell. */
  clear(): Promise<number | undefined>;
  /**
   * Optional cross-instance single flight: resolves `true` when this caller may ask the upstream
   * for `key` (no other instance is asking it now), `false` when another one holds the lock.
   * The lock lapses after `ttlMs` whatever happens. Stores without it coalesce within one
   * process (or isolate) only.
   */
  lock?(key: string, ttlMs: number): Promise<boolean>;
  /** Releases a lock taken with {@link lock}. */
  unlock?(key: string): Promise<void>;
}

/**
 * What the proxy does while a shared store (Redis) is unreachable:
 * `'fallback'` (default) keeps answering: rate limits count per instance in memory and the
 * answer cache is skipped; `'refuse'` refuses answer requests with `503 unavailable`.
 */
export type StoreFailureMode = 'fallback' | 'refuse';

/** The handler's settings for shared state and the answer cache (part of `ProxyConfig`). */
export interface StoreConfig {
  /** Turns the answer cache on: complete answers are kept this long. Default: no cache. */
  cacheTtlSeconds?: number;
  /** Where answers are kept. Default: `memoryAnswerCache` of `cacheMaxBytes`. */
  cacheStore?: AnswerCacheStore;
  /** Largest answer kept, in UTF-8 bytes of its JSON; larger ones are served, never kept. Default 262144. */
  cacheMaxEntryBytes?: number;
  /** The default memory store's size in bytes. Default 64 MiB. */
  cacheMaxBytes?: number;
  /** How long a question waits for another instance asking it (stores with a lock). Default 15000 ms. */
  cacheLockWaitMs?: number;
  /** What happens while a shared store fails. Default `'fallback'`. */
  storeFailure?: StoreFailureMode;
  /** How long search results are kept (and `Cache-Control: private, max-age` says so). Default 60; 0 turns it off. */
  searchCacheTtlSeconds?: number;
  /** Where search results are kept. Default: a memory store of 8 MiB. */
  searchCacheStore?: AnswerCacheStore<CachedSearch>;
}
