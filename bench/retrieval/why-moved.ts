/**
 * Which tune-half answers a setting moves: each question (answerable or unanswerable) whose
 * outcome or first page differs between the engine's settings (`--settings=`) and the same with
 * `--with='{...}'` over them, each with its outcome before and after (right, wrong page,
 * unanswerable confident, not sure, refused) and its first page, so a rule can be read answer by
 * answer before it is decided on. Tune halves only (split by place for the all-`eval` sets, as
 * `tune.ts --by-place`); it never reads the sealed sets.
 *
 *   node --import tsx bench/retrieval/why-moved.ts --with='{"tellingEnough":0.5}' [--sets=vet,waste] [--settings='{...}']
 */
import { Retriever, type Decision } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { expectedPages, offTopicSplit, pageOf, placeSplit } from './evaluate.js';
import { eachSetIndex, scriptArgs } from './tuning-script.js';

const args = scriptArgs();
const over = JSON.parse(args.get('with') ?? '{}') as Record<string, unknown>;
const moves = new Map<string, number>();

/** An outcome in one word: `right`, `wrong`, `unanswerable` (answered), `not_sure` or `refused`. */
function kind(decision: Decision, want: Set<string> | undefined): string {
  if (decision.outcome !== 'answered') return decision.outcome;
  if (!want) return 'unanswerable';
  return want.has(pageOf(decision.hits[0]!.passage.url)) ? 'right' : 'wrong';
}

await eachSetIndex('why-moved', args.only, (set, index, kbSettings) => {
  const before = new Retriever(index, args.settings);
  const after = new Retriever(index, { ...args.settings, ...over });
  const splitOf = placeSplit(set);
  const compare = (question: string, want: Set<string> | undefined): void => {
    const a = before.decide(question);
    const b = after.decide(question);
    const [was, now] = [kind(a, want), kind(b, want)];
    const [firstA, firstB] = [a.hits[0], b.hits[0]].map((hit) => (hit ? pageOf(hit.passage.url).replace(/^https?:\/\/[^/]+/, '') : '-'));
    if (was === now && firstA === firstB) return;
    moves.set(`${was} -> ${now}`, (moves.get(`${was} -> ${now}`) ?? 0) + 1);
    console.log(`${set.id}: ${was} -> ${now} (${a.judged?.confidence.toFixed(2) ?? '-'}): ${question}\n    ${firstA} -> ${firstB}`);
  };
  set.questions.forEach((q, place) => {
    if (splitOf(q, place) === 'tune') compare(q.question, expectedPages(q, kbSettings));
  });
  set.offTopic.forEach((question, place) => {
    if (offTopicSplit(place) === 'tune') compare(question, undefined);
  });
});
for (const [move, n] of [...moves].sort((a, b) => b[1] - a[1])) console.log(`${move.padEnd(30)} ${n}`);
