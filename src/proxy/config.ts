import type { StoreConfig } from './stores/types.js';

/**
 * What the proxy reads of an upstream response: a subset of `Response`, so a real `Response`
 * (from `fetch`) fits, and so does the lighter object {@link createNodeFetch} returns.
 */
export interface UpstreamResponse {
  status: number;
  /** `'opaqueredirect'` from a browser-like fetch with `redirect: 'manual'`. */
  type?: string;
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
  /** The whole body as text; used instead of `body` when `Content-Length` shows the body is small enough. */
  text?(): Promise<string>;
  /** A reader of the body, used instead of `body` when present (null: no body); cheaper than a Web stream's. */
  reader?(): BodyReader | null;
}

/** One read of a {@link BodyReader}, as a Web stream reader gives it. */
export type BodyReadResult = { done: false; value: Uint8Array } | { done: true; value?: Uint8Array };

/** What the proxy uses of a body reader: a `ReadableStreamDefaultReader` fits. */
export interface BodyReader {
  read(): Promise<BodyReadResult>;
  cancel(): Promise<void>;
}

/** A `fetch`-compatible function the proxy uses to reach the upstream (`globalThis.fetch` fits). */
export type UpstreamFetch = (url: string, init: RequestInit) => Promise<UpstreamResponse>;

/** The rate limiter the proxy needs: one `consume` per answer request. */
export interface RateLimiter {
  /**
   * Counts one request for `key`. Resolves when allowed; rejects (with anything carrying
   * `msBeforeNext`, as rate-limiter-flexible does) when over the limit.
   */
  consume(key: string): Promise<unknown>;
}

/** Options of {@link createProxyHandler}. Only `apiKey` and `baseUrl` are required. */
export interface ProxyConfig extends StoreConfig {
  /** Upstream API key; added server-side as `Authorization: Bearer <key>`, never sent to a client. */
  apiKey: string;
  /** Upstream base URL; requests go to `${baseUrl}/v1/answer`. */
  baseUrl: string;
  /** Path of the answer endpoint. Default `/api/answer`. */
  answerPath?: string;
  /** Path of the health check. Default `/healthz`. */
  healthPath?: string;
  /** Origins (exact `scheme://host[:port]`) allowed to call cross-origin. Default none: same-origin only. */
  allowedOrigins?: string[];
  /** Bot ids the proxy forwards; others get 403. Default: any. */
  allowedBotIds?: string[];
  /** Answer requests per client address per minute; 429 beyond. Default 20; 0 turns limiting off. */
  rateLimitPerMinute?: number;
  /** A custom limiter (e.g. a shared store); replaces the in-memory one built from `rateLimitPerMinute`. */
  rateLimiter?: RateLimiter;
  /**
   * Whether to take the client address from `X-Forwarded-For`: `false` (default) never;
   * `true` or `1`: one trusted proxy in front (the rightmost entry); `n`: n trusted proxies.
   */
  trustProxy?: boolean | number;
  /** Longest message in characters. Default 4000. */
  maxMessageChars?: number;
  /** Largest request body in bytes, counted while reading. Default 32768. */
  maxBodyBytes?: number;
  /** Largest upstream JSON answer in bytes. Default 4 MiB. */
  maxUpstreamBytes?: number;
  /** Largest single upstream stream event in characters. Default 1 MiB. */
  maxEventChars?: number;
  /** Time to wait for the upstream's response headers. Default 15000 ms. */
  headersTimeoutMs?: number;
  /** Longest quiet time between upstream chunks. Default 30000 ms. */
  idleTimeoutMs?: number;
  /** Longest time for a whole request. Default 120000 ms. */
  totalTimeoutMs?: number;
  /** Heartbeat comment sent to the client after this many quiet milliseconds. Default 15000. */
  heartbeatMs?: number;
  /** Upstream client. Default `globalThis.fetch`; the Node adapter's CLI supplies a pooled keep-alive one. */
  fetch?: UpstreamFetch;
  /** Receives one JSON log line per request (and a few server events). Default `console.log`; `false` silences. */
  log?: ((line: string) => void) | false;
  /** Log message text and upstream error details (never the key). Default false. */
  debug?: boolean;
}

export type ResolvedConfig = Required<Omit<ProxyConfig, 'rateLimiter' | 'log' | keyof StoreConfig>> & {
  rateLimiter?: RateLimiter;
  log: (line: string) => void;
  upstreamUrl: string;
};

export const DEFAULTS = {
  answerPath: '/api/answer',
  healthPath: '/healthz',
  rateLimitPerMinute: 20,
  maxMessageChars: 4000,
  maxBodyBytes: 32 * 1024,
  maxUpstreamBytes: 4 * 1024 * 1024,
  maxEventChars: 1024 * 1024,
  headersTimeoutMs: 15_000,
  idleTimeoutMs: 30_000,
  totalTimeoutMs: 120_000,
  heartbeatMs: 15_000,
} as const;

/** Fills defaults and checks the configuration; throws on a config that cannot work. */
export function resolveConfig(config: ProxyConfig): ResolvedConfig {
  if (typeof config.apiKey !== 'string' || config.apiKey === '') throw new TypeError('bot-answer proxy: apiKey is required');
  let base: URL;
  try {
    base = new URL(config.baseUrl);
  } catch {
    throw new TypeError('bot-answer proxy: baseUrl must be an absolute http(s) URL');
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError('bot-answer proxy: baseUrl must be an absolute http(s) URL');
  const upstreamUrl = `${base.href.replace(/\/+$/, '')}/v1/answer`;
  const fetchFn = config.fetch ?? ((url: string, init: RequestInit) => globalThis.fetch(url, init));
  const log = config.log === false ? () => {} : (config.log ?? ((line: string) => console.log(line)));
  const num = (value: number | undefined, fallback: number) => (value !== undefined && Number.isFinite(value) && value >= 0 ? value : fallback);
  return {
    apiKey: config.apiKey,
    baseUrl: config.baseUrl,
    upstreamUrl,
    answerPath: config.answerPath ?? DEFAULTS.answerPath,
    healthPath: config.healthPath ?? DEFAULTS.healthPath,
    allowedOrigins: (config.allowedOrigins ?? []).map((o) => o.trim()).filter(Boolean),
    allowedBotIds: (config.allowedBotIds ?? []).map((b) => b.trim()).filter(Boolean),
    rateLimitPerMinute: num(config.rateLimitPerMinute, DEFAULTS.rateLimitPerMinute),
    rateLimiter: config.rateLimiter,
    trustProxy: config.trustProxy ?? false,
    maxMessageChars: num(config.maxMessageChars, DEFAULTS.maxMessageChars),
    maxBodyBytes: num(config.maxBodyBytes, DEFAULTS.maxBodyBytes),
    maxUpstreamBytes: num(config.maxUpstreamBytes, DEFAULTS.maxUpstreamBytes),
    maxEventChars: num(config.maxEventChars, DEFAULTS.maxEventChars),
    headersTimeoutMs: num(config.headersTimeoutMs, DEFAULTS.headersTimeoutMs),
    idleTimeoutMs: num(config.idleTimeoutMs, DEFAULTS.idleTimeoutMs),
    totalTimeoutMs: num(config.totalTimeoutMs, DEFAULTS.totalTimeoutMs),
    heartbeatMs: num(config.heartbeatMs, DEFAULTS.heartbeatMs),
    fetch: fetchFn,
    log,
    debug: config.debug ?? false,
  };
}
