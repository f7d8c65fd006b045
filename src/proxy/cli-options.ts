import { parseArgs } from 'node:util';
import { knowledgeBaseOptions } from '../upstream/cli-options.js';
import type { StartProxyOptions } from './server.js';

/** The command's usage text. */
export const HELP = `bot-answer-proxy: the key-holding proxy for the <bot-answer> element.

Usage: bot-answer-proxy [options]

Each option can also be set in the environment (flags win). The API key is read from the
environment only (ANSWER_API_KEY), so it never shows in a process list.

  --base-url URL              ANSWER_BASE_URL          upstream base; requests go to URL/v1/answer
  --port N                    PORT                     default 8787
  --host HOST                 HOST                     default 127.0.0.1
  --allowed-origins LIST      ALLOWED_ORIGINS          comma-separated origins allowed cross-origin
  --allowed-bot-ids LIST      ALLOWED_BOT_IDS          comma-separated bot ids forwarded (default any)
  --rate-limit-per-minute N   RATE_LIMIT_PER_MINUTE    per client address (default 20; 0 = off)
  --trust-proxy N|true|false  TRUST_PROXY              read X-Forwarded-For from N proxies in front (default false)
  --max-message-chars N       MAX_MESSAGE_CHARS        default 4000
  --max-body-bytes N          MAX_BODY_BYTES           default 32768
  --headers-timeout-ms N      UPSTREAM_HEADERS_TIMEOUT_MS  upstream response headers (default 15000)
  --idle-timeout-ms N         UPSTREAM_IDLE_TIMEOUT_MS     quiet time between upstream chunks (default 30000)
  --total-timeout-ms N        TOTAL_TIMEOUT_MS         whole request (default 120000)
  --heartbeat-ms N            HEARTBEAT_MS             heartbeat after this much quiet (default 15000)
  --client-headers-timeout-ms N  CLIENT_HEADERS_TIMEOUT_MS  client must send headers within (default 10000)
  --client-request-timeout-ms N  CLIENT_REQUEST_TIMEOUT_MS  client must send the request within (default 30000)
  --shutdown-timeout-ms N     SHUTDOWN_TIMEOUT_MS      streams may finish for this long on SIGTERM (default 10000)
  --debug                     BOT_ANSWER_DEBUG=1       log message text and upstream error details

Shared state and the answer cache (docs/scaling.md):
  --redis-url URL             REDIS_URL                Redis shared by every instance: rate limits and cache
                                                       (default: in memory, per instance)
  --redis-failure-mode MODE   REDIS_FAILURE_MODE       while Redis is away: fallback (default: limits per
                                                       instance, cache skipped) or refuse (503 unavailable)
  --redis-key-prefix TEXT     REDIS_KEY_PREFIX         prefix of every Redis key (default bot-answer)
  --cache-ttl-seconds N       CACHE_TTL_SECONDS        keep complete answers N seconds (default: no cache)
  --cache-max-entry-bytes N   CACHE_MAX_ENTRY_BYTES    largest answer kept (default 262144)
  --cache-max-bytes N         CACHE_MAX_BYTES          memory cache size (default 67108864; Redis: its maxmemory)
  --clear-cache                                        remove every cached answer from Redis, then exit
  --help

Without ANSWER_API_KEY it runs in demo mode: the local Answer API starts in-process and
answers from its sample knowledge base, or from your documents: ANSWER_KB (a folder of
Markdown), with ANSWER_KB_BASE_URL, ANSWER_KB_URL_EXTENSION, ANSWER_KB_APP_NAME,
ANSWER_KB_ANCHORS, ANSWER_KB_WATCH and ANSWER_BOTS as for \`npm run upstream\`.`;

const FLAGS = {
  'base-url': 'ANSWER_BASE_URL',
  port: 'PORT',
  host: 'HOST',
  'allowed-origins': 'ALLOWED_ORIGINS',
  'allowed-bot-ids': 'ALLOWED_BOT_IDS',
  'rate-limit-per-minute': 'RATE_LIMIT_PER_MINUTE',
  'trust-proxy': 'TRUST_PROXY',
  'max-message-chars': 'MAX_MESSAGE_CHARS',
  'max-body-bytes': 'MAX_BODY_BYTES',
  'headers-timeout-ms': 'UPSTREAM_HEADERS_TIMEOUT_MS',
  'idle-timeout-ms': 'UPSTREAM_IDLE_TIMEOUT_MS',
  'total-timeout-ms': 'TOTAL_TIMEOUT_MS',
  'heartbeat-ms': 'HEARTBEAT_MS',
  'client-headers-timeout-ms': 'CLIENT_HEADERS_TIMEOUT_MS',
  'client-request-timeout-ms': 'CLIENT_REQUEST_TIMEOUT_MS',
  'shutdown-timeout-ms': 'SHUTDOWN_TIMEOUT_MS',
  'redis-url': 'REDIS_URL',
  'redis-failure-mode': 'REDIS_FAILURE_MODE',
  'redis-key-prefix': 'REDIS_KEY_PREFIX',
  'cache-ttl-seconds': 'CACHE_TTL_SECONDS',
  'cache-max-entry-bytes': 'CACHE_MAX_ENTRY_BYTES',
  'cache-max-bytes': 'CACHE_MAX_BYTES',
} as const;

