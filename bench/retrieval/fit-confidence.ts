/**
 * Fits the retrieval confidence model (`packages/bot-answer-engine/src/upstream/retrieval/confidence.ts`)
 * on the tune halves of every set that is not sealed, and checks it leaving one set out: for
 * each set, the model fitted on the others' tune halves judges that set's questions, so the
 * figures say how it does on docs it was not fitted on.
 *
 *   node --import tsx bench/retrieval/fit-confidence.ts [--eval] [--settings='{"bodyTelling":1}'] [--unanswerable-weight=3] [--features=margin,coverage ...] [--cost=2]
 *
 * Each question's passage to answer from (`Decision.judged`) is a row: its features, and
 * whether its page is an expected one (an unanswerable question's never is). The rows are made
 * by the engine with the retrieval settings `--settings=` gives over the defaults (the same JSON
 * `tune.ts` takes): a model for a ranking a setting changes is fitted on that ranking's rows.
 * The model is a logistic regression (Newton's method, an L2 penalty of 1 on the weights, not
 * the bias); `--unanswerable-weight=N` counts each unanswerable question's row N times (they
 * are few among the rows, and one answered confidently costs the visitor's trust most). It
 * prints the model fitted on all tune halves, to paste into `CONFIDENCE_MODEL`, then per least
 * confidence the confident answers left-one-out would give on the tune halves (and with
 * `--eval` the eval halves'): right page, wrong page, unanswerable. Sets whose answerable
 * questions are all `eval` are split by place, as `tune.ts --by-place` does.
 *
 * Each `--features=` (it may be given more than once) is a model of those features alone,
 * fitted and checked in turn over the same rows: to measure what a feature adds. `--cost=N`
 * also chooses each set's least confidence on the other sets' tune halves, a wrong page or an
 * unanswerable question answered confidently costing N and a lost right answer 1, and prints
 * each set's confident answers at the engine's least confidence (`minConfidence`, or the one
 * `--settings=` gives) and at it.
 */
import { documentUrl } from '../../packages/bot-answer-engine/src/upstream/folder/document-url.js';
import { confidence, FEATURE_NAMES, type ConfidenceModel } from '../../packages/bot-answer-engine/src/upstream/retrieval/confidence.js';
import { DEFAULT_RETRIEVAL, Retriever, type RetrievalSettings } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { offTopicSplit } from './evaluate.js';
import { eachSetIndex } from './tuning-script.js';

interface Row {
  set: string;
  split: 'tune' | 'eval';
  answerable: boolean;
  features: number[];
  right: boolean;
}

const withEval = process.argv.includes('--eval');
const settingsArg = process.argv.find((a) => a.startsWith('--settings='));
const settings = JSON.parse(settingsArg ? settingsArg.slice('--settings='.length) : '{}') as Partial<RetrievalSettings>;
const minConfidence = settings.minConfidence ?? DEFAULT_RETRIEVAL.minConfidence;
type Name = (typeof FEATURE_NAMES)[number];
// Each `--features=a,b` is a model to fit and check, of those features only; by default, every feature.
const variants: Name[][] = process.argv.filter((a) => a.startsWith('--features=')).map((a) => a.slice('--features='.length).split(',') as Name[]);
if (variants.length === 0) variants.push([...FEATURE_NAMES]);
const unknown = variants.flat().filter((name) => !FEATURE_NAMES.includes(name));
if (unknown.length) throw new Error(`no such feature: ${unknown.join(', ')} (features: ${FEATURE_NAMES.join(', ')})`);
const costArg = process.argv.find((a) => a.startsWith('--cost='));
const COST = costArg ? Number(costArg.slice('--cost='.length)) : 0;
const weightArg = process.argv.find((a) => a.startsWith('--unanswerable-weight='));
// How much an unanswerable question's row counts in the fit against an answerable one's (1: alike).
const UNANSWERABLE_WEIGHT = weightArg ? Number(weightArg.slice('--unanswerable-weight='.length)) : 1;
const L2 = 1;
const ITERATIONS = 30;
const LEAST = [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75];

/** Solves `a x = b` by Gaussian elimination with partial pivoting (a small, well-conditioned system). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = col + 1; r < n; r++) {
      const f = m[r]![col]! / m[col]![col]!;
      for (let c = col; c <= n; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  const x = Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = m[r]![n]!;
    for (let c = r + 1; c < n; c++) sum -= m[r]![c]! * x[c]!;
    x[r] = sum / m[r]![r]!;
  }
  return x;
}

/** Logistic regression: weights with the bias first, each row's features after a 1. */
function fit(rows: Row[], names: Name[]): number[] {
  const n = names.length + 1;
  let w = Array<number>(n).fill(0);
  for (let it = 0; it < ITERATIONS; it++) {
    const gradient = w.map((wi, i) => (i === 0 ? 0 : L2 * wi));
    const hessian = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j && i > 0 ? L2 : 0)));
    for (const row of rows) {
      const x = [1, ...pick(row, names)];
      const p = 1 / (1 + Math.exp(-x.reduce((sum, xi, i) => sum + xi * w[i]!, 0)));
      const weight = row.answerable ? 1 : UNANSWERABLE_WEIGHT;
      for (let i = 0; i < n; i++) {
        gradient[i]! += weight * (p - (row.right ? 1 : 0)) * x[i]!;
        for (let j = 0; j < n; j++) hessian[i]![j]! += weight * p * (1 - p) * x[i]! * x[j]!;
      }
    }
    const step = solve(hessian, gradient);
    w = w.map((wi, i) => wi - step[i]!);
  }
  return w;
}

