import { parseArgs } from 'node:util';
import { MIN_TOKEN_CHARS } from '../insights/auth.js';
import { loadAnswerEngine, type StartProxyOptions } from './server.js';

type Kind = 'text' | 'int' | 'list';

/** Each flag: its environment variable, the option it sets, how its value reads, and its help. */
const FLAGS = {
  'base-url': ['ANSWER_BASE_URL', 'baseUrl', 'text', 'URL', 'upstream base; requests go to URL/v1/answer'],
  port: ['PORT', 'port', 'int', 'N', 'default 8787'],
  host: ['HOST', 'host', 'text', 'HOST', 'default 127.0.0.1'],
  'allowed-origins': ['ALLOWED_ORIGINS', 'allowedOrigins', 'list', 'LIST', 'comma-separated origins allowed cross-origin'],
  'allowed-bot-ids': ['ALLOWED_BOT_IDS', 'allowedBotIds', 'list', 'LIST', 'comma-separated bot ids forwarded (default any)'],
  'rate-limit-per-minute': ['RATE_LIMIT_PER_MINUTE', 'rateLimitPerMinute', 'int', 'N', 'per client address (default 20; 0 = off)'],
  'search-rate-limit-per-minute': ['SEARCH_RATE_LIMIT_PER_MINUTE', 'searchRateLimitPerMinute', 'int', 'N', 'searches per client address (default 120; 0 = off)'],
  'trust-proxy': ['TRUST_PROXY', 'trustProxy', 'text', 'N|true|false', 'read X-Forwarded-For from N proxies in front (default false)'],
  'max-message-chars': ['MAX_MESSAGE_CHARS', 'maxMessageChars', 'int', 'N', 'default 4000'],
  'max-body-bytes': ['MAX_BODY_BYTES', 'maxBodyBytes', 'int', 'N', 'default 32768'],
  'max-history-messages': ['MAX_HISTORY_MESSAGES', 'maxHistoryMessages', 'int', 'N', 'earlier messages a question may carry (default 20)'],
  'max-history-chars': ['MAX_HISTORY_CHARS', 'maxHistoryChars', 'int', 'N', 'characters in all of them (default 16000)'],
  'upstream-history': ['UPSTREAM_HISTORY', 'upstreamHistory', 'text', 'MODE', 'the conversation upstream: drop (default; demo mode: send),\nfold (into the message as text) or send (as history)'],
  'headers-timeout-ms': ['UPSTREAM_HEADERS_TIMEOUT_MS', 'headersTimeoutMs', 'int', 'N', 'upstream response headers (default 15000)'],
  'idle-timeout-ms': ['UPSTREAM_IDLE_TIMEOUT_MS', 'idleTimeoutMs', 'int', 'N', 'quiet time between upstream chunks (default 30000)'],
  'total-timeout-ms': ['TOTAL_TIMEOUT_MS', 'totalTimeoutMs', 'int', 'N', 'whole request (default 120000)'],
  'heartbeat-ms': ['HEARTBEAT_MS', 'heartbeatMs', 'int', 'N', 'heartbeat after this much quiet (default 15000)'],
  'client-headers-timeout-ms': ['CLIENT_HEADERS_TIMEOUT_MS', 'clientHeadersTimeoutMs', 'int', 'N', 'client must send headers within (default 10000)'],
  'client-request-timeout-ms': ['CLIENT_REQUEST_TIMEOUT_MS', 'clientRequestTimeoutMs', 'int', 'N', 'client must send the request within (default 30000)'],
  'shutdown-timeout-ms': ['SHUTDOWN_TIMEOUT_MS', 'shutdownTimeoutMs', 'int', 'N', 'streams may finish for this long on SIGTERM (default 10000)'],
  'redis-url': ['REDIS_URL', 'redisUrl', 'text', 'URL', 'Redis shared by every instance: rate limits and cache\n(default: in memory, per instance)'],
  'redis-failure-mode': ['REDIS_FAILURE_MODE', 'redisFailureMode', 'text', 'MODE', 'while Redis is away: fallback (default: limits per\ninstance, cache skipped) or refuse (503 unavailable)'],
  'redis-key-prefix': ['REDIS_KEY_PREFIX', 'redisKeyPrefix', 'text', 'TEXT', 'prefix of every Redis key (default bot-answer)'],
  'cache-ttl-seconds': ['CACHE_TTL_SECONDS', 'cacheTtlSeconds', 'int', 'N', 'keep complete answers N seconds (default: no cache)'],
  'cache-max-entry-bytes': ['CACHE_MAX_ENTRY_BYTES', 'cacheMaxEntryBytes', 'int', 'N', 'largest answer kept (default 262144)'],
  'search-cache-ttl-seconds': ['SEARCH_CACHE_TTL_SECONDS', 'searchCacheTtlSeconds', 'int', 'N', 'keep search results N seconds (default 60; 0 = off)'],
  'cache-max-bytes': ['CACHE_MAX_BYTES', 'cacheMaxBytes', 'int', 'N', 'memory cache size (default 67108864; Redis: its maxmemory)'],
  'insights-db': ['INSIGHTS_DB', 'insightsDb', 'text', 'PATH|URL', 'record questions and feedback: a SQLite file, or a\npostgres:// URL shared by instances (default: off)'],
  'insights-retention-days': ['INSIGHTS_RETENTION_DAYS', 'insightsRetentionDays', 'int', 'N', 'delete recorded rows older than N days (default 90)'],
} as const satisfies Record<string, readonly [string, keyof CommandOptions, Kind, string, string]>;

type Flag = keyof typeof FLAGS;

