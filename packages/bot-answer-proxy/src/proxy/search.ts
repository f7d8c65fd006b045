import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_CHARS, MAX_SEARCH_LIMIT, type SearchResult } from '../../../bot-answer/src/protocol/search.js';
import { checkCaller } from './checks.js';
import type { RateLimiter, ResolvedConfig } from './config.js';
import { JSON_HEADERS, type RequestContext } from './context.js';
import { preflightHeaders } from './cors.js';
import { ProxyError } from './errors.js';
import { memoryRateLimiter } from './rate-limit.js';
import { isObject } from './sources.js';
import { memoryAnswerCache } from './stores/memory-cache.js';
import type { AnswerCacheStore, CachedSearch, StoreConfig } from './stores/types.js';
import { deadline, RequestTimers } from './timers.js';
import { sendUpstream, upstreamFailure } from './upstream.js';

/** How long the verdict "this upstream has no search" is kept before the upstream is asked again. */
export const SEARCH_UNAVAILABLE_SECONDS = 300;
const DEFAULT_SEARCH_CACHE_SECONDS = 60;
const SEARCH_CACHE_BYTES = 8 * 1024 * 1024;
/** Largest upstream search body read; and of a 404's body, read to tell an unknown bot from a missing route. */
const MAX_SEARCH_BYTES = 512 * 1024;
const MAX_ERROR_BYTES = 4 * 1024;
/** Longest title and snippet passed on; longer ones are cut (a snippet's highlights with it). */
const MAX_TITLE_CHARS = 500;
const MAX_SNIPPET_CHARS = 1000;
const STORE_TIMEOUT_MS = 1_000;

/** A search request, checked. */
interface SearchQuery {
  botId: string;
  text: string;
  limit: number;
}

/**
 * The proxy's `GET /api/search?bot_id=<id>&q=<text>&limit=<n>`: the same origin, `authorize` and
 * bot checks as answers, a rate limit of its own, results kept briefly (`searchCacheTtlSeconds`),
 * forwarded to `${baseUrl}/v1/search` with the key. An upstream without search (404 for the
 * route, 405, 501) gives `404 search_unavailable`, remembered for `SEARCH_UNAVAILABLE_SECONDS`.
 * What the upstream answers is checked again before it is passed on (`normaliseSearchResults`).
 */
export class SearchRoute {
  readonly #cfg: ResolvedConfig;
  readonly #limiter: RateLimiter | undefined;
  readonly #ttl: number;
  readonly #store: AnswerCacheStore<CachedSearch> | undefined;
  #unavailableUntil = 0;

  constructor(cfg: ResolvedConfig, stores: StoreConfig) {
    this.#cfg = cfg;
    this.#limiter = cfg.searchRateLimiter ?? (cfg.searchRateLimitPerMinute > 0 ? memoryRateLimiter(cfg.searchRateLimitPerMinute) : undefined);
    const ttl = stores.searchCacheTtlSeconds ?? DEFAULT_SEARCH_CACHE_SECONDS;
    this.#ttl = Number.isFinite(ttl) && ttl > 0 ? ttl : 0;
    this.#store = this.#ttl > 0 ? (stores.searchCacheStore ?? memoryAnswerCache<CachedSearch>({ maxBytes: SEARCH_CACHE_BYTES })) : undefined;
  }

