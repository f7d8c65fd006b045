/**
 * Why the engine said "not sure" where the page it shows first is the right one: every tune-half
 * question sorted by its outcome and, when not confident, by the rule that made it so, with the
 * unanswerable questions beside them, so a rule can be weighed by what it stops of each kind.
 *
 *   node --import tsx bench/retrieval/why-unsure.ts [--sets=vet,waste] [--list] [--all] [--settings='{"tellingRival":0.25}']
 *
 * Causes, in the order the outcome is decided (`Retriever.decide`):
 * - `gate: telling word`: no passage is judged; one would be without the rule that a telling word
 *   the docs lack be matched (`tellingWordShare`); or the passage judged misses only lacked words
 *   that name no topic and is below their higher bar (`tellingNouns`), with none judged without it;
 * - `gate: coverage`: no passage matches enough of the question (`minCoverage`, `minStrength`);
 * - `model`: the passage judged is below the least confidence (`minConfidence`);
 * - `rival`: the model is sure, but another page's passage outmatches it (`tellingRival`);
 * - `named`: the model is sure, but the answer stays unsure without the rival rule: the page lacks
 *   a name asked about (`namedOnPage`), a name as written (`writtenOnPage`), a number asked
 *   (`numberedInPassage`) or a price asked (`pricedInPassage`), another page is its twin while
 *   the model is only just sure (`twinMargin`), or a yes/no question's passage holds too little
 *   of it while the model is only just sure (`yesNoTelling`).
 * It prints the counts; `--list` also each not-sure question (POOL when its first link is right,
 * MISS when not), each wrong-page confident answer and each unanswerable question answered,
 * with the figures of the best-scoring passage, the question's words the docs lack (with their
 * English rarity), the passage judged (its confidence, whether its page is right, its features)
 * and the pages shown (* the right one); `--all` adds the right confident answers and the
 * unanswerable questions not answered.
 * `--sweep='[{"minConfidence":0.45},{"tellingEnough":0.55}]'` prints instead, for each setting
 * given (over `--settings=`; a `model` key replaces weights of the confidence model,
 * `CONFIDENCE_MODEL`), the right, wrong-page and unanswerable confident answers and the right
 * pages first: a bar's trade curve from one indexing of the sets. `--reach` prints instead
 * what a perfect gate could do for the confident goal (>= 75% of the answerable questions, with
 * wrong pages within their 10%): each set's tune half by what stands between it and the goal
 * (met; the gate alone, the right page first on 75% or more; the gate and wrong pages within the
 * allowance; the ranking, the right page first on under 65%), with the right pages first held
 * back as "not sure". Tune halves only (split by place for the all-`eval` sets, as
 * `tune.ts --by-place`); it never reads the sealed sets.
 */
import { questionTerms } from '../../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';
import { englishRarity } from '../../packages/bot-answer-engine/src/upstream/retrieval/english.js';
import { CONFIDENCE_MODEL, type ConfidenceModel } from '../../packages/bot-answer-engine/src/upstream/retrieval/confidence.js';
import { Retriever, type Decision } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { DEFAULT_RETRIEVAL } from '../../packages/bot-answer-engine/src/upstream/retrieval/settings.js';
import { expectedPages, offTopicSplit, pageOf, placeSplit } from './evaluate.js';
import { eachSetIndex, scriptArgs } from './tuning-script.js';

const args = scriptArgs();
const { only, settings } = args;
const all = args.has('all');
const list = all || args.has('list');
const reach = args.has('reach');
const minConfidence = settings.minConfidence ?? DEFAULT_RETRIEVAL.minConfidence;

type Cause = 'gate: telling word' | 'gate: coverage' | 'model' | 'rival' | 'named' | 'refused';
const counts = new Map<string, number>();
const bump = (key: string): void => void counts.set(key, (counts.get(key) ?? 0) + 1);
const lines: string[] = [];
/** Each set's tune half, for `--reach`: answerable questions, right pages first, right and wrong-page confident answers, right pages first held back. */
const tallies = new Map<string, { answerable: number; first: number; right: number; wrong: number; held: number }>();

