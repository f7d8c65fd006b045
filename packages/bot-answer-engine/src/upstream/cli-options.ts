import { parseArgs } from 'node:util';
import { STREAM_DIALECTS } from './http/dialects.js';
import { checkUrlSettings } from './folder/document-url.js';
import type { AnswerApiOptions, FaultOptions, StreamDialect } from './options.js';
import { writerSettings, type LlmSettingNames } from './compose/written/settings.js';
import { checkSiteUrl, parseDuration } from './site/site-settings.js';

/** The written-answer settings as the environment (and the flags) name them. */
const LLM_NAMES: LlmSettingNames = {
  llmBaseUrl: 'ANSWER_LLM_BASE_URL (--llm-base-url)',
  llmModel: 'ANSWER_LLM_MODEL (--llm-model)',
  llmApiKey: 'ANSWER_LLM_API_KEY',
  llmTimeoutMs: 'ANSWER_LLM_TIMEOUT_MS (--llm-timeout-ms)',
  llmTemperature: 'ANSWER_LLM_TEMPERATURE (--llm-temperature)',
  llmMaxTokens: 'ANSWER_LLM_MAX_TOKENS (--llm-max-tokens)',
  llmPassages: 'ANSWER_LLM_PASSAGES (--llm-passages)',
  llmAskWhenNotSure: 'ANSWER_LLM_ASK_WHEN_NOT_SURE (--llm-ask-when-not-sure)',
};

/** A command line or environment value that cannot be used; the message names it. */
export class CliOptionsError extends Error {
  override name = 'CliOptionsError';
}

