import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { TextDecoder } from 'node:util';
import robotsParserModule from 'robots-parser';
import { guardedLookup, resolveHost, startsPrivate, type ResolveHost } from './address-guard.js';
import { discard, PageClient } from './page-client.js';
import { headCanonical, pageLinks } from './page-links.js';
import { readSitemap } from './sitemap.js';
import { mirrorFile, type SiteMirror } from './site-mirror.js';

// A CommonJS module whose types declare an ES default export: Node gives its `module.exports`, the function.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** The user agent the crawl sends, and the robots.txt group it obeys beside `*`. */
export const CRAWLER_NAME = 'bot-answer';
const USER_AGENT = `${CRAWLER_NAME}/1 (+https://www.npmjs.com/package/bot-answer; docs crawler)`;

/** How a site is crawled. */
export interface CrawlOptions {
  /** The site's URL: only pages on its origin, under its path, are fetched. */
  start: string;
  /** Where its pages are kept. */
  mirror: SiteMirror;
  /** Most pages kept (ANSWER_KB_SITE_MAX_PAGES). Default 1000. */
  maxPages?: number;
  /** Longest one request may take, headers and body. Default 15 s. */
  pageTimeoutMs?: number;
  /** Largest page (or sitemap) read, in bytes. Default 5 MiB. */
  maxPageBytes?: number;
  /** Requests at once (to the one host a crawl talks to). Default 4, the most. */
  concurrency?: number;
  /** Host name resolution (tests give their own). Default: the system's resolver. */
  resolve?: ResolveHost;
  /** Called after every `progressEvery` pages saved, so what is saved can be indexed while the crawl goes on. */
  onSaved?: () => Promise<void> | void;
  progressEvery?: number;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

/** What a crawl did. */
export interface CrawlOutcome {
  /** Pages fetched and saved (new or changed), unchanged (304), failed (kept as they were, or never had), removed (gone from the site). */
  saved: number;
  unchanged: number;
  failed: number;
  removed: number;
  /** Whether the whole site was seen: only then are pages it no longer lists removed. */
  complete: boolean;
}

/** A page or file that cannot be fetched; the message says why, in a few words. */
class FetchFailure extends Error {
  override name = 'FetchFailure';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const MAX_REDIRECTS = 5;
const MAX_SITEMAP_FILES = 50;
const RESET = new Set(['ECONNRESET', 'EPIPE']);
const HTML_TYPE = /^\s*(?:text\/html|application\/xhtml\+xml)\b/i;
const EMPTY = Buffer.alloc(0);

/**
 * Crawls a live site into its mirror: the pages its sitemaps list (`sitemap.xml` under its
 * path, sitemap indexes, the `Sitemap:` lines of robots.txt), else the pages linked from its
 * start page and on, as robots.txt allows (groups `bot-answer` and `*`). Only its origin and
 * path are fetched, redirects included; no private or loopback address is connected to unless
 * the start URL is on one. Pages already kept are asked for with their validators (ETag,
 * Last-Modified), so an unchanged page costs a 304. A page that fails is skipped with one log
 * line and its kept copy stays; a page the site says is gone (404, 410) is removed, and so are
 * pages no longer listed once a crawl has seen the whole site.
 */
export async function crawlSite(options: CrawlOptions): Promise<CrawlOutcome> {
  const log = options.log ?? ((): void => {});
  const start = new URL(options.start);
  start.hash = '';
  const scope = scopeOf(start);
  const maxPages = options.maxPages ?? 1000;
  const maxBytes = options.maxPageBytes ?? 5 * 1024 * 1024;
  const timeoutMs = options.pageTimeoutMs ?? 15_000;
  const concurrency = Math.min(4, Math.max(1, options.concurrency ?? 4));
  const resolve = options.resolve ?? resolveHost;
  const mirror = options.mirror;
  const outcome: CrawlOutcome = { saved: 0, unchanged: 0, failed: 0, removed: 0, complete: false };
  const allowPrivate = await startsPrivate(start, resolve).catch(() => false);
  const client = new PageClient({ connections: concurrency, lookup: guardedLookup(allowPrivate, resolve) as never });
  const inScope = (url: URL): boolean => url.origin === start.origin && url.pathname.startsWith(scope) && (url.protocol === 'http:' || url.protocol === 'https:');

  /** Fetches a URL of the origin, following redirects that stay in `allowed`; the body is read up to the size limit. */
  const get = async (url: URL, allowed: (url: URL) => boolean, headers: Record<string, string> = {}) => {
    const chain = new Set<string>();
    let current = url;
    for (;;) {
      if (chain.has(current.href)) throw new FetchFailure('a redirect loop');
      chain.add(current.href);
      const { signal, clear } = deadline(timeoutMs, options.signal);
      try {
        let response: IncomingMessage | undefined;
        for (let attempt = 1; !response; attempt++) {
          try {
            response = await client.get(current, { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.5', ...headers }, signal);
          } catch (error) {
            // A kept-alive connection the server closed as it was reused: the request never reached it, and is sent once more.
            if (attempt === 1 && !signal.aborted && RESET.has((error as NodeJS.ErrnoException).code ?? '')) continue;
            throw new FetchFailure(failureText(signal.aborted ? signal.reason : error, timeoutMs));
          }
        }
        const { statusCode = 0, headers: got } = response;
        const body = response;
        if (statusCode >= 300 && statusCode < 400 && statusCode !== 304) {
          await discard(body);
          const location = header(got, 'location');
          if (!location) throw new FetchFailure(`status ${statusCode} without a Location`, statusCode);
          if (chain.size > MAX_REDIRECTS) throw new FetchFailure(`more than ${MAX_REDIRECTS} redirects`);
          let next: URL;
          try {
            next = new URL(location, current);
          } catch {
            throw new FetchFailure(`a redirect to an invalid URL`);
          }
          next.hash = '';
          if (!allowed(next)) throw new FetchFailure(`a redirect to ${next.href}, outside ${start.origin}${scope}: not followed`);
          current = next;
          continue;
        }
        if (statusCode !== 200) {
          await discard(body);
          return { status: statusCode, url: current, headers: got, bytes: EMPTY };
        }
        const length = Number(header(got, 'content-length') ?? NaN);
        if (length > maxBytes) {
          await discard(body);
          throw new FetchFailure(`too large (${length} bytes, the limit is ${maxBytes})`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        try {
          for await (const chunk of body) {
            size += (chunk as Buffer).length;
            if (size > maxBytes) {
              throw new FetchFailure(`too large (over ${maxBytes} bytes)`);
            }
            chunks.push(chunk as Buffer);
          }
        } catch (error) {
          if (error instanceof FetchFailure) throw error;
          throw new FetchFailure(failureText(signal.aborted ? signal.reason : error, timeoutMs));
        }
        return { status: 200, url: current, headers: got, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) };
      } finally {
        clear();
      }
    }
  };

  try {
    const robotsUrl = new URL('/robots.txt', start);
    let robotsText = '';
    try {
      const robots = await get(robotsUrl, (u) => u.origin === start.origin);
      if (robots.status === 200) robotsText = textOf(robots);
    } catch (error) {
      log(`site ${start.href}: robots.txt not read (${(error as Error).message}); crawling as if it allowed everything`);
    }
    const robots = robotsParser(robotsUrl.href, robotsText);
    // Both groups are obeyed: the one naming this crawler, and the one for every crawler.
    const allowedByRobots = (url: URL): boolean => robots.isAllowed(url.href, CRAWLER_NAME) !== false && robots.isAllowed(url.href, '*') !== false;

    // The sitemaps: robots.txt's on this origin, and the one under the site's path.
    const pending = [...robots.getSitemaps(), new URL('sitemap.xml', new URL(scope, start)).href];
    const seenSitemaps = new Set<string>();
    const listed: URL[] = [];
    const listedKeys = new Set<string>();
    let sitemapEntries = 0;
    let sitemapsRead = 0;
    let sitemapsFailed = false;
    while (pending.length && seenSitemaps.size < MAX_SITEMAP_FILES) {
      const href = pending.shift()!;
      let url: URL;
      try {
        url = new URL(href, start);
      } catch {
        continue;
      }
      if (seenSitemaps.has(url.href)) continue;
      seenSitemaps.add(url.href);
      if (url.origin !== start.origin) {
        log(`site ${start.href}: sitemap ${url.href} is on another origin: not read`);
        continue;
      }
      try {
        const sitemap = await get(url, (u) => u.origin === start.origin);
        if (sitemap.status !== 200) {
          if (sitemap.status !== 404 && sitemap.status !== 410) sitemapsFailed = true;
          continue;
        }
        sitemapsRead++;
        const entries = readSitemap(textOf(sitemap));
        pending.push(...entries.sitemaps);
        sitemapEntries += entries.pages.length;
        for (const entry of entries.pages) {
          if (listed.length >= maxPages) break;
          const page = pageUrl(entry, start);
          if (!page || !inScope(page) || listedKeys.has(page.href)) continue;
          listedKeys.add(page.href);
          listed.push(page);
        }
      } catch (error) {
        sitemapsFailed = true;
        log(`site ${start.href}: sitemap ${url.href} skipped: ${(error as Error).message}`);
      }
    }
    if (sitemapEntries > listed.length) log(`site ${start.href}: the sitemaps list ${sitemapEntries} pages; ${listed.length} taken (in ${start.origin}${scope}, at most ${maxPages})`);
    const followLinks = listed.length === 0;
    if (followLinks) {
      listed.push(start);
      listedKeys.add(start.href);
    }

    const seen = new Set<string>();
    let next = 0;
    let handled = 0;
    let lastProgress = Date.now();
    let sinceSaved = 0;
    let startFailed = false;
    const progressEvery = options.progressEvery ?? 100;
    const progress = (): void => {
      log(`site ${start.href}: ${handled} of ${followLinks ? `${listed.length}+` : listed.length} pages crawled (${outcome.saved} new or changed, ${outcome.unchanged} unchanged, ${outcome.failed} failed)`);
      lastProgress = Date.now();
    };
    const follow = (links: string[], from: URL): void => {
      for (const link of links) {
        if (listed.length >= maxPages) break;
        const target = pageUrl(link, from);
        if (!target || !inScope(target) || listedKeys.has(target.href)) continue;
        listedKeys.add(target.href);
        listed.push(target);
      }
    };
    const visit = async (url: URL): Promise<void> => {
      const known = mirror.pages.get(url.href);
      if (!allowedByRobots(url)) {
        log(`site ${start.href}: ${url.href} skipped: robots.txt disallows it`);
        outcome.failed++;
        if (known) {
          await mirror.remove(url.href);
          outcome.removed++;
        }
        return;
      }
      seen.add(url.href);
      const conditions: Record<string, string> = {};
      if (known?.etag) conditions['if-none-match'] = known.etag;
      if (known?.lastModified) conditions['if-modified-since'] = known.lastModified;
      let page;
      try {
        page = await get(url, inScope, conditions);
      } catch (error) {
        options.signal?.throwIfAborted();
        if (url === start) startFailed = true;
        outcome.failed++;
        log(`site ${start.href}: ${url.href} skipped: ${(error as Error).message}`);
        return;
      }
      if (page.status === 304 && known) {
        outcome.unchanged++;
        // The links of an unchanged page are those of the copy kept.
        if (followLinks) follow(pageLinks((await mirror.read(url.href)) ?? '').links, url);
        return;
      }
      if (page.status === 404 || page.status === 410) {
        outcome.failed++;
        log(`site ${start.href}: ${url.href} skipped: status ${page.status}`);
        if (known) {
          await mirror.remove(url.href);
          outcome.removed++;
        }
        return;
      }
      if (page.status !== 200) {
        if (url === start) startFailed = true;
        outcome.failed++;
        log(`site ${start.href}: ${url.href} skipped: status ${page.status}`);
        return;
      }
      const type = header(page.headers, 'content-type') ?? '';
      if (!HTML_TYPE.test(type)) {
        outcome.failed++;
        log(`site ${start.href}: ${url.href} skipped: not HTML (${type || 'no Content-Type'})`);
        return;
      }
      const decoder = decoderFor(type);
      // Only a crawl following links decodes whole pages; one from a sitemap reads their heads.
      const found = followLinks ? pageLinks(decoder.decode(page.bytes)) : { canonical: headCanonical(page.bytes, decoder), links: [] };
      const canonical = pageUrl(found.canonical, page.url);
      // A page may name its canonical address, but only one of this site: a hostile page cannot send readers elsewhere.
      const cite = canonical && inScope(canonical) ? canonical : page.url;
      const html = [Buffer.from(`<link rel="canonical" href="${escapeAttribute(cite.href)}">\n`), keptBytes(page.bytes, decoder)];
      const validators = { ...optional('etag', header(page.headers, 'etag')), ...optional('lastModified', header(page.headers, 'last-modified')) };
      try {
        await mirror.save(url.href, mirrorFile(page.url, scope), html, validators);
      } catch (error) {
        // A name the disk refuses (too long, a file where a folder should be): this page only.
        outcome.failed++;
        log(`site ${start.href}: ${url.href} skipped: cannot be kept (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
        return;
      }
      outcome.saved++;
      if (followLinks) follow(found.links, page.url);
      if (++sinceSaved >= progressEvery) {
        sinceSaved = 0;
        await mirror.persist();
        await options.onSaved?.();
      }
    };
    const worker = async (): Promise<void> => {
      // Link crawling finds pages as it goes: a worker that finds the queue empty waits while others may add to it.
      for (;;) {
        options.signal?.throwIfAborted();
        if (next >= listed.length) {
          if (!followLinks || active === 0) return;
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        const url = listed[next++]!;
        active++;
        try {
          await visit(url);
        } finally {
          active--;
        }
        handled++;
        if (Date.now() - lastProgress > 5000) progress();
      }
    };
    let active = 0;
    await Promise.all(Array.from({ length: concurrency }, worker));
    outcome.complete = !startFailed && !sitemapsFailed && (sitemapsRead > 0 || followLinks);
    if (outcome.complete) {
      for (const url of [...mirror.pages.keys()]) {
        if (seen.has(url)) continue;
        await mirror.remove(url);
        outcome.removed++;
      }
    }
    progress();
    return outcome;
  } finally {
    await mirror.persist();
    client.close();
  }
}

/**
 * A signal that aborts after `ms` (with a TimeoutError, as `AbortSignal.timeout`'s) or when
 * `stop` does, and `clear` to end both when the request is done: a timer left to run out would
 * keep the request's signals alive for the whole timeout, a crawl's thousand of them at once.
 */
function deadline(ms: number, stop: AbortSignal | undefined): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms).unref();
  const stopped = (): void => controller.abort(stop!.reason);
  if (stop?.aborted) stopped();
  else stop?.addEventListener('abort', stopped, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      stop?.removeEventListener('abort', stopped);
    },
  };
}

/** The path a crawl stays under: the start URL's folder (`/docs/` for `/docs/`, `/docs/intro.html` and `/docs`). */
export function scopeOf(start: URL): string {
  const path = start.pathname;
  if (path.endsWith('/')) return path;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last.includes('.') ? path.slice(0, path.lastIndexOf('/') + 1) : `${path}/`;
}

/** A link as a page of the crawl: absolute, without its fragment; query strings name other resources than pages, and are left out. */
function pageUrl(href: string | undefined, base: URL): URL | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href.trim(), base);
    url.hash = '';
    if (url.search) return undefined;
    return url;
  } catch {
    return undefined;
  }
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value ? ({ [key]: value } as Record<K, string>) : {};
}

/** A decoder for the charset a Content-Type names (UTF-8 when it names none, or one that is not known). */
function decoderFor(contentType: string | undefined): TextDecoder {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

/** A fetched file's body as text, in the charset its Content-Type names (robots.txt, a sitemap). */
function textOf(fetched: { headers: IncomingHttpHeaders; bytes: Buffer }): string {
  return decoderFor(header(fetched.headers, 'content-type')).decode(fetched.bytes);
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * A page's body as the mirror keeps it: UTF-8 text without NUL characters (what the folder
 * reader takes), without a leading byte order mark. A page served as valid UTF-8 (nearly all)
 * is kept as its own bytes: encoding the decoded text again would allocate another copy of
 * every page, garbage that grew the crawling process's heap.
 */
function keptBytes(bytes: Buffer, decoder: TextDecoder): Uint8Array {
  if (decoder.encoding === 'utf-8' && isUtf8(bytes) && !bytes.includes(0)) return bytes.subarray(0, 3).equals(BOM) ? bytes.subarray(3) : bytes;
  return Buffer.from(decoder.decode(bytes).replaceAll('\0', ''));
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function failureText(error: unknown, timeoutMs: number): string {
  const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  if (e?.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const cause = e?.cause ?? e;
  if (cause?.name === 'RefusedAddressError') return `refused: ${cause.message}`;
  return cause?.code ? `${cause.code} ${cause.message ?? ''}`.trim() : (e?.message ?? String(error));
}
