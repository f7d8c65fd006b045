/**
 * Would a bar of its own per docs folder do better than one bar for all? The confidence model's
 * least confidence (`minConfidence`) swept set by set, tune and eval halves apart (by place, as
 * `tune.ts --by-place`), to read what a folder's own bar could gain against the engine's one.
 *
 *   node --import tsx bench/retrieval/why-bar.ts [--sets=vet,waste] [--json]
 *
 * Printed, for each half: the right, wrong-page and unanswerable confident answers at each bar
 * over all sets; then each set's best bar chosen on its own figures (the most right answers with
 * wrong pages within the goal's 10% or the engine's count, whichever is more, and unanswerable
 * questions within 1 in 8 or the engine's count): on the tune half, what the best per-folder
 * bar could reach; chosen on the tune half and applied to the eval half, what it would reach on
 * questions it was not chosen on. `--json` prints every set's counts instead. Never the sealed
 * sets (`eachSetIndex`).
 */
import { Retriever } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { DEFAULT_RETRIEVAL } from '../../packages/bot-answer-engine/src/upstream/retrieval/settings.js';
import { expectedPages, offTopicSplit, pageOf, placeSplit } from './evaluate.js';
import { eachSetIndex, scriptArgs } from './tuning-script.js';

const args = scriptArgs();
const BARS = [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8];
const ENGINE = BARS.indexOf(DEFAULT_RETRIEVAL.minConfidence);
/** One half of a set: its answerable and off-topic questions, and per bar its right, wrong-page and unanswerable confident answers. */
interface Tally {
  n: number;
  off: number;
  right: number[];
  wrong: number[];
  unanswerable: number[];
}
const blank = (): Tally => ({ n: 0, off: 0, right: BARS.map(() => 0), wrong: BARS.map(() => 0), unanswerable: BARS.map(() => 0) });
const sets = new Map<string, { tune: Tally; eval: Tally }>();

await eachSetIndex('why-bar', args.only, (set, index, kbSettings) => {
  const halves = { tune: blank(), eval: blank() };
  sets.set(set.id, halves);
  const retrievers = BARS.map((minConfidence) => new Retriever(index, { ...args.settings, minConfidence }));
  const splitOf = placeSplit(set);
  set.questions.forEach((q, place) => {
    const tally = halves[splitOf(q, place)];
    tally.n++;
    const want = expectedPages(q, kbSettings);
    retrievers.forEach((retriever, i) => {
      const decision = retriever.decide(q.question);
      if (decision.outcome !== 'answered') return;
      if (want.has(pageOf(decision.hits[0]?.passage.url ?? ''))) tally.right[i]!++;
      else tally.wrong[i]!++;
    });
  });
  set.offTopic.forEach((question, place) => {
    const tally = halves[offTopicSplit(place)];
    tally.off++;
    retrievers.forEach((retriever, i) => {
      if (retriever.decide(question).outcome === 'answered') tally.unanswerable[i]!++;
    });
  });
});

/** The bar giving a half the most right answers within the trust limits (the engine's bar on a tie). */
function bestBar(t: Tally): number {
  const wrongLimit = Math.max(Math.floor(0.1 * t.n), t.wrong[ENGINE]!);
  const unanswerableLimit = Math.max(Math.floor(t.off / 8), t.unanswerable[ENGINE]!);
  let best = ENGINE;
  BARS.forEach((_, i) => {
    if (t.wrong[i]! <= wrongLimit && t.unanswerable[i]! <= unanswerableLimit && t.right[i]! > t.right[best]!) best = i;
  });
  return best;
}

if (args.has('json')) {
  process.stdout.write(`${JSON.stringify({ bars: BARS, sets: Object.fromEntries(sets) })}\n`);
} else {
  const row = (label: string, pick: (half: { tune: Tally; eval: Tally }) => [Tally, number]): string => {
    let right = 0;
    let wrong = 0;
    let unanswerable = 0;
    for (const half of sets.values()) {
      const [t, i] = pick(half);
      right += t.right[i]!;
      wrong += t.wrong[i]!;
      unanswerable += t.unanswerable[i]!;
    }
    return `${label.padEnd(44)} right ${String(right).padStart(5)}  wrong page ${String(wrong).padStart(4)}  unanswerable ${String(unanswerable).padStart(3)}\n`;
  };
  for (const split of ['tune', 'eval'] as const) {
    process.stdout.write(`${split} halves of ${sets.size} sets\n`);
    BARS.forEach((bar, i) => process.stdout.write(row(`  one bar for all, ${bar}`, (half) => [half[split], i])));
    process.stdout.write(row(`  each set's best bar on its ${split} half`, (half) => [half[split], bestBar(half[split])]));
    if (split === 'eval') process.stdout.write(row("  each set's best bar on its tune half", (half) => [half.eval, bestBar(half.tune)]));
  }
}
