// rate-limiter-flexible's root module also loads its cluster and database limiters (Node-only);
// the proxy imports the in-memory limiter alone so the handler stays usable on edge runtimes.
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  export default class RateLimiterMemory {
    constructor(options: { points: number; duration: number; keyPrefix?: string });
    consume(key: string, points?: number): Promise<{ msBeforeNext: number; remainingPoints: number }>;
  }
}

declare module 'rate-limiter-flexible/lib/RateLimiterRedis.js' {
  export default class RateLimiterRedis {
    constructor(options: {
      storeClient: unknown;
      points: number;
      duration: number;
      keyPrefix?: string;
      rejectIfRedisNotReady?: boolean;
      insuranceLimiter?: unknown;
    });
    consume(key: string, points?: number): Promise<{ msBeforeNext: number; remainingPoints: number }>;
  }
}
