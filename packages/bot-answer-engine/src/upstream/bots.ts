import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { SearchResult } from '../../../bot-answer/src/protocol/search.js';
import type { AnswerResponse } from '../../../bot-answer/src/protocol/types.js';
import { composeAnswer, composeNotSure } from './compose/extractive.js';
import { checkUrlSettings } from './folder/document-url.js';
import { KnowledgeBaseError, resolveSettings, type KnowledgeBaseSettings, type Passage, type SkippedFile } from './folder/knowledge-base.js';
import { watchFolder, type FolderWatch } from './folder/watch-folder.js';
import { defaultIndexFolder } from './index/index-file.js';
import { KbIndex, type SyncOutcome } from './index/kb-index.js';
import { sampleKnowledgeBaseDir } from './package-root.js';
import { Retriever, type Decision } from './retrieval/retriever.js';
import type { RetrievalSettings } from './retrieval/settings.js';
import { mirrorHoldsPages, SiteCrawls, siteMirrorDir, type SiteSettings } from './site/site-source.js';
import { checkSiteUrl, parseDuration } from './site/site-settings.js';
import { searchSections } from './search/search.js';

/** What a bot found for a message: the outcome (see `Decision`) and its passages, best first. */
export interface Found {
  outcome: Decision['outcome'];
  passages: Passage[];
}

/** A bot: a documents folder (or a live site's pages, kept in a folder) and its on-disk index, brought up to date when the folder changes. */
export interface Bot {
  id: string;
  /** The documents folder (for a site, the folder its pages are kept in). */
  readonly dir: string;
  /** The index file. */
  readonly indexFile: string;
  /** How many documents it serves now. */
  readonly documents: number;
  /**
   * The passages that answer `message`, best first; empty when none is relevant enough (the
   * relevance gate). `context` is earlier text of the conversation (a follow-up's previous turns):
   * its words may help find the passages, but the message decides.
   */
  retrieve(message: string, context?: string): Passage[];
  /** Which of the three outcomes a message gets, with its passages: those that answer, or the closest pages when not sure. */
  find(message: string, context?: string): Found;
  /**
   * The passages a model writes from: the answering `passages` first, then the next best
   * candidates of other passages, up to the writer's budget (see `prompt.ts`).
   */
  forModel(message: string, context: string | undefined, passages: Passage[]): Passage[];
  /** The bot's answer to a message: deterministic for a given knowledge base, message and context. */
  answer(message: string, inlineSources: boolean, context?: string): AnswerResponse;
  /** Search as you type: the sections matching typed text (the last word as a beginning), best first, at most `limit` (see `searchSections`). */
  search(text: string, limit: number): SearchResult[];
  /**
   * The extractive answer quoting these passages (from `retrieve`), their links placed at the
   * docs site's URLs; with `outcome` `not_sure`, the "not sure" answer listing their pages.
   */
  compose(passages: Passage[], inlineSources: boolean, message: string, outcome?: Found['outcome']): AnswerResponse;
  /**
   * Brings the index up to date with the folder in the background (only new and changed files
   * are read), committing all changes at once; answers composed before that came from the
   * previous state. A folder that cannot be read or holds no readable document leaves the
   * index as it is. Calls while one runs are gathered into one more run after it.
   */
  reload(): Promise<void>;
  /** Stops watching the folder and closes the index file. */
  close(): void;
}

/** A bots config file that cannot be used; the message says what is wrong. */
export class BotsConfigError extends Error {
  override name = 'BotsConfigError';
}

/** The bot every local Answer API has. */
export const DEMO_BOT_ID = 'demo';

/** How bots are loaded. Every field is optional. */
export interface LoadBotsOptions {
  /** How the folder of bot `demo` is read (ANSWER_KB_BASE_URL, ...). */
  kbSettings?: KnowledgeBaseSettings;
  /** A live site bot `demo` answers from instead of a folder (ANSWER_KB_SITE, ...). */
  site?: SiteSettings;
  /** The folder index files go in (ANSWER_KB_INDEX). Default: see `defaultIndexFolder`. */
  indexFolder?: string;
  /** Watch the folders and re-index on changes. Default true. */
  watch?: boolean;
  /** Quiet time after a change before re-indexing, in ms. Default 300. */
  debounceMs?: number;
  /** Retrieval settings other than the defaults (the benchmark measures ideas with it). */
  retrieval?: Partial<RetrievalSettings>;
  log?: (line: string) => void;
}

