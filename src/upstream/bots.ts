import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { AnswerResponse } from '../protocol/types.js';
import { composeAnswer } from './compose/extractive.js';
import { checkUrlSettings } from './folder/document-url.js';
import { KnowledgeBaseError, loadKnowledgeBase, type KnowledgeBase, type KnowledgeBaseSettings, type Passage } from './folder/knowledge-base.js';
import { sampleKnowledgeBaseDir } from './package-root.js';
import { PassageIndex } from './retrieval/search.js';
import { watchFolder, type FolderWatch } from './folder/watch-folder.js';

/** A bot: a knowledge base and its search index, re-read when its folder changes. */
export interface Bot {
  id: string;
  /** The knowledge base answers come from now. */
  readonly knowledgeBase: KnowledgeBase;
  /**
   * The passages that answer `message`, best first; empty when none is relevant enough (the
   * relevance gate). `context` is earlier text of the conversation (a follow-up's previous turns):
   * its words may help find the passages, but the message decides.
   */
  retrieve(message: string, context?: string): Passage[];
  /** The bot's answer to a message: deterministic for a given knowledge base, message and context. */
  answer(message: string, inlineSources: boolean, context?: string): AnswerResponse;
  /**
   * Re-reads the folder and builds a new index in the background, then swaps both in at once;
   * answers composed before the swap came from the old ones. A folder that cannot be read or
   * holds no documents leaves the current index in place. Calls while one runs are gathered
   * into one more run after it.
   */
  reload(): Promise<void>;
  /** Stops watching the folder. */
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
  /** Watch the folders and re-index on changes. Default true. */
  watch?: boolean;
  /** Quiet time after a change before re-indexing, in ms. Default 300. */
  debounceMs?: number;
  log?: (line: string) => void;
}

/**
 * Loads bot `demo` (from `kb`, default the sample knowledge base) and the bots of the config
 * file, if any. The file is JSON: `{"bots": [{"id": "hr", "kb": "./hr-docs"}]}`, folders
 * relative to the file; an entry may also set `base_url`, `url_extension`, `app_name` and
 * `anchors` for its folder. Files that cannot be read are logged and skipped; a document with
 * no URL (none in its front-matter, no base URL) is an error naming it and the setting.
 */
export async function loadBots(kb: string | undefined, botsFile: string | undefined, options: LoadBotsOptions = {}): Promise<Map<string, Bot>> {
  const folders = new Map<string, { dir: string; settings: KnowledgeBaseSettings }>([
    [DEMO_BOT_ID, { dir: resolve(kb ?? sampleKnowledgeBaseDir()), settings: options.kbSettings ?? {} }],
  ]);
  if (botsFile) {
    for (const [id, folder] of await readBotsFile(botsFile)) folders.set(id, folder);
  }
  const bots = new Map<string, Bot>();
  try {
    for (const [id, { dir, settings }] of folders) bots.set(id, await startBot(id, dir, settings, options));
  } catch (error) {
    for (const bot of bots.values()) bot.close();
    throw error;
  }
  return bots;
}

async function startBot(id: string, dir: string, settings: KnowledgeBaseSettings, options: LoadBotsOptions): Promise<Bot> {
  const log = options.log ?? ((): void => {});
  const knowledgeBase = await loadKnowledgeBase(dir, settings);
  const noUrl = knowledgeBase.skipped.filter((file) => file.noUrl);
  if (noUrl.length) {
    const more = noUrl.length > 1 ? ` (and ${noUrl.length - 1} more file${noUrl.length > 2 ? 's' : ''} in ${dir})` : '';
    throw new KnowledgeBaseError(`${noUrl[0]!.path}: ${noUrl[0]!.reason}${more}`);
  }
  logSkipped(id, knowledgeBase, log);
  const bot = createBot(id, knowledgeBase, await PassageIndex.build(knowledgeBase.passages), settings, log);
  if (options.watch ?? true) bot.watch(options.debounceMs ?? 300);
  return bot;
}

function logSkipped(id: string, kb: KnowledgeBase, log: (line: string) => void): void {
  for (const file of kb.skipped) log(`bot "${id}": skipped ${file.path} in ${kb.dir}: ${file.reason}`);
}

/**
 * A bot answering from an already loaded knowledge base (and its index, built here when not
 * given). It re-reads its folder with `settings` on `reload()` and, once `watch` is called, on changes.
 */
export function createBot(
  id: string,
  knowledgeBase: KnowledgeBase,
  index: PassageIndex = new PassageIndex(knowledgeBase.passages),
  settings: KnowledgeBaseSettings = {},
  log: (line: string) => void = () => {},
): Bot & { watch(debounceMs: number): void } {
  // One object, so a swap replaces the knowledge base and its index together.
  let current = { knowledgeBase, index };
  let running: Promise<void> | undefined;
  let again = false;
  let folderWatch: FolderWatch | undefined;
  let closed = false;

  const reindex = async (): Promise<void> => {
    const started = Date.now();
    const dir = current.knowledgeBase.dir;
    let next: KnowledgeBase;
    try {
      next = await loadKnowledgeBase(dir, settings);
    } catch (error) {
      log(`bot "${id}": re-index failed, still serving the previous ${current.knowledgeBase.documents.length} documents: ${(error as Error).message}`);
      return;
    }
    if (next.documents.length === 0) {
      log(`bot "${id}": no readable document left in ${dir}; still serving the previous ${current.knowledgeBase.documents.length}`);
      logSkipped(id, next, log);
      return;
    }
    const nextIndex = await PassageIndex.build(next.passages);
    if (closed) return;
    current = { knowledgeBase: next, index: nextIndex };
    logSkipped(id, next, log);
    log(`bot "${id}": re-indexed ${next.documents.length} documents (${next.passages.length} passages) from ${dir} in ${Date.now() - started} ms`);
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

  return {
    id,
    get knowledgeBase() {
      return current.knowledgeBase;
    },
    retrieve: (message, context) => current.index.relevant(message, context).map((hit) => hit.passage),
    answer(message, inlineSources, context) {
      return composeAnswer(this.retrieve(message, context), inlineSources, message);
    },
    reload,
    watch: (debounceMs) => {
      folderWatch?.close();
      folderWatch = watchFolder(current.knowledgeBase.dir, () => void reload(), {
        debounceMs,
        onError: (error) => log(`bot "${id}": stopped watching ${current.knowledgeBase.dir} (${error.message}); restart to pick up changes`),
      });
    },
    close: () => {
      closed = true;
      folderWatch?.close();
    },
  };
}

async function readBotsFile(file: string): Promise<Array<[string, { dir: string; settings: KnowledgeBaseSettings }]>> {
  let config: unknown;
  try {
    config = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new BotsConfigError(`Cannot read the bots file ${file}: ${(error as Error).message}`);
  }
  const bots = (config as { bots?: unknown } | null)?.bots;
  if (!Array.isArray(bots)) throw new BotsConfigError(`${file}: expected {"bots": [{"id": "...", "kb": "folder"}]}`);
  const seen = new Set<string>();
  return bots.map((bot: unknown, i): [string, { dir: string; settings: KnowledgeBaseSettings }] => {
    const { id, kb, base_url, url_extension, app_name, anchors } = (bot ?? {}) as Record<string, unknown>;
    if (typeof id !== 'string' || !id.trim()) throw new BotsConfigError(`${file}: bots[${i}].id must be a non-empty string`);
    if (typeof kb !== 'string' || !kb.trim()) throw new BotsConfigError(`${file}: bots[${i}].kb must be a folder path`);
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
    return [id, { dir: resolve(dirname(file), kb), settings }];
  });
}