/** One help line per flag, in columns; a `\n` in the help text continues under its column. */
function help(flags: string[]): string {
  return flags
    .map((flag) => {
      const [env, , , arg, text] = FLAGS[flag as Flag];
      return `  ${`--${flag} ${arg}`.padEnd(28)}  ${env.padEnd(23)}  ${text.replace(/\n/g, `\n${' '.repeat(57)}`)}`;
    })
    .join('\n');
}

const shared = Object.keys(FLAGS).indexOf('redis-url');
const insights = Object.keys(FLAGS).indexOf('insights-db');

/** The command's usage text. */
export const HELP = `bot-answer-proxy: the key-holding proxy for the <bot-answer> element.

Usage: bot-answer-proxy [options]

Each option can also be set in the environment (flags win). The API key is read from the
environment only (ANSWER_API_KEY), so it never shows in a process list.

${help(Object.keys(FLAGS).slice(0, shared))}
  --debug                       BOT_ANSWER_DEBUG=1       log message text and upstream error details

Shared state and the answer cache (docs/scaling.md):
${help(Object.keys(FLAGS).slice(shared, insights))}
  --clear-cache                                          remove every cached answer from Redis, then exit

Insights (what visitors ask, for the owner's page at /insights):
${help(Object.keys(FLAGS).slice(insights))}
  (environment only)            INSIGHTS_TOKEN           the owner's token for /insights and its CSV (16+
                                                         characters); unset: the insights routes answer 404
  --help

Without ANSWER_API_KEY it runs in demo mode: the local Answer API starts in-process and
answers from its sample knowledge base, or from your documents: ANSWER_KB (a folder of
Markdown), with ANSWER_KB_BASE_URL, ANSWER_KB_URL_EXTENSION, ANSWER_KB_APP_NAME,
ANSWER_KB_ANCHORS, ANSWER_KB_INDEX, ANSWER_KB_WATCH and ANSWER_BOTS as for \`npm run upstream\`; its answers
are written by a model with ANSWER_LLM_BASE_URL and ANSWER_LLM_MODEL (and ANSWER_LLM_API_KEY,
ANSWER_LLM_TIMEOUT_MS, ANSWER_LLM_TEMPERATURE, ANSWER_LLM_MAX_TOKENS, ANSWER_LLM_PASSAGES,
ANSWER_LLM_ASK_WHEN_NOT_SURE).`;

/** What the command was asked to do: serve (the options), print help, or clear the answer cache. */
export type CommandOptions = StartProxyOptions & { clearCache?: boolean };

/**
 * Options from flags and environment; rejects with a readable error for a bad value. Without
 * ANSWER_API_KEY (demo mode) it loads the local Answer API engine to read its settings.
 */
export async function optionsFrom(argv: string[], env: NodeJS.ProcessEnv): Promise<CommandOptions | 'help'> {
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
  const { trustProxy: trust, redisFailureMode: failureMode, upstreamHistory: history, ...options } = read as Omit<CommandOptions, 'trustProxy' | 'redisFailureMode' | 'upstreamHistory'> & {
    trustProxy?: string;
    redisFailureMode?: string;
    upstreamHistory?: string;
  };
  if (history !== undefined && !['drop', 'fold', 'send'].includes(history)) throw new Error(`--upstream-history (UPSTREAM_HISTORY) must be drop, fold or send, got "${history}"`);
  if (trust !== undefined && !/^(\d+|true|false)$/.test(trust)) throw new Error(`--trust-proxy (TRUST_PROXY) must be true, false or a number of proxies, got "${trust}"`);
  if (failureMode !== undefined && failureMode !== 'fallback' && failureMode !== 'refuse') throw new Error(`--redis-failure-mode (REDIS_FAILURE_MODE) must be fallback or refuse, got "${failureMode}"`);
  if (options.redisUrl !== undefined && !/^rediss?:\/\//.test(options.redisUrl)) throw new Error('--redis-url (REDIS_URL) must start with redis:// or rediss://');
  if (options.port !== undefined && options.port > 65535) throw new Error(`--port (PORT) must be at most 65535, got ${options.port}`);
  const insightsToken = env.INSIGHTS_TOKEN || undefined;
  if (insightsToken !== undefined && insightsToken.length < MIN_TOKEN_CHARS) throw new Error(`INSIGHTS_TOKEN must be at least ${MIN_TOKEN_CHARS} characters (e.g. openssl rand -hex 16)`);
  if (insightsToken !== undefined && options.insightsDb === undefined) throw new Error('INSIGHTS_TOKEN opens the insights page, which reads what INSIGHTS_DB records: set INSIGHTS_DB too');
  if (options.insightsRetentionDays !== undefined && options.insightsRetentionDays < 1) throw new Error('--insights-retention-days (INSIGHTS_RETENTION_DAYS) must be at least 1');
  return {
    ...options,
    trustProxy: trust === 'true' || trust === 'false' ? trust === 'true' : trust === undefined ? undefined : Number(trust),
    redisFailureMode: failureMode,
    upstreamHistory: history as CommandOptions['upstreamHistory'],
    apiKey: env.ANSWER_API_KEY || undefined,
    insightsToken,
    port: options.port ?? 8787,
    host: options.host ?? '127.0.0.1',
    debug: values.debug === true || env.BOT_ANSWER_DEBUG === '1' || env.BOT_ANSWER_DEBUG === 'true',
    handleSignals: true,
    clearCache: values['clear-cache'] === true,
    // Demo mode serves the documents ANSWER_KB names, set up as for `npm run upstream`.
    localAnswerApi: env.ANSWER_API_KEY ? undefined : (await loadAnswerEngine()).knowledgeBaseOptions(env),
  };
}