export const CLI_USAGE = `Usage: npm run upstream -- [options]

The local Answer API: POST /v1/answer as the Answer API spec describes it, answering from
knowledge bases (Markdown, built HTML, live sites). Every option can also come from the environment variable shown.

  --port N                     PORT, default 8788 (0: any free port)
  --host ADDRESS               HOST, default 127.0.0.1
  --keys K1,K2                 ANSWER_API_KEYS; unset: one random key, printed at start
  --revoked-keys K1,K2         ANSWER_REVOKED_KEYS: rejected with 401 like deleted keys
  --kb FOLDER                  ANSWER_KB: documents of bot "demo": Markdown (.md, .mdx) and built HTML
                               (.html, .htm, main content only) (default: the sample knowledge base)
  --kb-site URL                ANSWER_KB_SITE: instead of a folder, a live site to crawl (its sitemap, else its
                               links, under the URL's path; robots.txt obeyed); kept in the index, refreshed
  --kb-site-max-pages N        ANSWER_KB_SITE_MAX_PAGES: most pages kept of the site (default 1000)
  --kb-site-refresh TIME       ANSWER_KB_SITE_REFRESH: how often the site is crawled again, with conditional
                               requests: 30m, 6h, 1d (default), or off (only at start)
  --kb-base-url URL            ANSWER_KB_BASE_URL: where the folder is published; files without a url in
                               their front-matter (or a canonical link) are cited as URL + path
                               (guide/setup.md -> URL/guide/setup, guide/index.html -> URL/guide/)
  --kb-url-extension EXT       ANSWER_KB_URL_EXTENSION: what replaces .md/.mdx in those URLs: empty (default,
                               dropped), .html, or / (folder style); index.md and README.md stand for their folder
  --kb-app-name NAME           ANSWER_KB_APP_NAME: app_name of documents without one (default: the folder's name)
  --kb-anchors on|off|auto     ANSWER_KB_ANCHORS: sources link to the passage's section (url#heading-slug);
                               auto (default): for URLs formed from the base URL, not for front-matter URLs
  --kb-index FOLDER            ANSWER_KB_INDEX: where the on-disk indexes go, one SQLite file per bot (default:
                               node_modules/.cache/bot-answer/ here if there is a node_modules, else the user's
                               cache folder); reused at the next start, only changed files re-read
  --no-watch                   ANSWER_KB_WATCH=false: do not re-index when files of the folders change
  --bots FILE                  ANSWER_BOTS: JSON {"bots": [{"id": "hr", "kb": "./hr-docs"}]}; an entry may also
                               set base_url, url_extension, app_name and anchors (true, false, "auto"), or
                               "site": URL instead of "kb" (with "max_pages" and "refresh")
  --dialect NAME               ANSWER_DIALECT: ${STREAM_DIALECTS.join(' | ')} (default named)
  --no-end-marker              ANSWER_END_MARKER=false: streams end by closing the body
  --pace-ms N                  ANSWER_PACE_MS: milliseconds between streamed pieces (default 30; 0: no pacing)
  --words-per-chunk N          ANSWER_WORDS_PER_CHUNK: words per streamed piece (default 3)
  --heartbeat-ms N             ANSWER_HEARTBEAT_MS: heartbeat comment after N quiet ms (default 15000)
  --rate-limit N               ANSWER_RATE_LIMIT_PER_MINUTE: requests per minute per workspace (default: no limit)
  --max-body-bytes N           ANSWER_MAX_BODY_BYTES: larger bodies get 413 (default 65536)

Written answers (opt-in): a model writes each answer from the passages retrieval finds, citing them;
off-topic questions never reach it (nor, by default, those retrieval is not sure of), and when it fails before its first token the docs answer.
  --llm-base-url URL           ANSWER_LLM_BASE_URL: the model server's OpenAI-compatible base, e.g.
                               https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama)
  --llm-model NAME             ANSWER_LLM_MODEL: the model, as the server names it (gpt-4o-mini, llama3.2)
                               ANSWER_LLM_API_KEY: its API key, if it needs one (environment only, never printed)
  --llm-timeout-ms N           ANSWER_LLM_TIMEOUT_MS: wait for the first token, and between tokens (default 20000)
  --llm-temperature T          ANSWER_LLM_TEMPERATURE: 0 to 2 (default: the model's own)
  --llm-max-tokens N           ANSWER_LLM_MAX_TOKENS: most tokens per answer (default: the model's own)
  --llm-passages N             ANSWER_LLM_PASSAGES: most passages given to the model per question (default 8)
  --llm-ask-when-not-sure on|off
                               ANSWER_LLM_ASK_WHEN_NOT_SURE: questions retrieval is not sure of go to the model
                               too, with the closest pages (default off: they get the related pages, no model call)

Faults, for testing clients (flags only, all off by default):
  --fault-header-delay-ms N          wait N ms before sending response headers
  --fault-stall-after-chunks N       stop writing after N pieces ...
  --fault-stall-ms N                 ... for N ms (default: until the client gives up)
  --fault-heartbeat-during-stall     keep sending heartbeat comments while stalled
  --fault-close-after-chunks N       destroy the connection after N pieces
  --fault-malformed-event            send one event with broken JSON after the first piece
  --fault-oversized-event-bytes N    send one piece event of N bytes after the first piece
  --fault-split-multibyte            split multi-byte characters across separate writes
  --fault-status N                   answer every request with status N (e.g. 500, 502)
  -h, --help                         show this help
`;