/** The row's figures of `names`, in that order. */
function pick(row: Row, names: Name[]): number[] {
  return names.map((name) => row.features[FEATURE_NAMES.indexOf(name)]!);
}

/** The model of weights `w` over `names`, every other feature at 0. */
function model(w: number[], names: Name[]): ConfidenceModel {
  return Object.fromEntries([['bias', w[0]!], ...FEATURE_NAMES.map((name) => [name, names.includes(name) ? w[names.indexOf(name) + 1]! : 0])]) as ConfidenceModel;
}

const rows: Row[] = [];
await eachSetIndex('fit-confidence', undefined, (set, index, kbSettings) => {
  const retriever = new Retriever(index, settings);
  const row = (question: string, split: Row['split'], expected: Set<string> | undefined): void => {
    const judged = retriever.decide(question).judged;
    if (!judged) return;
    const page = judged.hit.passage.url.replace(/#.*$/, '');
    rows.push({ set: set.id, split, answerable: expected !== undefined, features: FEATURE_NAMES.map((name) => judged.features[name]), right: expected?.has(page) ?? false });
  };
  const allEval = set.questions.every((q) => q.split === 'eval');
  set.questions.forEach((q, place) => {
    const expected = new Set(q.expectUrl ? [q.expectUrl] : (q.expect ?? []).map((path) => documentUrl(path, kbSettings)!));
    row(q.question, allEval ? offTopicSplit(place) : (q.split ?? 'tune'), expected);
  });
  set.offTopic.forEach((question, place) => row(question, offTopicSplit(place), undefined));
});

const tune = rows.filter((r) => r.split === 'tune');
for (const names of variants) {
  const all = model(fit(tune, names), names);
  process.stdout.write(`${names.join(', ')}: fitted on ${tune.length} tune rows:\n{\n${Object.entries(all).map(([k, v]) => `  ${k}: ${v.toFixed(2)},`).join('\n')}\n}\n`);
  // Left one set out: each set's rows judged by the model fitted on the other sets' tune halves.
  const judged = new Map<Row, number>();
  for (const set of new Set(rows.map((r) => r.set))) {
    const m = model(fit(tune.filter((r) => r.set !== set), names), names);
    for (const r of rows) if (r.set === set) judged.set(r, confidence(Object.fromEntries(FEATURE_NAMES.map((name, i) => [name, r.features[i]!])) as never, m));
  }
  for (const split of withEval ? (['tune', 'eval'] as const) : (['tune'] as const)) {
    const half = rows.filter((r) => r.split === split);
    process.stdout.write(`${split} halves, left one set out (right page / wrong page / unanswerable, confident):\n`);
    for (const least of LEAST) {
      const sure = half.filter((r) => judged.get(r)! >= least);
      const right = sure.filter((r) => r.right).length;
      const unanswerable = sure.filter((r) => !r.answerable).length;
      process.stdout.write(`  >= ${least}: ${right} / ${sure.length - right - unanswerable} / ${unanswerable}\n`);
    }
  }

  if (COST > 0) {
    // Each set's least confidence chosen on the other sets' tune halves (as judged left out), a wrong or unanswerable confident answer costing COST, a lost right one 1.
    const grid = Array.from({ length: 41 }, (_, i) => 0.4 + i * 0.01);
    const cost = (rs: Row[], least: number): number => rs.reduce((sum, r) => sum + (judged.get(r)! >= least ? (r.right ? -1 : COST) : 0), 0);
    const chosen = new Map<string, number>();
    for (const set of new Set(rows.map((r) => r.set))) {
      const others = tune.filter((r) => r.set !== set);
      chosen.set(set, grid.reduce((best, least) => (cost(others, least) < cost(others, best) ? least : best)));
    }
    const best = grid.reduce((b, least) => (cost(tune, least) < cost(tune, b) ? least : b));
    process.stdout.write(`cost ${COST}:1, least confidence on all tune halves ${best.toFixed(2)}; per set left out (least; right / wrong / unanswerable confident at ${minConfidence} -> at it):\n`);
    for (const split of withEval ? (['tune', 'eval'] as const) : (['tune'] as const)) {
      const totals = [0, 0, 0, 0, 0, 0];
      for (const [set, least] of chosen) {
        const rs = rows.filter((r) => r.set === set && r.split === split);
        const count = (at: number): number[] => {
          const sure = rs.filter((r) => judged.get(r)! >= at);
          return [sure.filter((r) => r.right).length, sure.filter((r) => r.answerable && !r.right).length, sure.filter((r) => !r.answerable).length];
        };
        const [a, b] = [count(minConfidence), count(least)];
        [...a, ...b].forEach((v, i) => (totals[i]! += v));
        process.stdout.write(`  ${split} ${set.padEnd(16)} ${least.toFixed(2)}  ${a.join(' / ')} -> ${b.join(' / ')}\n`);
      }
      process.stdout.write(`  ${split} all: ${totals.slice(0, 3).join(' / ')} -> ${totals.slice(3).join(' / ')}\n`);
    }
  }
}
