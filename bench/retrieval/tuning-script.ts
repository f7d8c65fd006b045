/**
 * What the retrieval tuning scripts (`tune.ts`, the `why-*.ts` diagnostics,
 * `fit-confidence.ts`) share: their command line, and each tune set's index opened in turn.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { KbIndex } from '../../packages/bot-answer-engine/src/upstream/index/kb-index.js';
import type { Retriever, SearchHit } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import type { RetrievalSettings } from '../../packages/bot-answer-engine/src/upstream/retrieval/settings.js';
import { pageOf } from './evaluate.js';
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

/** A confident answer beside the page closest to it: what the wrong-page diagnostics compare. */
export interface ConfidentRival {
  first: SearchHit;
  /** The first page is an expected one. */
  right: boolean;
  /** For a right answer, the best passage of another page; for a wrong one, the right page's best; none when not a candidate. */
  rival?: SearchHit;
  /** ln of the first passage's score over the rival's, as the search scores them. */
  margin?: number;
}

/** The confident answer to `question` and its rival among the candidates (`want`: the expected pages), or undefined when not confident. */
export function confidentRival(retriever: Retriever, question: string, want: ReadonlySet<string>): ConfidentRival | undefined {
  const decision = retriever.decide(question);
  if (decision.outcome !== 'answered') return undefined;
  const first = decision.hits[0]!;
  const firstPage = pageOf(first.passage.url);
  const right = want.has(firstPage);
  const hits = retriever.search(question);
  const rival = right ? hits.find((h) => pageOf(h.passage.url) !== firstPage) : hits.find((h) => want.has(pageOf(h.passage.url)));
  if (!rival) return { first, right };
  const firstScore = hits.find((h) => h.passage.index === first.passage.index)?.score ?? first.score;
  return { first, right, rival, margin: Math.log(firstScore / rival.score) };
}