/** Reads the CLI flags, falling back to the environment, into Answer API options. `undefined`: show help. */
export function parseCliOptions(argv: string[], env: NodeJS.ProcessEnv): AnswerApiOptions | undefined {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        keys: { type: 'string' },
        'revoked-keys': { type: 'string' },
        kb: { type: 'string' },
        'kb-site': { type: 'string' },
        'kb-site-max-pages': { type: 'string' },
        'kb-site-refresh': { type: 'string' },
        'kb-base-url': { type: 'string' },
        'kb-url-extension': { type: 'string' },
        'kb-app-name': { type: 'string' },
        'kb-anchors': { type: 'string' },
        'kb-index': { type: 'string' },
        'no-watch': { type: 'boolean' },
        bots: { type: 'string' },
        dialect: { type: 'string' },
        'no-end-marker': { type: 'boolean' },
        'pace-ms': { type: 'string' },
        'words-per-chunk': { type: 'string' },
        'heartbeat-ms': { type: 'string' },
        'rate-limit': { type: 'string' },
        'max-body-bytes': { type: 'string' },
        'llm-base-url': { type: 'string' },
        'llm-model': { type: 'string' },
        'llm-timeout-ms': { type: 'string' },
        'llm-temperature': { type: 'string' },
        'llm-max-tokens': { type: 'string' },
        'llm-passages': { type: 'string' },
        'llm-ask-when-not-sure': { type: 'string' },
        'fault-header-delay-ms': { type: 'string' },
        'fault-stall-after-chunks': { type: 'string' },
        'fault-stall-ms': { type: 'string' },
        'fault-heartbeat-during-stall': { type: 'boolean' },
        'fault-close-after-chunks': { type: 'string' },
        'fault-malformed-event': { type: 'boolean' },
        'fault-oversized-event-bytes': { type: 'string' },
        'fault-split-multibyte': { type: 'boolean' },
        'fault-status': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new CliOptionsError((error as Error).message);
  }
  if (values.help) return undefined;

  const dialect = values.dialect ?? env.ANSWER_DIALECT;
  if (dialect !== undefined && !STREAM_DIALECTS.includes(dialect as StreamDialect)) {
    throw new CliOptionsError(`Unknown stream dialect "${dialect}"; use one of ${STREAM_DIALECTS.join(', ')}`);
  }
  const endMarkerEnv = env.ANSWER_END_MARKER?.trim().toLowerCase();
  if (endMarkerEnv !== undefined && endMarkerEnv !== '' && !['true', 'false', '1', '0'].includes(endMarkerEnv)) {
    throw new CliOptionsError(`ANSWER_END_MARKER must be true or false, not "${env.ANSWER_END_MARKER}"`);
  }

  const watch = values['no-watch'] ? false : flag('ANSWER_KB_WATCH', env.ANSWER_KB_WATCH);
  const anchorsText = values['kb-anchors'] ?? env.ANSWER_KB_ANCHORS;
  const anchors = anchorsText === undefined || anchorsText.trim() === '' ? undefined : anchorsText.trim().toLowerCase() === 'auto' ? 'auto' : flag('ANSWER_KB_ANCHORS', anchorsText, 'auto');

  const faults: FaultOptions = {
    headerDelayMs: integer('--fault-header-delay-ms', values['fault-header-delay-ms']),
    stallAfterChunks: integer('--fault-stall-after-chunks', values['fault-stall-after-chunks']),
    stallMs: integer('--fault-stall-ms', values['fault-stall-ms']),
    heartbeatDuringStall: values['fault-heartbeat-during-stall'],
    closeAfterChunks: integer('--fault-close-after-chunks', values['fault-close-after-chunks']),
    malformedEvent: values['fault-malformed-event'],
    oversizedEventBytes: integer('--fault-oversized-event-bytes', values['fault-oversized-event-bytes']),
    splitMultibyte: values['fault-split-multibyte'],
    status: integer('--fault-status', values['fault-status']),
  };
  if (faults.status !== undefined && (faults.status < 400 || faults.status > 599)) {
    throw new CliOptionsError(`--fault-status must be an error status (400-599), not ${faults.status}`);
  }

  const options: AnswerApiOptions = {
    port: integer('PORT', values.port ?? env.PORT) ?? 8788,
    host: values.host ?? (env.HOST || undefined),
    keys: list(values.keys ?? env.ANSWER_API_KEYS),
    revokedKeys: list(values['revoked-keys'] ?? env.ANSWER_REVOKED_KEYS),
    kb: values.kb ?? (env.ANSWER_KB || undefined),
    kbSite: text(values['kb-site'] ?? env.ANSWER_KB_SITE),
    kbSiteMaxPages: integer('ANSWER_KB_SITE_MAX_PAGES (--kb-site-max-pages)', values['kb-site-max-pages'] ?? env.ANSWER_KB_SITE_MAX_PAGES),
    kbSiteRefreshMs: duration('ANSWER_KB_SITE_REFRESH (--kb-site-refresh)', values['kb-site-refresh'] ?? env.ANSWER_KB_SITE_REFRESH),
    kbBaseUrl: values['kb-base-url'] ?? (env.ANSWER_KB_BASE_URL?.trim() || undefined),
    kbUrlExtension: values['kb-url-extension'] ?? env.ANSWER_KB_URL_EXTENSION?.trim(),
    kbAppName: values['kb-app-name'] ?? (env.ANSWER_KB_APP_NAME?.trim() || undefined),
    kbAnchors: anchors,
    kbIndex: values['kb-index'] ?? (env.ANSWER_KB_INDEX?.trim() || undefined),
    watch,
    botsFile: values.bots ?? (env.ANSWER_BOTS || undefined),
    dialect: dialect as StreamDialect | undefined,
    endMarker: values['no-end-marker'] ? false : endMarkerEnv === 'false' || endMarkerEnv === '0' ? false : undefined,
    paceMs: integer('--pace-ms', values['pace-ms'] ?? env.ANSWER_PACE_MS),
    wordsPerChunk: integer('--words-per-chunk', values['words-per-chunk'] ?? env.ANSWER_WORDS_PER_CHUNK),
    heartbeatMs: integer('--heartbeat-ms', values['heartbeat-ms'] ?? env.ANSWER_HEARTBEAT_MS),
    rateLimitPerMinute: integer('--rate-limit', values['rate-limit'] ?? env.ANSWER_RATE_LIMIT_PER_MINUTE),
    maxBodyBytes: integer('--max-body-bytes', values['max-body-bytes'] ?? env.ANSWER_MAX_BODY_BYTES),
    llmBaseUrl: text(values['llm-base-url'] ?? env.ANSWER_LLM_BASE_URL),
    llmModel: text(values['llm-model'] ?? env.ANSWER_LLM_MODEL),
    llmApiKey: text(env.ANSWER_LLM_API_KEY),
    llmTimeoutMs: integer('ANSWER_LLM_TIMEOUT_MS (--llm-timeout-ms)', values['llm-timeout-ms'] ?? env.ANSWER_LLM_TIMEOUT_MS),
    llmTemperature: decimal('ANSWER_LLM_TEMPERATURE (--llm-temperature)', values['llm-temperature'] ?? env.ANSWER_LLM_TEMPERATURE),
    llmMaxTokens: integer('ANSWER_LLM_MAX_TOKENS (--llm-max-tokens)', values['llm-max-tokens'] ?? env.ANSWER_LLM_MAX_TOKENS),
    llmPassages: integer('ANSWER_LLM_PASSAGES (--llm-passages)', values['llm-passages'] ?? env.ANSWER_LLM_PASSAGES),
    llmAskWhenNotSure: flag('ANSWER_LLM_ASK_WHEN_NOT_SURE (--llm-ask-when-not-sure)', values['llm-ask-when-not-sure'] ?? env.ANSWER_LLM_ASK_WHEN_NOT_SURE),
    faults: Object.fromEntries(Object.entries(faults).filter(([, v]) => v !== undefined)) as FaultOptions,
  };
  const urlProblem = checkUrlSettings(
    { baseUrl: options.kbBaseUrl, urlExtension: options.kbUrlExtension },
    { baseUrl: 'ANSWER_KB_BASE_URL (--kb-base-url)', urlExtension: 'ANSWER_KB_URL_EXTENSION (--kb-url-extension)' },
  );
  if (urlProblem) throw new CliOptionsError(urlProblem);
  if (options.kbSite !== undefined) {
    const siteProblem = checkSiteUrl(options.kbSite, 'ANSWER_KB_SITE (--kb-site)');
    if (siteProblem) throw new CliOptionsError(siteProblem);
    if (options.kb !== undefined) throw new CliOptionsError('ANSWER_KB and ANSWER_KB_SITE are both set: bot "demo" answers from a folder or a site, not both');
  }
  if (options.kbSiteMaxPages === 0) throw new CliOptionsError('ANSWER_KB_SITE_MAX_PAGES must be at least 1');
  try {
    writerSettings(options, LLM_NAMES);
  } catch (error) {
    throw new CliOptionsError((error as Error).message);
  }
  if (options.wordsPerChunk === 0) throw new CliOptionsError('--words-per-chunk must be at least 1');
  if (options.port! > 65535) throw new CliOptionsError(`PORT must be 0-65535, not ${options.port}`);
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as AnswerApiOptions;
}

