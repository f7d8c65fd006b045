import type { RateLimiterMemory as MemoryLimiter } from 'rate-limiter-flexible';
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import type { HandlerContext, RateLimiter, ResolvedConfig } from './config.js';
import { ProxyError } from './errors.js';
import type { StoreFailureMode } from './stores/types.js';

/** The default limiter: `perMinute` requests per key in a fixed one-minute window, in memory. */
export function memoryRateLimiter(perMinute: number): MemoryLimiter {
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
 * The visitor's address: the `clientAddress` option when given; else `X-Forwarded-For` as far as
 * `trustProxy` trusts it (the entry the trusted proxies appended, never one the client could have
 * written); else `CF-Connecting-IP` on Workers; else what the host passed (the Node adapter: the socket).
 */
export function clientAddressOf(request: Request, host: HandlerContext, cfg: ResolvedConfig): string | undefined {
  if (cfg.clientAddress) return cfg.clientAddress(request, host) || undefined;
  const hops = cfg.trustProxy === true ? 1 : typeof cfg.trustProxy === 'number' ? Math.floor(cfg.trustProxy) : 0;
  if (hops > 0) {
    const list = (request.headers.get('x-forwarded-for') ?? '').split(',').map((part) => part.trim()).filter(Boolean);
    const entry = list[Math.max(0, list.length - hops)];
    if (entry) return entry;
  }
  // Inside Cloudflare Workers, Cloudflare sets CF-Connecting-IP and a client cannot.
  const onWorkers = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
  if (onWorkers) return request.headers.get('cf-connecting-ip') ?? undefined;
  return typeof host.clientAddress === 'string' && host.clientAddress !== '' ? host.clientAddress : undefined;
}
