import type { AnswerResponse } from '../../packages/bot-answer/src/protocol/types.js';
import { loadBots, type Bot } from '../../packages/bot-answer-engine/src/upstream/bots.js';
import type { RetrievalSettings } from '../../packages/bot-answer-engine/src/upstream/retrieval/settings.js';
import { composeAnswer as baselineCompose } from '../baseline/compose/extractive.js';
import { loadKnowledgeBase as baselineLoad } from '../baseline/folder/knowledge-base.js';
import { PassageIndex as BaselineIndex } from '../baseline/retrieval/search.js';
import { cpuMsWithChildren } from '../lib/cpu.js';
import type { QuestionSet } from './sets.js';

/** The two engines compared: today's (the on-disk index and the current composer) and the one before issue 20, kept in bench/baseline/. */
export type EngineName = 'current' | 'baseline';

/** An engine serving one set's folder, in-process. */
export interface Engine {
  /** Start-up: read, index (cold: from nothing) and get ready to answer; wall and CPU milliseconds. */
  ready: { wallMs: number; cpuMs: number };
  answer(question: string, context?: string): AnswerResponse;
  /** Closes it and opens it again over the same index (warm start); baseline: undefined (it keeps no index). */
  restart?(): Promise<{ wallMs: number; cpuMs: number }>;
  close(): void;
}

const silent = (): void => {};

/** Starts an engine over a set's folder. `indexFolder` (current engine): where its index file goes; an empty folder measures a cold build. */
export async function startEngine(name: EngineName, set: QuestionSet, indexFolder: string, retrieval: Partial<RetrievalSettings> = {}): Promise<Engine> {
  const started = performance.now();
  // A large folder's index is built in a process of its own: its CPU time counts.
  const cpu = cpuMsWithChildren();
  const elapsed = (from: number, fromCpu: number): { wallMs: number; cpuMs: number } => ({ wallMs: performance.now() - from, cpuMs: cpuMsWithChildren() - fromCpu });
  if (name === 'baseline') {
    const kb = await baselineLoad(set.dir, set.settings);
    const index = await BaselineIndex.build(kb.passages);
    return {
      ready: elapsed(started, cpu),
      answer: (question, context) => baselineCompose(index.relevant(question, context).map((hit) => hit.passage), false, question),
      close: silent,
    };
  }
  const open = async (): Promise<Bot> => (await loadBots(set.dir, undefined, { kbSettings: set.settings, indexFolder, watch: false, retrieval, log: silent })).get('demo')!;
  let bot = await open();
  return {
    ready: elapsed(started, cpu),
    answer: (question, context) => bot.answer(question, false, context),
    restart: async () => {
      bot.close();
      const t = performance.now();
      const c = cpuMsWithChildren();
      bot = await open();
      return elapsed(t, c);
    },
    close: () => bot.close(),
  };
}