/** A yes/no setting: true/false, 1/0, on/off, yes/no; `extra` names another accepted word in the message. */
function flag(name: string, value: string | undefined, extra?: string): boolean | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(v)) return true;
  if (['false', '0', 'off', 'no'].includes(v)) return false;
  throw new CliOptionsError(`${name} must be on or off${extra ? ` or ${extra}` : ''}, not "${value}"`);
}

function duration(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ms = parseDuration(value);
  if (ms === undefined) throw new CliOptionsError(`${name} must be a duration such as 30m, 6h, 1d, or off, not "${value}"`);
  return ms;
}

function text(value: string | undefined): string | undefined {
  return value?.trim() || undefined;
}

function decimal(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^\d+(\.\d+)?$/.test(value.trim())) throw new CliOptionsError(`${name} must be a number, not "${value}"`);
  return Number(value.trim());
}

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^\d+$/.test(value.trim())) throw new CliOptionsError(`${name} must be a whole number, not "${value}"`);
  return Number(value.trim());
}

function list(value: string | undefined): string[] | undefined {
  const items = value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items?.length ? items : undefined;
}

/** The environment variables that say which documents the local Answer API serves, and how it answers. */
const EMBEDDED_ENV = [
  'ANSWER_KB',
  'ANSWER_KB_SITE',
  'ANSWER_KB_SITE_MAX_PAGES',
  'ANSWER_KB_SITE_REFRESH',
  'ANSWER_KB_BASE_URL',
  'ANSWER_KB_URL_EXTENSION',
  'ANSWER_KB_APP_NAME',
  'ANSWER_KB_ANCHORS',
  'ANSWER_KB_INDEX',
  'ANSWER_KB_WATCH',
  'ANSWER_BOTS',
  'ANSWER_LLM_BASE_URL',
  'ANSWER_LLM_MODEL',
  'ANSWER_LLM_API_KEY',
  'ANSWER_LLM_TIMEOUT_MS',
  'ANSWER_LLM_TEMPERATURE',
  'ANSWER_LLM_MAX_TOKENS',
  'ANSWER_LLM_PASSAGES',
  'ANSWER_LLM_ASK_WHEN_NOT_SURE',
];

