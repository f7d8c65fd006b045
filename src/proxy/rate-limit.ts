import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import type { RateLimiter } from './config.js';
import { ProxyError } from './errors.js';
import type { StoreFailureMode } from './stores/types.js';

/** The default limiter: `perMinute` answer requests per key in a fixed one-minute window, in memory. */
export function memoryRateLimiter(perMinute: number): RateLimiter {
  return new RateLimiterMemory({ points: perMinute, duration: 60, keyPrefix: 'bot-answer' });
}

/**
 * Counts one request for `key`. Returns `undefined` when allowed, or the seconds to wait.
 * A limiter failing for another reason (its store is away) lets the request through (the
 * upstream has its own limit), or with `failure: 'refuse'` throws `store_unavailable` (503).
 */
export async function checkRateLimit(limiter: RateLimiter, key: string, failure: StoreFailureMode = 'fallback'): Promise<number | undefined> {
  try {
    await limiter.consume(key);
    return undefined;
  } catch (rejection) {
    const ms = (rejection as { msBeforeNext?: unknown } | null)?.msBeforeNext;
    if (typeof ms !== 'number' || !Number.isFinite(ms)) {
      if (failure === 'refuse') throw new ProxyError('store_unavailable', { retryAfter: 5 });
      return undefined;
    }
    return Math.max(1, Math.ceil(ms / 1000));
  }
}

/**
 * The address a request is counted under. `X-Forwarded-For` is read only when `trustProxy`
 * says how many proxies in front append to it; the entry they appended is used, never one
 * the client could have written itself.
 */
export function clientKey(headers: { get(name: string): string | null }, clientAddress: string | undefined, trustProxy: boolean | number): string {
  const hops = trustProxy === true ? 1 : typeof trustProxy === 'number' ? Math.floor(trustProxy) : 0;
  if (hops > 0) {
    const forwarded = headers.get('x-forwarded-for');
    if (forwarded) {
      const list = forwarded.split(',').map((part) => part.trim()).filter(Boolean);
      const entry = list[Math.max(0, list.length - hops)];
      if (entry) return entry;
    }
  }
  return clientAddress ?? 'unknown';
}
