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

type Kind = 'text' | 'int' | 'list';

/** Each flag: its environment variable, the option it sets, and how its value reads. */
const FLAGS = {
  'base-url': ['ANSWER_BASE_URL', 'baseUrl', 'text'],
  port: ['PORT', 'port', 'int'],
  host: ['HOST', 'host', 'text'],
  'allowed-origins': ['ALLOWED_ORIGINS', 'allowedOrigins', 'list'],
  'allowed-bot-ids': ['ALLOWED_BOT_IDS', 'allowedBotIds', 'list'],
  'rate-limit-per-minute': ['RATE_LIMIT_PER_MINUTE', 'rateLimitPerMinute', 'int'],
  'trust-proxy': ['TRUST_PROXY', 'trustProxy', 'text'],
  'max-message-chars': ['MAX_MESSAGE_CHARS', 'maxMessageChars', 'int'],
  'max-body-bytes': ['MAX_BODY_BYTES', 'maxBodyBytes', 'int'],
  'headers-timeout-ms': ['UPSTREAM_HEADERS_TIMEOUT_MS', 'headersTimeoutMs', 'int'],
  'idle-timeout-ms': ['UPSTREAM_IDLE_TIMEOUT_MS', 'idleTimeoutMs', 'int'],
  'total-timeout-ms': ['TOTAL_TIMEOUT_MS', 'totalTimeoutMs', 'int'],
  'heartbeat-ms': ['HEARTBEAT_MS', 'heartbeatMs', 'int'],
  'client-headers-timeout-ms': ['CLIENT_HEADERS_TIMEOUT_MS', 'clientHeadersTimeoutMs', 'int'],
  'client-request-timeout-ms': ['CLIENT_REQUEST_TIMEOUT_MS', 'clientRequestTimeoutMs', 'int'],
  'shutdown-timeout-ms': ['SHUTDOWN_TIMEOUT_MS', 'shutdownTimeoutMs', 'int'],
  'redis-url': ['REDIS_URL', 'redisUrl', 'text'],
  'redis-failure-mode': ['REDIS_FAILURE_MODE', 'redisFailureMode', 'text'],
  'redis-key-prefix': ['REDIS_KEY_PREFIX', 'redisKeyPrefix', 'text'],
  'cache-ttl-seconds': ['CACHE_TTL_SECONDS', 'cacheTtlSeconds', 'int'],
  'cache-max-entry-bytes': ['CACHE_MAX_ENTRY_BYTES', 'cacheMaxEntryBytes', 'int'],
  'cache-max-bytes': ['CACHE_MAX_BYTES', 'cacheMaxBytes', 'int'],
} as const satisfies Record<string, readonly [string, keyof CommandOptions, Kind]>;

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
  const read: Record<string, unknown> = {};
  for (const [flag, [name, key, kind]] of Object.entries(FLAGS) as [Flag, (typeof FLAGS)[Flag]][]) {
    const raw = values[flag] ?? env[name];
    const value = typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined;
    if (value === undefined) continue;
    if (kind === 'int' && !/^\d+$/.test(value)) throw new Error(`--${flag} (${name}) must be a whole number, got "${value}"`);
    read[key] = kind === 'int' ? Number(value) : kind === 'list' ? value.split(',').map((item) => item.trim()).filter(Boolean) : value;
  }
  const { trustProxy: trust, redisFailureMode: failureMode, ...options } = read as Omit<CommandOptions, 'trustProxy' | 'redisFailureMode'> & { trustProxy?: string; redisFailureMode?: string };
  let trustProxy: boolean | number | undefined;
  if (trust === 'true' || trust === 'false') trustProxy = trust === 'true';
  else if (trust !== undefined) {
    if (!/^\d+$/.test(trust)) throw new Error(`--trust-proxy (TRUST_PROXY) must be true, false or a number of proxies, got "${trust}"`);
    trustProxy = Number(trust);
  }
  if (failureMode !== undefined && failureMode !== 'fallback' && failureMode !== 'refuse') throw new Error(`--redis-failure-mode (REDIS_FAILURE_MODE) must be fallback or refuse, got "${failureMode}"`);
  if (options.redisUrl !== undefined && !/^rediss?:\/\//.test(options.redisUrl)) throw new Error('--redis-url (REDIS_URL) must start with redis:// or rediss://');
  if (options.port !== undefined && options.port > 65535) throw new Error(`--port (PORT) must be at most 65535, got ${options.port}`);
  return {
    ...options,
    trustProxy,
    redisFailureMode: failureMode,
    apiKey: env.ANSWER_API_KEY || undefined,
    port: options.port ?? 8787,
    host: options.host ?? '127.0.0.1',
    debug: values.debug === true || env.BOT_ANSWER_DEBUG === '1' || env.BOT_ANSWER_DEBUG === 'true',
    handleSignals: true,
    clearCache: values['clear-cache'] === true,
    // Demo mode serves the documents ANSWER_KB names, set up as for `npm run upstream`.
    localAnswerApi: env.ANSWER_API_KEY ? undefined : knowledgeBaseOptions(env),
  };
}