  /** Answers a request to the search path (its CORS decision already made). */
  async handle(ctx: RequestContext): Promise<Response> {
    const { request, record } = ctx;
    if (request.method === 'OPTIONS') {
      if (ctx.cors === 'forbidden') throw new ProxyError('origin_not_allowed');
      record.outcome = 'preflight';
      return ctx.respond(204, null, preflightHeaders(this.#cfg.allowCredentials, 'GET, OPTIONS'));
    }
    if (request.method !== 'GET') return ctx.fail(new ProxyError('method_not_allowed'), { allow: 'GET, OPTIONS' });
    await checkCaller(ctx, this.#limiter, 'search:', 'search_rate_limited');
    const query = readSearchQuery(ctx);
    if (Date.now() < this.#unavailableUntil) return this.#unavailable(ctx);
    const cacheHeader = (): Record<string, string> => (record.cache === undefined ? {} : { 'x-cache': record.cache === 'hit' ? 'HIT' : 'MISS' });
    const key = this.#store ? await searchKey(query) : undefined;
    let found = key ? await this.#stored(key) : undefined;
    if (key) record.cache = found ? 'hit' : 'miss';
    if (!found) {
      try {
        found = await this.#ask(ctx, query);
      } catch (error) {
        if (error instanceof ProxyError && error.failure === 'search_unavailable') {
          this.#unavailableUntil = Date.now() + SEARCH_UNAVAILABLE_SECONDS * 1000;
          return this.#unavailable(ctx);
        }
        if (request.signal.aborted) return ctx.fail(new ProxyError('stream_broken'));
        throw error;
      }
      if (key) void this.#keep(key, found);
    }
    const caching = this.#ttl > 0 ? `private, max-age=${this.#ttl}` : 'no-store';
    return ctx.respond(200, JSON.stringify(found), { ...JSON_HEADERS, 'cache-control': caching, ...cacheHeader() });
  }

  #unavailable(ctx: RequestContext): Response {
    return ctx.fail(new ProxyError('search_unavailable'), { 'cache-control': `private, max-age=${SEARCH_UNAVAILABLE_SECONDS}` });
  }

  /** Asks the upstream, and checks what it answers. */
  async #ask(ctx: RequestContext, query: SearchQuery): Promise<CachedSearch> {
    const upstream = new AbortController();
    const timers = new RequestTimers(upstream, this.#cfg, ctx.startedAt);
    const onClientGone = (): void => timers.abortUpstream();
    ctx.request.signal.addEventListener('abort', onClientGone, { once: true });
    try {
      const params = new URLSearchParams({ bot_id: query.botId, q: query.text, limit: String(query.limit) });
      const response = await sendUpstream(ctx, { url: `${this.#cfg.upstreamSearchUrl}?${params}`, method: 'GET', headers: { accept: 'application/json' } }, upstream.signal, timers);
      const status = response.status;
      if (status === 405 || status === 501) throw new ProxyError('search_unavailable');
      if (status === 404) throw namesBot(await readText(response.body, MAX_ERROR_BYTES, timers).catch(() => '')) ? upstreamFailure(ctx, response) : new ProxyError('search_unavailable');
      if (status < 200 || status >= 300) throw upstreamFailure(ctx, response);
      let value: unknown;
      try {
        value = JSON.parse(await readText(response.body, MAX_SEARCH_BYTES, timers));
      } catch (error) {
        throw error instanceof ProxyError ? error : new ProxyError('upstream_bad_answer');
      }
      const results = normaliseSearchResults(value, query.limit);
      if (!results) throw new ProxyError('upstream_bad_answer');
      return { results };
    } catch (error) {
      throw error instanceof ProxyError ? error : new ProxyError(timers.reason ?? 'upstream_failed');
    } finally {
      timers.abortUpstream();
      ctx.request.signal.removeEventListener('abort', onClientGone);
    }
  }

  /** A kept result, or none (a store that fails or is slow is skipped: a search is cheap to ask again). */
  async #stored(key: string): Promise<CachedSearch | undefined> {
    try {
      const value = await deadline(this.#store!.get(key), STORE_TIMEOUT_MS, () => undefined);
      return value && Array.isArray(value.results) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  async #keep(key: string, value: CachedSearch): Promise<void> {
    try {
      await deadline(this.#store!.set(key, value, this.#ttl), STORE_TIMEOUT_MS, () => undefined);
    } catch {
      // the store's own outage log says why
    }
  }
}

/** The query string, checked: `bot_id` allowed, `q` not blank and short enough, `limit` in range. */
function readSearchQuery(ctx: RequestContext): SearchQuery {
  const params = ctx.url.searchParams;
  const botId = params.get('bot_id') ?? '';
  if (botId.trim() === '') throw new ProxyError('bad_bot_id');
  ctx.record.bot = botId;
  const { allowedBotIds } = ctx.cfg;
  if (allowedBotIds.length > 0 && !allowedBotIds.includes(botId)) throw new ProxyError('bot_not_allowed');
  const text = params.get('q') ?? '';
  if (text.trim() === '') throw new ProxyError('empty_search');
  if ([...text].length > MAX_SEARCH_CHARS) throw new ProxyError('search_too_long');
  if (ctx.cfg.debug) ctx.record.message = text;
  const limitText = params.get('limit');
  const limit = limitText === null ? DEFAULT_SEARCH_LIMIT : /^\d{1,3}$/.test(limitText) ? Number(limitText) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_SEARCH_LIMIT)) throw new ProxyError('bad_search_limit');
  return { botId, text, limit };
}

const encoder = new TextEncoder();

/**
 * The cache key of a search: SHA-256 (hex) of the bot, the limit and the text in Unicode NFC,
 * lower case, runs of white space as one space and none at its start. Its end is kept: "sabbat"
 * (a word being typed) and "sabbat " (a whole word) are other searches.
 */
async function searchKey(query: SearchQuery): Promise<string> {
  const text = query.text.normalize('NFC').replace(/\s+/gu, ' ').trimStart().toUpperCase().toLowerCase();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(JSON.stringify(['search', query.botId, query.limit, text]))));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Whether a 404's body says the bot is unknown (the route exists), as the local Answer API's `{"detail": "Bot not found"}`. */
function namesBot(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    if (!isObject(value)) return false;
    const detail = value.detail ?? (isObject(value.error) ? value.error.code : undefined);
    return typeof detail === 'string' && /\bbot\b|unknown_bot/i.test(detail);
  } catch {
    return false;
  }
}

/** An upstream body as text, at most `maxBytes` (more is a bad answer). */
async function readText(body: AsyncIterable<Uint8Array>, maxBytes: number, timers: RequestTimers): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let total = 0;
  try {
    for await (const chunk of body) {
      timers.touch();
      if ((total += chunk.byteLength) > maxBytes) throw new ProxyError('upstream_bad_answer');
      text += decoder.decode(chunk, { stream: true });
    }
  } catch (error) {
    throw error instanceof ProxyError ? error : new ProxyError(timers.reason ?? 'stream_broken');
  }
  return text + decoder.decode();
}