/** Where a bot's documents come from: a folder, or a live site crawled into one. */
interface BotSource {
  dir: string;
  settings: KnowledgeBaseSettings;
  site?: SiteSettings;
}

/**
 * Loads bot `demo` (from `options.site`, else `kb`, default the sample knowledge base) and the
 * bots of the config file, if any. The file is JSON: `{"bots": [{"id": "hr", "kb": "./hr-docs"}]}`,
 * folders relative to the file; an entry may also set `base_url`, `url_extension`, `app_name` and
 * `anchors` for its folder, or name a live site instead of a folder: `{"id": "docs", "site":
 * "https://docs.example.com/", "max_pages": 2000, "refresh": "6h"}`. Each bot's index is opened (or built) in the index folder and
 * brought up to date with its folder. Files that cannot be read are logged and skipped; a
 * document with no URL (none in its front-matter, no base URL) is an error naming it and the setting.
 */
export async function loadBots(kb: string | undefined, botsFile: string | undefined, options: LoadBotsOptions = {}): Promise<Map<string, Bot>> {
  const indexFolder = resolve(options.indexFolder ?? defaultIndexFolder());
  const folders = new Map<string, BotSource>([
    [
      DEMO_BOT_ID,
      options.site
        ? { dir: siteMirrorDir(indexFolder, DEMO_BOT_ID, options.site.url), settings: options.kbSettings ?? {}, site: options.site }
        : { dir: resolve(kb ?? sampleKnowledgeBaseDir()), settings: options.kbSettings ?? {} },
    ],
  ]);
  if (botsFile) {
    for (const [id, folder] of await readBotsFile(botsFile, indexFolder)) folders.set(id, folder);
  }
  const bots = new Map<string, Bot>();
  try {
    for (const [id, source] of folders) bots.set(id, await (source.site ? startSiteBot(id, source.dir, source.settings, source.site, indexFolder, options) : startBot(id, source.dir, source.settings, options)));
  } catch (error) {
    for (const bot of bots.values()) bot.close();
    throw error;
  }
  return bots;
}

async function startBot(id: string, dir: string, settings: KnowledgeBaseSettings, options: LoadBotsOptions): Promise<Bot> {
  const log = options.log ?? ((): void => {});
  const started = Date.now();
  const index = await KbIndex.open({
    dir,
    settings: resolveSettings(dir, settings),
    folder: resolve(options.indexFolder ?? defaultIndexFolder()),
    botId: id,
    log: (line) => log(`bot "${id}": ${line}`),
  });
  let outcome: SyncOutcome;
  let skipped: SkippedFile[];
  try {
    outcome = await index.sync();
    // Files skipped before and left as they were, and those read now (kept out of the index when none was readable).
    skipped = [...new Map([...index.skipped(), ...outcome.skipped].map((file) => [file.path, file])).values()].sort((a, b) => (a.path < b.path ? -1 : 1));
    const noUrl = skipped.filter((file) => file.noUrl);
    if (noUrl.length) {
      const more = noUrl.length > 1 ? ` (and ${noUrl.length - 1} more file${noUrl.length > 2 ? 's' : ''} in ${dir})` : '';
      throw new KnowledgeBaseError(`${noUrl[0]!.path}: ${noUrl[0]!.reason}${more}`);
    }
  } catch (error) {
    index.close();
    throw error;
  }
  for (const file of skipped) log(`bot "${id}": skipped ${file.path} in ${dir}: ${file.reason}`);
  const how = outcome.read === 0 && outcome.removed === 0 ? 'reused' : outcome.unchanged === 0 && outcome.removed === 0 ? 'built' : 'updated';
  log(
    `bot "${id}": index ${index.file} ${how}: ${outcome.read} file${outcome.read === 1 ? '' : 's'} read, ${outcome.removed} removed, ` +
      `${outcome.unchanged} unchanged; ${index.documents} documents, ${index.passages} passages, in ${Date.now() - started} ms`,
  );
  const bot = createBot(id, index, options.retrieval, log);
  if (options.watch ?? true) bot.watch(options.debounceMs ?? 300);
  return bot;
}

