import type { InsightsStore } from '../insights/types.js';
import type { StoreConfig, StoreFailureMode } from './stores/types.js';
import { fetchUpstream, type UpstreamClient } from './upstream-client.js';
/** What the upstream receives of a question's conversation: see {@link ProxyConfig.upstreamHistory}. */
export type UpstreamHistory = 'drop' | 'fold' | 'send';

/** The rate limiter the proxy needs (rate-limiter-flexible's limiters fit). */
export interface RateLimiter {
  /**
   * Counts one request for `key`. Resolves when allowed; rejects (with anything carrying
   * `msBeforeNext`, as rate-limiter-flexible does) when over the limit.
   */
  consume(key: string): Promise<unknown>;
}

/** What the host gives the handler with each request: the Node adapter's, or a runtime's second argument. */
export interface HandlerContext {
  /** The client's address (the TCP peer). */
  clientAddress?: string;
  /**
   * Keeps the runtime working for a promise after the response is sent (Cloudflare Workers'
   * `ctx.waitUntil`, Vercel's `waitUntil`): insights writes then start at once and finish there.
   */
  waitUntil?: (promise: Promise<unknown>) => void;
  [name: string]: unknown;
}

/**
 * An `authorize` hook's verdict: `true` or `{user}` allows (the user then keys the rate limit),
 * `false` or `'forbidden'` refuses with 403, `'unauthenticated'` with 401.
 */
export type Authorization = boolean | 'forbidden' | 'unauthenticated' | { user: string };

/** Options of {@link createProxyHandler}. Only `apiKey` and `baseUrl` are required. */
export interface ProxyConfig extends StoreConfig {
  /** Upstream API key; added server-side as `Authorization: Bearer <key>`, never sent to a client. */
  apiKey: string;
  /** Upstream base URL; answers go to `${baseUrl}/v1/answer`, searches to `${baseUrl}/v1/search`. */
  baseUrl: string;
  /** Path of the answer endpoint (feedback goes to this path + `/feedback`). Default `/api/answer`. */
  answerPath?: string;
  /** Path of the health check. Default `/healthz`. */
  healthPath?: string;
  /** Origins (exact `scheme://host[:port]`) allowed to call cross-origin. Default none: same-origin only. No `*`. */
  allowedOrigins?: string[];
  /** Let allowed origins send cookies and an `Authorization` header (CORS credentials). Default false. */
  allowCredentials?: boolean;
  /** Bot ids the proxy forwards; others get 403. Default: any. */
  allowedBotIds?: string[];
  /** Answer requests per visitor per minute; 429 beyond. Default 20; 0 turns limiting off. */
  rateLimitPerMinute?: number;
  /** A custom limiter (e.g. a shared store); replaces the in-memory one built from `rateLimitPerMinute`. */
  rateLimiter?: RateLimiter;
  /** Path of search as you type (`GET`, forwarded to `${baseUrl}/v1/search`). Default `/api/search`. */
  searchPath?: string;
  /** Searches per visitor per minute, counted apart from answers; 429 beyond. Default 120; 0 turns limiting off. */
  searchRateLimitPerMinute?: number;
  /** A custom limiter for searches; replaces the in-memory one built from `searchRateLimitPerMinute`. */
  searchRateLimiter?: RateLimiter;
  /**
   * Whether to take the client address from `X-Forwarded-For`: `false` (default) never;
   * `true` or `1`: one trusted proxy in front (the rightmost entry); `n`: n trusted proxies.
   */
  trustProxy?: boolean | number;
  /**
   * The visitor's address, for the rate limit. Default: `X-Forwarded-For` as `trustProxy` allows,
   * else `CF-Connecting-IP` on Cloudflare Workers, else the Node adapter's socket address.
   * A request with no address while a limit is on is refused (500), never counted in a shared bucket.
   */
  clientAddress?: (request: Request, context: HandlerContext) => string | undefined;
  /** Checks the visitor before anything is forwarded (a session cookie, a signed token). See {@link Authorization}. */
  authorize?: (request: Request) => Authorization | Promise<Authorization>;
  /** The rate-limit key. Default: the authorized user, else the client address. */
  rateLimitKey?: (request: Request, who: { user?: string; clientAddress?: string }) => string | undefined;
  /** Longest message in characters. Default 4000. */
  maxMessageChars?: number;
  /** Largest request body in bytes, counted while reading. Default 32768. */
  maxBodyBytes?: number;
  /** Most earlier messages (`history`) one question may carry; more is refused with 413. Default 20. */
  maxHistoryMessages?: number;
  /** Most characters in all of a question's earlier messages together; more is refused with 413. Default 16000. */
  maxHistoryChars?: number;
  /**
   * What reaches the upstream of the conversation a question carries (`history`, beyond the
   * upstream spec): `drop` (default) sends the question alone, as the spec defines it; `fold`
   * appends the last turns to `message` as text; `send` forwards `history` as it is, for an
   * upstream known to take it (the local Answer API: demo mode sends it).
   */
  upstreamHistory?: UpstreamHistory;
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
  /** Upstream client. Default: over `fetch` (below); the Node entry's `startProxy` uses an undici pool. */
  upstreamClient?: UpstreamClient;
  /** A `fetch` for the default upstream client. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Receives one JSON log line per request (and a few server events). Default `console.log`; `false` silences. */
  log?: ((line: string) => void) | false;
  /** Log message text and upstream error details (never the key). Default false. */
  debug?: boolean;
  /**
   * Where every answer request and rating is recorded for the owner's insights (questions
   * redacted). Default: nothing is recorded. On Node, `sqliteInsightsStore(path)` or
   * `postgresInsightsStore(url)` from `bot-answer-proxy/node`; on Workers, `d1InsightsStore(env.DB)`.
   */
  insightsStore?: InsightsStore;
  /** The owner's token for the insights page and its CSV (16 characters or more). Unset: every insights route answers 404. */
  insightsToken?: string;
  /** Recorded rows older than this many days are deleted. Default 90. */
  insightsRetentionDays?: number;
  /** Path of the insights page (its files and export live under it). Default `/insights`. */
  insightsPath?: string;
}

