import type { AnswerCacheStore, CachedAnswer } from './types.js';

/** What the store uses of a Cache API cache (`caches.default` on Cloudflare Workers fits). */
export interface CacheApiLike {
  match(request: Request): Promise<Response | undefined>;
  put(request: Request, response: Response): Promise<void>;
}

/** Options of {@link cacheApiAnswerCache}. */
export interface CacheApiAnswerCacheOptions {
  /**
   * Part of every entry's URL. The Cache API cannot list its entries, so changing the
   * namespace (e.g. from a deploy-time variable) is how this cache is cleared.
   */
  namespace?: string;
}

/**
 * The answer cache on the Web Cache API, for Cloudflare Workers (`caches.default`): entries
 * are kept per data centre and expire by `Cache-Control: max-age`. It has no lock, so
 * identical questions are coalesced within one isolate only.
 */
export function cacheApiAnswerCache<T = CachedAnswer>(cache: CacheApiLike, options: CacheApiAnswerCacheOptions = {}): AnswerCacheStore<T> {
  const namespace = encodeURIComponent(options.namespace ?? 'v1');
  const url = (key: string) => new Request(`https://bot-answer-cache.invalid/${namespace}/${key}`);
  return {
    async get(key) {
      const hit = await cache.match(url(key));
      return hit ? ((await hit.json()) as T) : undefined;
    },
    async set(key, value, ttlSeconds) {
      const headers = { 'content-type': 'application/json', 'cache-control': `max-age=${Math.max(1, Math.round(ttlSeconds))}` };
      await cache.put(url(key), new Response(JSON.stringify(value), { headers }));
    },
    async clear() {
      throw new TypeError('bot-answer proxy: the Cache API cannot be cleared entry by entry; change the namespace option to start a new cache');
    },
  };
}