/**
 * A bot answering from a live site: its pages kept in `dir` are served at once (those of the
 * last crawl), while a crawl brings them up to date in the background and then on schedule.
 */
async function startSiteBot(id: string, dir: string, settings: KnowledgeBaseSettings, site: SiteSettings, indexFolder: string, options: LoadBotsOptions): Promise<Bot> {
  const log = options.log ?? ((): void => {});
  const started = Date.now();
  const index = await KbIndex.open({
    dir,
    settings: { ...settings, appName: settings.appName ?? new URL(site.url).hostname },
    folder: indexFolder,
    botId: id,
    log: (line) => log(`bot "${id}": ${line}`),
    // A crawl syncs every few pages: each in a process of its own, as a folder's build, so the serving process keeps none of their garbage.
    syncElsewhere: 'all',
  });
  if (await mirrorHoldsPages(dir)) {
    try {
      const outcome = await index.sync();
      log(`bot "${id}": index ${index.file} of ${site.url}: ${outcome.read} pages read, ${outcome.unchanged} unchanged; ${index.documents} documents, ${index.passages} passages, in ${Date.now() - started} ms`);
    } catch (error) {
      if (!(error instanceof KnowledgeBaseError)) {
        index.close();
        throw error;
      }
      log(`bot "${id}": the pages kept of ${site.url} cannot be indexed (${error.message}); crawling anew`);
    }
  } else {
    log(`bot "${id}": nothing kept of ${site.url} yet: answers come as its pages are crawled`);
  }
  const bot = createBot(id, index, options.retrieval, log);
  const crawls = new SiteCrawls(site, dir, bot.reload, (line) => log(`bot "${id}": ${line}`));
  crawls.start();
  return {
    ...bot,
    get documents() {
      return bot.documents;
    },
    close: () => {
      crawls.close();
      bot.close();
    },
  };
}

/**
 * A bot answering from an opened index (see `KbIndex`). It brings the index up to date with
 * its folder on `reload()` and, once `watch` is called, on changes.
 */
export function createBot(
  id: string,
  index: KbIndex,
  retrieval: Partial<RetrievalSettings> = {},
  log: (line: string) => void = () => {},
): Bot & { watch(debounceMs: number): void } {
  const retriever = new Retriever(index, retrieval);
  let running: Promise<void> | undefined;
  let again = false;
  let folderWatch: FolderWatch | undefined;
  let closed = false;

  const reindex = async (): Promise<void> => {
    const started = Date.now();
    const before = index.documents;
    let outcome: SyncOutcome;
    try {
      outcome = await index.sync();
    } catch (error) {
      if (closed) return;
      log(`bot "${id}": re-index failed, still serving the previous ${before} documents: ${(error as Error).message}`);
      return;
    }
    if (closed) return;
    for (const file of outcome.skipped) log(`bot "${id}": skipped ${file.path} in ${index.dir}: ${file.reason}`);
    if (outcome.keptPrevious) {
      log(`bot "${id}": no readable document left in ${index.dir}; still serving the previous ${before}`);
      return;
    }
    if (outcome.read === 0 && outcome.removed === 0) return;
    log(
      `bot "${id}": re-indexed ${outcome.documents} documents (${outcome.passages} passages) from ${index.dir} in ${Date.now() - started} ms: ` +
        `${outcome.read} file${outcome.read === 1 ? '' : 's'} read, ${outcome.removed} removed, ${outcome.unchanged} unchanged`,
    );
  };

  const reload = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await reindex();
      } while (again && !closed);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const find = (message: string, context?: string): Found => {
    const { outcome, hits } = retriever.decide(message, context);
    return { outcome, passages: hits.map((hit) => hit.passage) };
  };
  const retrieve = (message: string, context?: string): Passage[] => {
    const found = find(message, context);
    return found.outcome === 'answered' ? found.passages : [];
  };
  const compose = (passages: Passage[], inlineSources: boolean, message: string, outcome: Found['outcome'] = 'answered'): AnswerResponse =>
    outcome === 'answered' ? composeAnswer(passages, inlineSources, message, index.settings) : composeNotSure(passages, index.settings);
  return {
    id,
    dir: index.dir,
    indexFile: index.file,
    get documents() {
      return index.documents;
    },
    retrieve,
    find,
    forModel: (message, context, passages) => retriever.forModel(message, context, passages),
    answer: (message, inlineSources, context) => {
      const { outcome, passages } = find(message, context);
      return compose(passages, inlineSources, message, outcome);
    },
    compose,
    search: (text, limit) => searchSections(index, text, limit, retrieval.misspeltWords),
    reload,
    watch: (debounceMs) => {
      folderWatch?.close();
      folderWatch = watchFolder(index.dir, () => void reload(), {
        debounceMs,
        onError: (error) => log(`bot "${id}": stopped watching ${index.dir} (${error.message}); restart to pick up changes`),
      });
    },
    close: () => {
      if (closed) return;
      closed = true;
      folderWatch?.close();
      // A sync under way is stopped with it, and never commits.
      index.close();
    },
  };
}

