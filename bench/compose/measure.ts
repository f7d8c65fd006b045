/**
 * Answer quality before and after focused answers, on the composer's tuning set
 * (bench/compose/tuning-questions.json): for each question, the passages today's retrieval
 * chooses are composed by the baseline composer and by the current one, in-process. Prints, per
 * set: answers, median length, answers holding a key term, noisy answers (and which noise).
 * `--show` prints every answer of the current composer.
 *
 *   node --import tsx bench/compose/measure.ts [--show] [--set=fastify]
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadBots } from '../../packages/bot-answer-engine/src/upstream/bots.js';
import { composeAnswer } from '../../packages/bot-answer-engine/src/upstream/compose/extractive.js';
import type { AnswerResponse } from '../../packages/bot-answer/src/protocol/types.js';
import { composeAnswer as composeBaselineAnswer } from '../baseline/compose/extractive.js';
import { median } from '../lib/stats.js';
import { noiseIn } from '../retrieval/noise.js';

type NoiseKind = string;

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface TuningSet {
  id: string;
  dir: string;
  baseUrl: string;
  urlExtension: string;
  questions: Array<{ question: string; keyTerms: string[] }>;
}

/** Quality figures of a list of answers. */
export interface AnswerQuality {
  answers: number;
  answered: number;
  medianLength: number;
  keyTerm: number;
  noisy: number;
  noise: Partial<Record<NoiseKind, number>>;
}

/** Median length, key-term share and noise of answers to questions with key terms. */
export function answerQuality(answers: AnswerResponse[], keyTerms: string[][]): AnswerQuality {
  const found = answers.filter((a) => a.answer_found);
  const noise: Partial<Record<NoiseKind, number>> = {};
  let noisy = 0;
  for (const a of found) {
    const kinds = noiseIn(a.answer);
    if (kinds.length) noisy++;
    for (const kind of kinds) noise[kind] = (noise[kind] ?? 0) + 1;
  }
  return {
    answers: answers.length,
    answered: found.length,
    medianLength: median(found.map((a) => a.answer.length)),
    keyTerm: answers.filter((a, i) => a.answer_found && keyTerms[i]!.some((term) => a.answer.toLowerCase().includes(term.toLowerCase()))).length,
    noisy,
    noise,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const show = args.includes('--show');
  const only = args.find((a) => a.startsWith('--set='))?.slice(6);
  const { sets } = JSON.parse(readFileSync(join(root, 'bench/compose/tuning-questions.json'), 'utf8')) as { sets: TuningSet[] };
  for (const set of sets.filter((s) => !only || s.id === only)) {
    const indexFolder = mkdtempSync(join(tmpdir(), 'bot-answer-measure-'));
    const kbSettings = { baseUrl: set.baseUrl, urlExtension: set.urlExtension };
    const bot = (await loadBots(join(root, set.dir), undefined, { kbSettings, indexFolder, watch: false, log: () => {} })).get('demo')!;
    const before: AnswerResponse[] = [];
    const after: AnswerResponse[] = [];
    for (const { question } of set.questions) {
      const passages = bot.retrieve(question);
      // The baseline composer reads the same passages; its Passage type only also requires the body.
      before.push(composeBaselineAnswer(passages as Parameters<typeof composeBaselineAnswer>[0], true, question));
      after.push(composeAnswer(passages, true, question));
    }
    bot.close();
    rmSync(indexFolder, { recursive: true, force: true });
    const keyTerms = set.questions.map((q) => q.keyTerms);
    const rows = [['before', answerQuality(before, keyTerms)], ['after', answerQuality(after, keyTerms)]] as const;
    console.log(`\n${set.id} (${set.questions.length} questions)`);
    for (const [label, q] of rows) {
      console.log(
        `  ${label.padEnd(6)} answered ${q.answered}/${q.answers}  median ${q.medianLength} chars  key term ${q.keyTerm}/${q.answers}  noisy ${q.noisy} ${JSON.stringify(q.noise)}`,
      );
    }
    if (show) {
      set.questions.forEach(({ question, keyTerms: terms }, i) => {
        const a = after[i]!;
        const hit = terms.some((t) => a.answer.toLowerCase().includes(t.toLowerCase()));
        console.log(`\n=== ${hit ? 'KEY' : 'MISS'} ${question} [${terms.join(', ')}] (${a.answer.length} chars, before ${before[i]!.answer.length})\n${a.answer}`);
      });
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
