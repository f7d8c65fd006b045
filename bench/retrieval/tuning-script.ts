/**
 * What the retrieval tuning scripts (`tune.ts`, the `why-*.ts` diagnostics,
 * `fit-confidence.ts`) share: their command line, and each tune set's index opened in turn.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { KbIndex } from '../../packages/bot-answer-engine/src/upstream/index/kb-index.js';
import type { RetrievalSettings } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { fetchHeldOut, heldOutSets } from './held-out.js';
import { questionSets, type QuestionSet } from './sets.js';

/** A tuning script's arguments: `--key=value` and bare `--flag`s. */
export interface ScriptArgs {
  /** `--key=value`'s value, or `'true'` for a bare `--key`. */
  get(key: string): string | undefined;
  has(key: string): boolean;
  /** `--sets=a,b`: the sets to run, or all. */
  only: string[] | undefined;
  /** `--settings='{...}'`: retrieval settings over the defaults. */
  settings: Partial<RetrievalSettings>;
}

/** Reads a tuning script's command line (`--sets=`, `--settings=` and its own flags). */
export function scriptArgs(argv: string[] = process.argv.slice(2)): ScriptArgs {
  const args = new Map(
    argv.map((arg) => {
      const [key, ...value] = arg.replace(/^--/, '').split('=');
      return [key!, value.join('=') || 'true'] as const;
    }),
  );
  return {
    get: (key) => args.get(key),
    has: (key) => args.has(key),
    only: args.get('sets')?.split(','),
    settings: JSON.parse(args.get('settings') ?? '{}') as Partial<RetrievalSettings>,
  };
}

/**
 * Opens the index of each tune set (the built-in and the held-out ones; never the sealed ones),
 * one at a time in a temporary folder named for `name`, synced, and hands it to `visit` with the
 * set's resolved settings; `only` keeps those sets. The folder is removed at the end.
 */
export async function eachSetIndex(
  name: string,
  only: string[] | undefined,
  visit: (set: QuestionSet, index: KbIndex, kbSettings: ReturnType<typeof resolveSettings>) => void | Promise<void>,
): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), `${name}-`));
  try {
    await fetchHeldOut();
    for (const set of [...questionSets(), ...heldOutSets()]) {
      if (only && !only.includes(set.id)) continue;
      const kbSettings = resolveSettings(set.dir, set.settings);
      const index = await KbIndex.open({ dir: set.dir, settings: kbSettings, folder: join(folder, set.id), botId: 'demo' });
      try {
        await index.sync();
        await visit(set, index, kbSettings);
      } finally {
        index.close();
      }
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