async function readBotsFile(file: string, indexFolder: string): Promise<Array<[string, BotSource]>> {
  let config: unknown;
  try {
    config = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new BotsConfigError(`Cannot read the bots file ${file}: ${(error as Error).message}`);
  }
  const bots = (config as { bots?: unknown } | null)?.bots;
  if (!Array.isArray(bots)) throw new BotsConfigError(`${file}: expected {"bots": [{"id": "...", "kb": "folder"}]}`);
  const seen = new Set<string>();
  return bots.map((bot: unknown, i): [string, BotSource] => {
    const { id, kb, site, max_pages, refresh, base_url, url_extension, app_name, anchors } = (bot ?? {}) as Record<string, unknown>;
    if (typeof id !== 'string' || !id.trim()) throw new BotsConfigError(`${file}: bots[${i}].id must be a non-empty string`);
    if (site !== undefined && kb !== undefined) throw new BotsConfigError(`${file}: bots[${i}] sets both kb and site; a bot answers from one`);
    if (site === undefined && (typeof kb !== 'string' || !kb.trim())) throw new BotsConfigError(`${file}: bots[${i}].kb must be a folder path (or set site to a URL)`);
    if (id === DEMO_BOT_ID) throw new BotsConfigError(`${file}: bot "${DEMO_BOT_ID}" is built in; set its folder with ANSWER_KB instead`);
    if (seen.has(id)) throw new BotsConfigError(`${file}: bot "${id}" is defined twice`);
    seen.add(id);
    const text = (name: string, value: unknown): string | undefined => {
      if (value === undefined) return undefined;
      if (typeof value !== 'string') throw new BotsConfigError(`${file}: bots[${i}].${name} must be a string`);
      return value;
    };
    if (anchors !== undefined && anchors !== true && anchors !== false && anchors !== 'auto') {
      throw new BotsConfigError(`${file}: bots[${i}].anchors must be true, false or "auto"`);
    }
    const settings: KnowledgeBaseSettings = {
      baseUrl: text('base_url', base_url),
      urlExtension: text('url_extension', url_extension),
      appName: text('app_name', app_name),
      anchors: anchors as KnowledgeBaseSettings['anchors'],
      baseUrlSetting: `"base_url" of bot "${id}" in ${file}`,
    };
    const problem = checkUrlSettings(settings, { baseUrl: `bots[${i}].base_url`, urlExtension: `bots[${i}].url_extension` });
    if (problem) throw new BotsConfigError(`${file}: ${problem}`);
    if (site !== undefined) {
      const siteProblem = checkSiteUrl(site, `bots[${i}].site`);
      if (siteProblem) throw new BotsConfigError(`${file}: ${siteProblem}`);
      if (max_pages !== undefined && !(Number.isInteger(max_pages) && (max_pages as number) > 0)) throw new BotsConfigError(`${file}: bots[${i}].max_pages must be a whole number above 0`);
      let refreshMs: number | undefined;
      if (refresh !== undefined) {
        refreshMs = typeof refresh === 'string' ? parseDuration(refresh) : undefined;
        if (refreshMs === undefined) throw new BotsConfigError(`${file}: bots[${i}].refresh must be a duration such as "6h", "30m", "1d" or "off"`);
      }
      const url = site as string;
      const siteSettings: SiteSettings = { url, ...(max_pages !== undefined ? { maxPages: max_pages as number } : {}), ...(refreshMs !== undefined ? { refreshMs } : {}) };
      return [id, { dir: siteMirrorDir(indexFolder, id, url), settings, site: siteSettings }];
    }
    return [id, { dir: resolve(dirname(file), kb as string), settings }];
  });
}