export type ResolvedConfig = Required<Omit<ProxyConfig, 'rateLimiter' | 'searchRateLimiter' | 'log' | 'clientAddress' | 'authorize' | 'rateLimitKey' | 'fetch' | 'insightsStore' | 'insightsToken' | keyof StoreConfig>> &
  Pick<ProxyConfig, 'rateLimiter' | 'searchRateLimiter' | 'clientAddress' | 'authorize' | 'rateLimitKey' | 'insightsStore' | 'insightsToken'> & {
    log: (line: string) => void;
    upstreamUrl: string;
    upstreamSearchUrl: string;
    feedbackPath: string;
    storeFailure: StoreFailureMode;
  };

export const DEFAULTS = {
  answerPath: '/api/answer',
  healthPath: '/healthz',
  searchPath: '/api/search',
  rateLimitPerMinute: 20,
  searchRateLimitPerMinute: 120,
  maxMessageChars: 4000,
  maxBodyBytes: 32 * 1024,
  maxHistoryMessages: 20,
  maxHistoryChars: 16_000,
  maxUpstreamBytes: 4 * 1024 * 1024,
  maxEventChars: 1024 * 1024,
  headersTimeoutMs: 15_000,
  idleTimeoutMs: 30_000,
  totalTimeoutMs: 120_000,
  heartbeatMs: 15_000,
  insightsPath: '/insights',
  insightsRetentionDays: 90,
} as const;

type Defaulted = { -readonly [K in keyof typeof DEFAULTS]: (typeof DEFAULTS)[K] extends number ? number : string };

/** Fills defaults and checks the configuration; throws on a config that cannot work. */
export function resolveConfig(config: ProxyConfig): ResolvedConfig {
  const fail = (message: string): never => {
    throw new TypeError(`bot-answer proxy: ${message}`);
  };
  if (typeof config.apiKey !== 'string' || config.apiKey === '') fail('apiKey is required');
  const base = URL.canParse(config.baseUrl) ? new URL(config.baseUrl) : undefined;
  if (base?.protocol !== 'http:' && base?.protocol !== 'https:') return fail('baseUrl must be an absolute http(s) URL');
  const allowedOrigins = (config.allowedOrigins ?? []).map((o) => o.trim()).filter(Boolean);
  const upstreamHistory = config.upstreamHistory ?? 'drop';
  if (!['drop', 'fold', 'send'].includes(upstreamHistory)) fail(`upstreamHistory must be "drop", "fold" or "send", not ${JSON.stringify(upstreamHistory)}`);
  if (allowedOrigins.includes('*')) fail('allowedOrigins lists exact origins; "*" is not allowed (it would let any site use your key)');
  // A number option that is not a finite number >= 0 gets its default too.
  const defaulted = Object.fromEntries(
    Object.entries(DEFAULTS).map(([key, fallback]) => {
      const value = config[key as keyof Defaulted];
      if (typeof fallback === 'string') return [key, value ?? fallback];
      return [key, typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback];
    }),
  ) as Defaulted;
  return {
    ...config,
    ...defaulted,
    upstreamUrl: `${base.href.replace(/\/+$/, '')}/v1/answer`,
    upstreamSearchUrl: `${base.href.replace(/\/+$/, '')}/v1/search`,
    feedbackPath: `${defaulted.answerPath}/feedback`,
    allowedOrigins,
    allowCredentials: config.allowCredentials ?? false,
    upstreamHistory,
    allowedBotIds: (config.allowedBotIds ?? []).map((b) => b.trim()).filter(Boolean),
    trustProxy: config.trustProxy ?? false,
    upstreamClient: config.upstreamClient ?? fetchUpstream(config.fetch ?? ((input, init) => globalThis.fetch(input, init))),
    log: config.log === false ? () => {} : (config.log ?? ((line: string) => console.log(line))),
    debug: config.debug ?? false,
    storeFailure: config.storeFailure ?? 'fallback',
    insightsToken: config.insightsToken || undefined,
  };
}
