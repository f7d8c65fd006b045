// rate-limiter-flexible's root module also loads its cluster and database limiters (Node-only);
// the proxy imports the in-memory limiter alone so the handler stays usable on edge runtimes.
// The package types only its root, so these deep paths borrow its classes from there.
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  export { RateLimiterMemory as default } from 'rate-limiter-flexible';
}

declare module 'rate-limiter-flexible/lib/RateLimiterRedis.js' {
  export { RateLimiterRedis as default } from 'rate-limiter-flexible';
}