/**
 * The knowledge-base settings of the environment (`ANSWER_KB`, `ANSWER_KB_*`, `ANSWER_BOTS`) and
 * the written-answer ones (`ANSWER_LLM_*`), checked like `npm run upstream` checks them, for an
 * Answer API embedded in another command (the proxy's demo mode).
 */
export function knowledgeBaseOptions(env: NodeJS.ProcessEnv): Partial<AnswerApiOptions> {
  const picked = Object.fromEntries(EMBEDDED_ENV.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]));
  const o = parseCliOptions([], picked)!;
  const { kb, kbSite, kbSiteMaxPages, kbSiteRefreshMs, kbBaseUrl, kbUrlExtension, kbAppName, kbAnchors, kbIndex, watch, botsFile } = o;
  const { llmBaseUrl, llmModel, llmApiKey, llmTimeoutMs, llmTemperature, llmMaxTokens, llmPassages, llmAskWhenNotSure } = o;
  const embedded = { kb, kbSite, kbSiteMaxPages, kbSiteRefreshMs, kbBaseUrl, kbUrlExtension, kbAppName, kbAnchors, kbIndex, watch, botsFile, llmBaseUrl, llmModel, llmApiKey, llmTimeoutMs, llmTemperature, llmMaxTokens, llmPassages, llmAskWhenNotSure };
  return Object.fromEntries(Object.entries(embedded).filter(([, v]) => v !== undefined));
}