type Flag = keyof typeof FLAGS;

/** What the command was asked to do: serve (the options), print help, or clear the answer cache. */
export type CommandOptions = StartProxyOptions & { clearCache?: boolean };

/** Options from flags and environment; throws a readable error for a bad value. */
export function optionsFrom(argv: string[], env: NodeJS.ProcessEnv): CommandOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...(Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, { type: 'string' }])) as Record<Flag, { type: 'string' }>),
      debug: { type: 'boolean' },
      'clear-cache': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const get = (flag: Flag): string | undefined => {
    const value = (values as Record<string, unknown>)[flag] ?? env[FLAGS[flag]];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const int = (flag: Flag): number | undefined => {
    const value = get(flag);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value)) throw new Error(`--${flag} (${FLAGS[flag]}) must be a whole number, got "${value}"`);
    return Number(value);
  };
  const list = (flag: Flag): string[] | undefined => get(flag)?.split(',').map((item) => item.trim()).filter(Boolean);
  const trust = get('trust-proxy');
  let trustProxy: boolean | number | undefined;
  if (trust !== undefined) {
    if (trust === 'true') trustProxy = true;
    else if (trust === 'false') trustProxy = false;
    else if (/^\d+$/.test(trust)) trustProxy = Number(trust);
    else throw new Error(`--trust-proxy (TRUST_PROXY) must be true, false or a number of proxies, got "${trust}"`);
  }
  const failureMode = get('redis-failure-mode');
  if (failureMode !== undefined && failureMode !== 'fallback' && failureMode !== 'refuse') throw new Error(`--redis-failure-mode (REDIS_FAILURE_MODE) must be fallback or refuse, got "${failureMode}"`);
  const redisUrl = get('redis-url');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) throw new Error('--redis-url (REDIS_URL) must start with redis:// or rediss://');
  const port = int('port');
  if (port !== undefined && port > 65535) throw new Error(`--port (PORT) must be at most 65535, got ${port}`);
  const options: CommandOptions = {
    apiKey: env.ANSWER_API_KEY || undefined,
    baseUrl: get('base-url'),
    port: port ?? 8787,
    host: get('host') ?? '127.0.0.1',
    allowedOrigins: list('allowed-origins'),
    allowedBotIds: list('allowed-bot-ids'),
    rateLimitPerMinute: int('rate-limit-per-minute'),
    trustProxy,
    maxMessageChars: int('max-message-chars'),
    maxBodyBytes: int('max-body-bytes'),
    clientHeadersTimeoutMs: int('client-headers-timeout-ms'),
    clientRequestTimeoutMs: int('client-request-timeout-ms'),
    headersTimeoutMs: int('headers-timeout-ms'),
    shutdownTimeoutMs: int('shutdown-timeout-ms'),
    idleTimeoutMs: int('idle-timeout-ms'),
    totalTimeoutMs: int('total-timeout-ms'),
    heartbeatMs: int('heartbeat-ms'),
    debug: values.debug === true || env.BOT_ANSWER_DEBUG === '1' || env.BOT_ANSWER_DEBUG === 'true',
    handleSignals: true,
    redisUrl,
    redisFailureMode: failureMode,
    redisKeyPrefix: get('redis-key-prefix'),
    cacheTtlSeconds: int('cache-ttl-seconds'),
    cacheMaxEntryBytes: int('cache-max-entry-bytes'),
    cacheMaxBytes: int('cache-max-bytes'),
    clearCache: values['clear-cache'] === true,
    // Demo mode serves the documents ANSWER_KB names, set up as for `npm run upstream`.
    localAnswerApi: env.ANSWER_API_KEY ? undefined : knowledgeBaseOptions(env),
  };
  return options;
}