/**
 * An upstream's search results as the proxy passes them on, or `undefined` when the body is not
 * `{"results": [...]}`: each result needs a `title` (a non-blank string) and an absolute http(s)
 * `url`, else it is dropped; `snippet` is a string (empty when absent or of another type);
 * `highlights` keeps only `[start, end]` pairs of whole numbers with `0 <= start < end <=
 * snippet.length`, in order and not overlapping; titles and snippets are cut at 500 and 1,000
 * characters. At most `limit` results.
 */
export function normaliseSearchResults(value: unknown, limit: number): SearchResult[] | undefined {
  if (!isObject(value) || !Array.isArray(value.results)) return undefined;
  const results: SearchResult[] = [];
  for (const item of value.results) {
    if (results.length >= limit) break;
    if (!isObject(item) || typeof item.title !== 'string' || item.title.trim() === '' || !isHttpUrl(item.url)) continue;
    const snippet = typeof item.snippet === 'string' ? cut(item.snippet, MAX_SNIPPET_CHARS) : '';
    results.push({ title: cut(item.title, MAX_TITLE_CHARS), url: item.url, snippet, highlights: ranges(item.highlights, snippet.length) });
  }
  return results;
}

function isHttpUrl(value: unknown): value is string {
  return typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

/** At most `max` UTF-16 code units, never half a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

function ranges(value: unknown, length: number): Array<[number, number]> {
  if (!Array.isArray(value)) return [];
  const kept: Array<[number, number]> = [];
  let last = 0;
  for (const pair of value) {
    if (!Array.isArray(pair) || pair.length !== 2) continue;
    const [start, end] = pair as unknown[];
    if (!Number.isInteger(start) || !Number.isInteger(end)) continue;
    const s = start as number;
    const e = end as number;
    if (s < last || e <= s || e > length) continue;
    kept.push([s, e]);
    last = e;
  }
  return kept;
}
