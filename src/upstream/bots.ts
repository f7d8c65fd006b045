import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { AnswerResponse } from '../protocol/types.js';
import { composeAnswer } from './compose-answer.js';
import { loadKnowledgeBase, type KnowledgeBase } from './knowledge-base.js';
import { sampleKnowledgeBaseDir } from './package-root.js';
import { PassageIndex } from './search.js';

/** A bot: a knowledge base and its search index. */
export interface Bot {
  id: string;
  knowledgeBase: KnowledgeBase;
  /** The bot's answer to a message: deterministic for a given knowledge base and message. */
  answer(message: string, inlineSources: boolean): AnswerResponse;
}

/** A bots config file that cannot be used; the message says what is wrong. */
export class BotsConfigError extends Error {
  override name = 'BotsConfigError';
}

/** The bot every local Answer API has. */
export const DEMO_BOT_ID = 'demo';

/**
 * Loads bot `demo` (from `kb`, default the sample knowledge base) and the bots of the config
 * file, if any. The file is JSON: `{"bots": [{"id": "hr", "kb": "./hr-docs"}]}`, folders
 * relative to the file.
 */
export async function loadBots(kb: string | undefined, botsFile: string | undefined): Promise<Map<string, Bot>> {
  const folders = new Map<string, string>([[DEMO_BOT_ID, resolve(kb ?? sampleKnowledgeBaseDir())]]);
  if (botsFile) {
    for (const [id, folder] of await readBotsFile(botsFile)) folders.set(id, folder);
  }
  const bots = new Map<string, Bot>();
  for (const [id, folder] of folders) bots.set(id, createBot(id, await loadKnowledgeBase(folder)));
  return bots;
}

/** A bot answering from an already loaded knowledge base. */
export function createBot(id: string, knowledgeBase: KnowledgeBase): Bot {
  const index = new PassageIndex(knowledgeBase.passages);
  return {
    id,
    knowledgeBase,
    answer: (message, inlineSources) =>
      composeAnswer(
        index.relevant(message).map((hit) => hit.passage),
        inlineSources,
      ),
  };
}

async function readBotsFile(file: string): Promise<Array<[string, string]>> {
  let config: unknown;
  try {
    config = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new BotsConfigError(`Cannot read the bots file ${file}: ${(error as Error).message}`);
  }
  const bots = (config as { bots?: unknown } | null)?.bots;
  if (!Array.isArray(bots)) throw new BotsConfigError(`${file}: expected {"bots": [{"id": "...", "kb": "folder"}]}`);
  const seen = new Set<string>();
  return bots.map((bot: unknown, i): [string, string] => {
    const { id, kb } = (bot ?? {}) as { id?: unknown; kb?: unknown };
    if (typeof id !== 'string' || !id.trim()) throw new BotsConfigError(`${file}: bots[${i}].id must be a non-empty string`);
    if (typeof kb !== 'string' || !kb.trim()) throw new BotsConfigError(`${file}: bots[${i}].kb must be a folder path`);
    if (id === DEMO_BOT_ID) throw new BotsConfigError(`${file}: bot "${DEMO_BOT_ID}" is built in; set its folder with ANSWER_KB instead`);
    if (seen.has(id)) throw new BotsConfigError(`${file}: bot "${id}" is defined twice`);
    seen.add(id);
    return [id, resolve(dirname(file), kb)];
  });
}