/** Why a question with this decision was not answered confidently. */
function causeOf(decision: Decision, forcedNoGate: Decision, withoutRival: () => Decision, withoutLoose: () => Decision): Cause {
  if (decision.outcome === 'refused') return 'refused';
  if (!decision.judged) return forcedNoGate.judged ? 'gate: telling word' : 'gate: coverage';
  if (decision.judged.confidence < minConfidence) return 'model';
  // Judged only through the lacked words that name no topic, and below their bar.
  if (!withoutLoose().judged) return 'gate: telling word';
  // Sure, yet not answered: the rival rule, unless the answer stays unsure without it (a name, number, twin or yes/no rule).
  return withoutRival().outcome === 'answered' ? 'rival' : 'named';
}

type Variant = Partial<typeof DEFAULT_RETRIEVAL> & { model?: Partial<ConfidenceModel> };
const sweep = args.get('sweep') ? (JSON.parse(args.get('sweep')!) as Variant[]) : undefined;
const swept = (sweep ?? []).map(() => ({ right: 0, wrong: 0, unanswerable: 0, first: 0 }));
const engineModel = { ...CONFIDENCE_MODEL };

await eachSetIndex('why-unsure', only, (set, index, kbSettings) => {
  if (sweep) {
    const splitOf = placeSplit(set);
    sweep.forEach(({ model, ...over }, i) => {
      Object.assign(CONFIDENCE_MODEL, engineModel, model ?? {});
      const retriever = new Retriever(index, { ...settings, ...over });
      const tally = swept[i]!;
      set.questions.forEach((q, place) => {
        if (splitOf(q, place) !== 'tune') return;
        const want = expectedPages(q, kbSettings);
        const decision = retriever.decide(q.question);
        const firstRight = want.has(pageOf(decision.hits[0]?.passage.url ?? ''));
        if (firstRight) tally.first++;
        if (decision.outcome === 'answered') tally[firstRight ? 'right' : 'wrong']++;
      });
      set.offTopic.forEach((question, place) => {
        if (offTopicSplit(place) === 'tune' && retriever.decide(question).outcome === 'answered') tally.unanswerable++;
      });
    });
    Object.assign(CONFIDENCE_MODEL, engineModel);
    return;
  }
  const retriever = new Retriever(index, settings);
  // The gate without its telling-word rule: tells a question stopped by that rule from one matching too little.
  const noTelling = new Retriever(index, { ...settings, tellingWordShare: 0 });
  const noRival = new Retriever(index, { ...settings, tellingRival: 0 });
  const noLoose = new Retriever(index, { ...settings, tellingNouns: 0 });
  const splitOf = placeSplit(set);
  const tally = { answerable: 0, first: 0, right: 0, wrong: 0, held: 0 };
  tallies.set(set.id, tally);
  const describe = (decision: Decision, want: Set<string>, question: string): string => {
    const j = decision.judged;
    const f = j ? Object.entries(j.features).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(' ') : '';
    const pages = decision.hits.map((h) => pageOf(h.passage.url).replace(/^https?:\/\/[^/]+\//, '') + (want.has(pageOf(h.passage.url)) ? '*' : '')).join(', ');
    const [best] = retriever.search(question);
    const top = best ? `best-scoring: coverage ${best.coverage.toFixed(2)} strength ${best.strength.toFixed(2)} telling ${best.telling.toFixed(2)} head ${best.headTelling.toFixed(2)} words ${best.matchedTerms.length}` : 'no candidate';
    // The question's words the docs lack, with their rarity in everyday English (what the telling-word rule asks to be matched).
    const lacking = questionTerms(question).terms.filter((term) => index.documentFrequency(term) === 0).map((term) => `${term} ${englishRarity(term).toFixed(1)}`);
    return `${top} | lacking: ${lacking.join(', ') || 'none'} | ${j ? `conf ${j.confidence.toFixed(2)} ${want.has(pageOf(j.hit.passage.url)) ? 'judged right' : 'judged wrong'} [${f}]` : 'no judged'} -> ${pages}`;
  };
  set.questions.forEach((q, place) => {
    if (splitOf(q, place) !== 'tune') return;
    const want = expectedPages(q, kbSettings);
    const decision = retriever.decide(q.question);
    const firstRight = want.has(pageOf(decision.hits[0]?.passage.url ?? ''));
    tally.answerable++;
    if (firstRight) tally.first++;
    if (decision.outcome === 'answered') {
      tally[firstRight ? 'right' : 'wrong']++;
      bump(firstRight ? 'confident right' : 'confident wrong');
      if (firstRight && all) lines.push(`${set.id} RIGHT: ${q.question}\n      ${describe(decision, want, q.question)}`);
      if (!firstRight && list) lines.push(`${set.id} WRONG: ${q.question}\n      ${describe(decision, want, q.question)}`);
      return;
    }
    if (firstRight) tally.held++;
    const cause = causeOf(decision, noTelling.decide(q.question), () => noRival.decide(q.question), () => noLoose.decide(q.question));
    bump(`${firstRight ? 'unsure, right first' : 'unsure, not right first'}: ${cause}`);
    if (list) lines.push(`${set.id} ${firstRight ? 'POOL' : 'MISS'} ${cause}: ${q.question}\n      ${describe(decision, want, q.question)}`);
  });
  set.offTopic.forEach((question, place) => {
    if (offTopicSplit(place) !== 'tune') return;
    const decision = retriever.decide(question);
    if (decision.outcome === 'answered') {
      bump('unanswerable confident');
      if (list) lines.push(`${set.id} UNANSWERABLE: ${question}\n      ${describe(decision, new Set(), question)}`);
    } else {
      const cause = causeOf(decision, noTelling.decide(question), () => noRival.decide(question), () => noLoose.decide(question));
      bump(`unanswerable ${decision.outcome}: ${cause}`);
      if (all) lines.push(`${set.id} UNANSWERABLE ${cause}: ${question}\n      ${describe(decision, new Set(), question)}`);
    }
  });
});
sweep?.forEach((variant, i) => {
  const { right, wrong, unanswerable, first } = swept[i]!;
  process.stdout.write(`right ${right}  wrong ${wrong}  unanswerable ${unanswerable}  first ${first}  ${JSON.stringify(variant)}\n`);
});
if (reach) printReach();
else {
  for (const line of lines) process.stdout.write(`${line}\n`);
  for (const [key, n] of [...counts].sort()) process.stdout.write(`${key.padEnd(44)} ${n}\n`);
}

/** `--reach`: the sets by what stands between each and the confident goal, with their sums. */
function printReach(): void {
  const groups = ['met', 'the gate alone', 'the gate and wrong pages', 'the ranking'] as const;
  const grouped = new Map<(typeof groups)[number], string[]>(groups.map((group) => [group, []]));
  for (const [id, t] of tallies) {
    const n = t.answerable;
    // Wrong pages a set may have within the goal: a whole number of questions.
    const allowance = Math.floor(0.1 * n);
    const group = t.right + t.wrong >= 0.75 * n ? 'met' : t.first >= 0.75 * n ? 'the gate alone' : t.first + allowance >= 0.75 * n ? 'the gate and wrong pages' : 'the ranking';
    grouped.get(group)!.push(id);
  }
  process.stdout.write('stands between          sets  answerable  first  right  wrong  held back\n');
  for (const group of groups) {
    const ids = grouped.get(group)!;
    const sum = (key: 'answerable' | 'first' | 'right' | 'wrong' | 'held'): number => ids.reduce((total, id) => total + tallies.get(id)![key], 0);
    process.stdout.write(`${group.padEnd(24)} ${String(ids.length).padStart(5)} ${String(sum('answerable')).padStart(11)} ${String(sum('first')).padStart(6)} ${String(sum('right')).padStart(6)} ${String(sum('wrong')).padStart(6)} ${String(sum('held')).padStart(10)}\n`);
  }
  for (const group of groups) process.stdout.write(`${group}: ${grouped.get(group)!.sort().join(', ')}\n`);
}
