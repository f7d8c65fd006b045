import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { crawlSite, type CrawlOptions } from './crawl-site.js';
import { SiteMirror } from './site-mirror.js';

/** A live site a bot answers from. */
export interface SiteSettings {
  /** The site's URL (ANSWER_KB_SITE): its origin and path are crawled. */
  url: string;
  /** Most pages kept (ANSWER_KB_SITE_MAX_PAGES). Default 1000. */
  maxPages?: number;
  /** Milliseconds between crawls that refresh it (ANSWER_KB_SITE_REFRESH); 0: only at start. Default one day. */
  refreshMs?: number;
  /** Crawl details other than the defaults (timeouts, size limit, resolver): tests and the benchmark set them. */
  crawl?: Partial<Pick<CrawlOptions, 'pageTimeoutMs' | 'maxPageBytes' | 'resolve' | 'progressEvery'>>;
}

export const DEFAULT_REFRESH_MS = 24 * 60 * 60 * 1000;

/** The folder a site's pages are kept in: beside the index files, named for the bot and the site. */
export function siteMirrorDir(indexFolder: string, botId: string, url: string): string {
  const safeId = botId.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40) || 'bot';
  return join(indexFolder, 'sites', `${safeId}-${createHash('sha256').update(url).digest('hex').slice(0, 12)}`);
}

/** Whether the mirror already holds pages (from an earlier crawl): then they are served at once. */
export async function mirrorHoldsPages(dir: string): Promise<boolean> {
  const entries = await readdir(dir).catch(() => []);
  return entries.some((name) => !name.startsWith('.'));
}

/**
 * The crawls of a site: one at start and one every `refreshMs`, one at a time, each bringing
 * the mirror up to date and asking for the index to be brought up to date with it (`reindex`)
 * as pages come in and when it ends. Answers never wait for a crawl.
 */
export class SiteCrawls {
  readonly #settings: SiteSettings;
  readonly #dir: string;
  readonly #reindex: () => Promise<void>;
  readonly #log: (line: string) => void;
  readonly #stop = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(settings: SiteSettings, dir: string, reindex: () => Promise<void>, log: (line: string) => void) {
    this.#settings = settings;
    this.#dir = dir;
    this.#reindex = reindex;
    this.#log = log;
  }

  /** Starts the first crawl now and schedules the others. */
  start(): void {
    void this.crawl();
    const every = this.#settings.refreshMs ?? DEFAULT_REFRESH_MS;
    if (every > 0) {
      this.#timer = setInterval(() => void this.crawl(), every);
      this.#timer.unref();
    }
  }

  /** Runs a crawl (or joins the one under way); never rejects: a crawl that fails is logged, and what is indexed stays. */
  crawl(): Promise<void> {
    this.#running ??= this.#run().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #run(): Promise<void> {
    const { url } = this.#settings;
    const started = Date.now();
    try {
      const mirror = await SiteMirror.open(this.#dir);
      const outcome = await crawlSite({
        ...this.#settings.crawl,
        start: url,
        mirror,
        ...(this.#settings.maxPages !== undefined ? { maxPages: this.#settings.maxPages } : {}),
        onSaved: this.#reindex,
        log: this.#log,
        signal: this.#stop.signal,
      });
      if (outcome.saved || outcome.removed) await this.#reindex();
      this.#log(
        `site ${url}: crawled in ${Date.now() - started} ms: ${outcome.saved} new or changed, ${outcome.unchanged} unchanged, ` +
          `${outcome.failed} failed, ${outcome.removed} removed${outcome.complete ? '' : ' (not the whole site: nothing else removed)'}`,
      );
    } catch (error) {
      if (this.#stop.signal.aborted) return;
      this.#log(`site ${url}: crawl failed, still serving what is indexed: ${(error as Error).message}`);
    }
  }

  /** Stops the crawl under way and the schedule. */
  close(): void {
    clearInterval(this.#timer);
    this.#stop.abort();
  }
}
