/**
 * Fits the retrieval confidence model (`packages/bot-answer-engine/src/upstream/retrieval/confidence.ts`)
 * on the tune halves of every set that is not sealed, and checks it leaving one set out: for
 * each set, the model fitted on the others' tune halves judges that set's questions, so the
 * figures say how it does on docs it was not fitted on.
 *
 *   node --import tsx bench/retrieval/fit-confidence.ts [--eval] [--settings='{"bodyTelling":1}'] [--unanswerable-weight=3] [--features=margin,coverage ...] [--cost=2] [--rows=file] [--seed=2] [--follow-ups]
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
 * `--eval` the eval halves'): right page, wrong page, unanswerable. Before them, the same
 * figures of the engine's model as it is (`CONFIDENCE_MODEL`) over the same rows: the row a
 * refit is measured against, the same hour (it was fitted on earlier tune halves, so most of
 * these rows are in its sample). Sets whose answerable
 * questions are all `eval` are split by place, as `tune.ts --by-place` does.
 *
 * Each `--features=` (it may be given more than once) is a model of those features alone,
 * fitted and checked in turn over the same rows: to measure what a feature adds. `--cost=N`
 * also chooses each set's least confidence on the other sets' tune halves, a wrong page or an
 * unanswerable question answered confidently costing N and a lost right answer 1, and prints
 * each set's confident answers at the engine's least confidence (`minConfidence`, or the one
 * `--settings=` gives) and at it.
 *
 * Beside the model's features, each row holds figures a feature could be made of (bench/retrieval/rounds.md,
 * "Confident when right, round 12 (the folder)"): of the folder, `pages` and `passages` (ln of
 * its counts), `idfMean` (the mean IDF of its words' occurrences) and `idfSpread` (the spread of
 * its terms' IDF); of the question's scores, `peak` (ln of the best passage's score over the
 * median of the ten best), `entropy` (of the ten best pages' best scores, over its most),
 * `candidates` (ln of 1 + the pages among the candidates) and `pageShare` (the judged passage's
 * share of those ten pages' scores); query performance predictors (bench/retrieval/rounds.md, "Confident
 * when right, round 13 (query performance)"): `nqc` and `nqcPassages` (the standard deviation
 * over the mean of the ten best pages' best scores, of the ten best passages' scores), `wig`
 * (ln of the five best pages' mean score over the question's summed IDF), `headAgree` and
 * `tellAgree` (1 when the hit matching the most of the telling weight by its heading path, by
 * itself, is of the judged page), `robust` (made only when a `--features=` names it, as
 * `searchAgree`: the share of the question's words that, each left
 * out in turn, leave the judged page first: a retrieval per word, its CPU printed), `clarity` (KL
 * divergence of the ten best passages' language model from the folder's), `coverAgree` and
 * `tellScoreAgree` (1 when the hit with the most score times the square of its share matched,
 * by IDF, by telling weight, is of the judged page: the search as you type's order from the
 * hits already scored) and `searchAgree` (1 when the search as you type's own first section is
 * of the judged page: another ranker over the same index, its CPU printed); of the answer's
 * type (`answer-type.ts`; "Confident when right, round 13 (the answer's type)"), `typeMatch`
 * and `quantityMissing` (below); of the question's most telling word and the judged page's
 * place among the best passages ("Confident when right, round 16"), `headRare`, `rareMatched`,
 * `pageTop`, `pageTop5` and `pageMargin` (below); and two
 * controls, `noise` (random per row) and `setNoise` (random per set, the same for every row
 * of a set, as a folder's figures are), drawn anew for each `--seed=`. A name `a*b` in
 * `--features=` is the product of two (an interaction). Each half's curve is printed whatever
 * the least confidence, as the most right pages answered confidently for at most 60, 80, 100
 * and 120 wrong pages and unanswerable questions. `--rows=file` writes the rows there, or
 * reads them when the file exists, to fit many variants over the same rows without the engine
 * (each row names its set, question, judged page and expected pages, to read); `--sets=a,b`
 * makes the rows of those sets only.
 *
 * `--follow-ups` fits the model judging follow-ups (`FOLLOW_UP_MODEL`, `followUpModel`) instead:
 * the rows are each half's follow-ups and its unanswerable questions asked after the half's
 * first three confident answers, judged on the passage as ranked with the conversation (see
 * `followUpRows`; every figure above is made, of the hits as ranked with the conversation, but
 * `robust` and `searchAgree`, which search without it), and each model's figures are printed per
 * follow-up bar as the engine decides a follow-up: answered as ranked when the model is as sure,
 * else as its words asked alone (bench/retrieval/rounds.md, "Follow-ups, round 17").
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { answerType, leafStatesType, typedTerms } from '../../packages/bot-answer-engine/src/upstream/compose/answer-type.js';
import { passageParts } from '../../packages/bot-answer-engine/src/upstream/compose/passage-units.js';
import { cleanMarkdown } from '../../packages/bot-answer-engine/src/upstream/folder/clean-markdown.js';
import { CONFIDENCE_MODEL, confidence, FEATURE_NAMES, FOLLOW_UP_MODEL, type ConfidenceFeatures, type ConfidenceModel } from '../../packages/bot-answer-engine/src/upstream/retrieval/confidence.js';
import { analyze, questionTerms } from '../../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';
import { englishRarity } from '../../packages/bot-answer-engine/src/upstream/retrieval/english.js';
import { idf } from '../../packages/bot-answer-engine/src/upstream/retrieval/idf.js';
import { searchSections } from '../../packages/bot-answer-engine/src/upstream/search/search.js';
import { Retriever, type SearchHit } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { DEFAULT_RETRIEVAL, type RetrievalSettings } from '../../packages/bot-answer-engine/src/upstream/retrieval/settings.js';
import { retrievalContext } from '../../packages/bot-answer-engine/src/upstream/follow-up.js';
import type { KbIndex } from '../../packages/bot-answer-engine/src/upstream/index/kb-index.js';
import type { resolveSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { expectedPages, FOLLOWED_FIRSTS, offTopicSplit, pageOf, placeSplit } from './evaluate.js';
import type { QuestionSet } from './sets.js';
import { eachSetIndex } from './tuning-script.js';

interface Row {
  set: string;
  question: string;
  /** The judged passage's page, and the pages expected (none for an unanswerable question). */
  page: string;
  expected: string[];
  split: 'tune' | 'eval';
  answerable: boolean;
  features: number[];
  right: boolean;
  /** `--follow-ups`: how the follow-up fares without the model (see `followUpRow`). */
  followUp?: FollowUpRow;
}

/**
 * A follow-up's row (`--follow-ups`): its passage as ranked with the conversation (when one
 * passed the rules on its own words: `judged`), and the same words decided asked alone, which
 * answers it when the model does not (`#decision`).
 */
interface FollowUpRow {
  judged: boolean;
  aloneAnswered: boolean;
  /** Asked alone, answered with an expected page in the first three sources. */
  aloneRight: boolean;
}

const withEval = process.argv.includes('--eval');
const followUpMode = process.argv.includes('--follow-ups');
const settingsArg = process.argv.find((a) => a.startsWith('--settings='));
const settings = JSON.parse(settingsArg ? settingsArg.slice('--settings='.length) : '{}') as Partial<RetrievalSettings>;
const minConfidence = settings.minConfidence ?? DEFAULT_RETRIEVAL.minConfidence;
// Figures of the folder (its size, how alike its pages' words are) and of the question's scores over
// its candidates, beside the model's features: candidates for a feature (`--features=`), and two
// controls, a random figure per row and one per set (a folder feature that knows nothing), to
// tell how far a feature moves the curve by chance.
const FIGURES = ['pages', 'passages', 'idfMean', 'idfSpread', 'peak', 'entropy', 'candidates', 'pageShare', 'nqc', 'nqcPassages', 'wig', 'headAgree', 'tellAgree', 'robust', 'clarity', 'coverAgree', 'tellScoreAgree', 'searchAgree', 'typeMatch', 'quantityMissing', 'headRare', 'rareMatched', 'pageTop', 'pageTop5', 'pageMargin'] as const;
const COLUMNS: string[] = [...FEATURE_NAMES, ...FIGURES, 'noise', 'setNoise'];
type Name = string;
// Each `--features=a,b` is a model to fit and check, of those features only (`a*b`: their product); by default, the model's.
const variants: Name[][] = process.argv.filter((a) => a.startsWith('--features=')).map((a) => a.slice('--features='.length).split(','));
if (variants.length === 0) variants.push([...FEATURE_NAMES]);
const unknown = variants.flat().flatMap((name) => name.split('*')).filter((name) => !COLUMNS.includes(name));
if (unknown.length) throw new Error(`no such feature: ${unknown.join(', ')} (features: ${COLUMNS.join(', ')})`);
// The dear columns (a retrieval per word left out; a second ranker: +260% and +112% CPU a row) are made only when a variant names one, else null.
const DEAR = ['robust', 'searchAgree'];
const dearNamed = DEAR.filter((name) => variants.flat().flatMap((v) => v.split('*')).includes(name));
const seedArg = process.argv.find((a) => a.startsWith('--seed='));
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

/** The row's figures of `names`, in that order (`a*b`: the product of two). */
function pick(row: Row, names: Name[]): number[] {
  return names.map((name) => name.split('*').reduce((product, part) => product * row.features[COLUMNS.indexOf(part)]!, 1));
}

/** The probability the weights `w` (bias first) over `names` give the row. */
function judge(w: number[], names: Name[], row: Row): number {
  return 1 / (1 + Math.exp(-pick(row, names).reduce((sum, x, i) => sum + x * w[i + 1]!, w[0]!)));
}

/** The weights `w` over `names`, by name (the model's features, every other one at 0, with any other named too). */
function model(w: number[], names: Name[]): ConfidenceModel {
  return Object.fromEntries([
    ['bias', w[0]!],
    ...[...FEATURE_NAMES, ...names.filter((name) => !(FEATURE_NAMES as readonly string[]).includes(name))].map((name) => [name, names.includes(name) ? w[names.indexOf(name) + 1]! : 0]),
  ]) as ConfidenceModel;
}

/** The median of `values` (sorted, best first), 0 for none. */
function median(values: number[]): number {
  if (!values.length) return 0;
  const mid = values.length >> 1;
  return values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

/** The folder's figures: ln of its pages and passages, the mean IDF of its words' occurrences and the spread of its terms' IDF. */
function folderFigures(file: string, documents: number, passages: number): number[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT doc, cnt FROM passage_vocab').all() as Array<{ doc: number; cnt: number }>;
    let occurrences = 0;
    let weighted = 0;
    let sum = 0;
    let squares = 0;
    for (const { doc, cnt } of rows) {
      // The plain log(N/df), not BM25's: the folder's vocabulary as its own figure.
      const rarity = Math.log(passages / doc);
      occurrences += cnt;
      weighted += cnt * rarity;
      sum += rarity;
      squares += rarity * rarity;
    }
    const mean = sum / rows.length;
    return [Math.log(documents), Math.log(passages), weighted / occurrences, Math.sqrt(squares / rows.length - mean * mean)];
  } finally {
    db.close();
  }
}

/** The question's scores over its candidates, seen from the judged passage: how far it stands out, how spread the best pages' scores are. */
function scoreFigures(hits: SearchHit[], judged: SearchHit): number[] {
  const page = (hit: SearchHit): string => hit.passage.url.replace(/#.*$/, '');
  const top = hits.slice(0, 10).map((hit) => hit.score);
  const pageBest = new Map<string, number>();
  for (const hit of hits) if (!pageBest.has(page(hit))) pageBest.set(page(hit), hit.score);
  const pages = [...pageBest.values()].slice(0, 10);
  const total = pages.reduce((sum, score) => sum + score, 0);
  const entropy = pages.length > 1 ? -pages.reduce((sum, score) => sum + (score / total) * Math.log(score / total), 0) / Math.log(pages.length) : 0;
  return [
    Math.log((hits[0]?.score ?? 1) / (median(top) || 1)),
    entropy,
    Math.log(1 + pageBest.size),
    judged.score / (total || judged.score),
  ];
}

// CPU ms spent on each question's decision (the engine's work) and on leaving each of its words out in turn (`robust`): what robustness would add.
const cpu = { decide: 0, robust: 0, search: 0, questions: 0 };

/** The standard deviation of `values` over their mean (NQC's normalised spread), 0 for fewer than two. */
function spread(values: number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length) / (mean || 1);
}

/** The folder's language model: each analysed term's occurrences among its passages, and their total. */
function folderModel(file: string): { counts: Map<string, number>; total: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const counts = new Map<string, number>();
    let total = 0;
    for (const { term, cnt } of db.prepare('SELECT term, cnt FROM passage_vocab').all() as Array<{ term: string; cnt: number }>) {
      counts.set(term, cnt);
      total += cnt;
    }
    return { counts, total };
  } finally {
    db.close();
  }
}

/**
 * Query performance predictors of the question's hits, seen from the judged passage: NQC over
 * the ten best pages' best scores and over the ten best passages, WIG (the five best pages'
 * mean score over the question's whole IDF), whether a ranking by the heading path's telling
 * share / by the telling share names the judged page first, how often the judged page stays
 * first with each of the question's words left out, and the clarity of the ten best passages
 * (KL divergence of their language model from the folder's).
 */
function qppFigures(retriever: Retriever, index: { documentFrequency(term: string): number; passages: number }, lm: { counts: Map<string, number>; total: number }, question: string, hits: SearchHit[], judged: SearchHit): number[] {
  const page = (hit: SearchHit): string => pageOf(hit.passage.url);
  const pageBest = new Map<string, number>();
  for (const hit of hits) if (!pageBest.has(page(hit))) pageBest.set(page(hit), hit.score);
  const pages = [...pageBest.values()].slice(0, 10);
  const terms = questionTerms(question).terms;
  const n = index.passages;
  const idfSum = terms.reduce((sum, t) => sum + idf(n, Math.max(1, index.documentFrequency(t))), 0);
  const top5 = pages.slice(0, 5);
  const wig = Math.log((top5.reduce((a, b) => a + b, 0) / (top5.length || 1)) / (idfSum || 1) || 1e-3);
  const firstBy = (key: (hit: SearchHit) => number): string | undefined => {
    let best: SearchHit | undefined;
    for (const hit of hits) if (!best || key(hit) > key(best)) best = hit;
    return best && page(best);
  };
  const judgedPage = page(judged);
  const headAgree = firstBy((hit) => hit.headTelling) === judgedPage ? 1 : 0;
  const tellAgree = firstBy((hit) => hit.telling) === judgedPage ? 1 : 0;
  // The search as you type's order, from the hits already scored: the score times the square of the share matched (by IDF; by telling weight).
  const coverAgree = firstBy((hit) => hit.score * hit.coverage ** 2) === judgedPage ? 1 : 0;
  const tellScoreAgree = firstBy((hit) => hit.score * hit.telling ** 2) === judgedPage ? 1 : 0;
  // Each analysed word left out in turn: the words of the question whose analysis holds it dropped.
  const words = question.split(/\s+/).filter(Boolean);
  const distinct = [...new Set(terms)];
  let kept = 0;
  let tries = 0;
  const started = process.cpuUsage();
  if (dearNamed.includes('robust') && distinct.length > 1) {
    for (const term of distinct) {
      const rest = words.filter((word) => !analyze(word).includes(term)).join(' ');
      if (rest === words.join(' ')) continue;
      tries++;
      const first = retriever.search(rest)[0];
      if (first && page(first) === judgedPage) kept++;
    }
  }
  const spent = process.cpuUsage(started);
  cpu.robust += (spent.user + spent.system) / 1000;
  const robust = !dearNamed.includes('robust') ? Number.NaN : tries ? kept / tries : 1;
  // Clarity: the ten best passages' language model (each alike, smoothed with the folder's) against the folder's.
  const model = new Map<string, number>();
  const top = hits.slice(0, 10);
  for (const hit of top) {
    const toks = analyze(cleanMarkdown(hit.passage.markdown));
    const tf = new Map<string, number>();
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, c] of tf) model.set(t, (model.get(t) ?? 0) + c / toks.length / top.length);
  }
  let clarity = 0;
  for (const [t, p] of model) {
    const pc = ((lm.counts.get(t) ?? 0) + 0.5) / (lm.total + 0.5);
    const q = 0.6 * p + 0.4 * pc;
    clarity += q * Math.log2(q / pc);
  }
  return [spread(pages), spread(hits.slice(0, 10).map((hit) => hit.score)), wig, headAgree, tellAgree, robust, clarity, coverAgree, tellScoreAgree];
}

/**
 * Whether the judged passage states the answer's type (`answer-type.ts`): `typeMatch` 1 when a
 * unit stating it holds a word of the question, -1 when none states it, else 0 (no type, or
 * stated apart from the question's words); `quantityMissing` 1 for a "how much / many"
 * question whose passage states no figure (bench/retrieval/rounds.md, "Confident when right, round 13").
 */
function typeFigures(question: string, judged: SearchHit): number[] {
  const type = answerType(question);
  if (!type) return [0, 0];
  const { markdown } = judged.passage;
  const states = passageParts(cleanMarkdown(markdown)).leaves.some((leaf) => leafStatesType(type, leaf));
  const beside = typedTerms(type, markdown, new Set(questionTerms(question).terms)).size > 0;
  return [beside ? 1 : states ? 0 : -1, type === 'quantity' && !states ? 1 : 0];
}

/**
 * The question's most telling word the docs hold (IDF times English rarity, as the telling
 * weight), seen from the judged passage (bench/retrieval/rounds.md, "Confident when right, round 16"):
 * `headRare` 1 when its heading path (the page's title, the section's headings) holds it,
 * `rareMatched` 1 when the passage matches it; `pageTop` and `pageTop5` the share of the ten /
 * five best passages that are of the judged page; `pageMargin` ln of the judged page's summed
 * score among the ten best passages over the best other page's (at most ln 3).
 */
function rareFigures(index: { documentFrequency(term: string): number; passages: number }, question: string, hits: SearchHit[], judged: SearchHit): number[] {
  const page = (hit: SearchHit): string => pageOf(hit.passage.url);
  const n = index.passages;
  let rare: string | undefined;
  let most = -1;
  for (const term of new Set(questionTerms(question).terms)) {
    const df = index.documentFrequency(term);
    if (df === 0) continue;
    const weight = idf(n, df) * englishRarity(term);
    if (weight > most) [most, rare] = [weight, term];
  }
  const heading = new Set(analyze([judged.passage.document.source.title, ...judged.passage.headings].join(' ')));
  const judgedPage = page(judged);
  const top = hits.slice(0, 10);
  const share = (k: number): number => hits.slice(0, k).filter((hit) => page(hit) === judgedPage).length / Math.max(1, Math.min(k, hits.length));
  const sums = new Map<string, number>();
  for (const hit of top) sums.set(page(hit), (sums.get(page(hit)) ?? 0) + hit.score);
  const own = sums.get(judgedPage) ?? judged.score;
  const other = Math.max(0, ...[...sums].filter(([p]) => p !== judgedPage).map(([, v]) => v));
  return [rare && heading.has(rare) ? 1 : 0, rare && judged.matchedTerms.includes(rare) ? 1 : 0, share(10), share(5), other > 0 ? Math.min(Math.log(3), Math.log(own / other)) : Math.log(3)];
}

/**
 * `--follow-ups`: a set's follow-ups as rows, each half's own: its answerable follow-ups (halves
 * by place in a set whose follow-ups are all `eval`), and its unanswerable questions asked as
 * follow-ups after each of the half's first three questions answered confidently (the
 * conversation made as the server makes it, `retrievalContext`). A row's features and figures
 * are those of the passage as ranked with the conversation, when one passes the rules on the
 * follow-up's own words (the model's bar set at almost nothing to read it); right when an expected page is
 * among the first three sources. Beside it, the same words decided asked alone, which answer a
 * follow-up the model is not sure of.
 */
function followUpRows(set: QuestionSet, index: KbIndex, kbSettings: ReturnType<typeof resolveSettings>): void {
  const retriever = new Retriever(index, { ...settings, followUpConfidence: 1e-9 });
  const folder = folderFigures(index.file, index.documents, index.passages);
  const lm = folderModel(index.file);
  const inTop3 = (hits: SearchHit[], want: ReadonlySet<string>): boolean => hits.slice(0, 3).some((hit) => want.has(pageOf(hit.passage.url)));
  const row = (question: string, first: string, split: Row['split'], expected: Set<string> | undefined): void => {
    const alone = retriever.decide(question);
    const aloneAnswered = alone.outcome === 'answered';
    const context = retrievalContext([{ role: 'user', content: first }]);
    const decision = retriever.decide(question, context);
    // Answered as its words alone are (the same first passage, scored alike): no passage passed the rules with the conversation.
    const same = aloneAnswered && decision.outcome === 'answered' && decision.hits[0]?.passage.index === alone.hits[0]?.passage.index && decision.hits[0]?.score === alone.hits[0]?.score;
    const judged = decision.outcome === 'answered' && !same ? decision.judged : undefined;
    // The other figures as the questions' rows make them, of the hits as ranked with the conversation; not `robust` and `searchAgree`, which search without it.
    const followUpFeatures = (hit: SearchHit, features: ConfidenceFeatures): number[] => {
      const hits = retriever.search(question, context);
      const qpp = qppFigures(retriever, index, lm, question, hits, hit);
      qpp[5] = Number.NaN;
      return [...FEATURE_NAMES.map((name) => features[name]), ...folder, ...scoreFigures(hits, hit), ...qpp, Number.NaN, ...typeFigures(question, hit), ...rareFigures(index, question, hits, hit)];
    };
    rows.push({
      set: set.id,
      question: `${first} -> ${question}`,
      page: judged ? pageOf(judged.hit.passage.url) : '',
      expected: [...(expected ?? [])],
      split,
      answerable: expected !== undefined,
      features: judged ? followUpFeatures(judged.hit, judged.features) : [],
      right: judged !== undefined && expected !== undefined && inTop3(decision.hits, expected),
      followUp: { judged: judged !== undefined, aloneAnswered, aloneRight: aloneAnswered && expected !== undefined && inTop3(alone.hits, expected) },
    });
  };
  const allEval = set.questions.every((q) => q.split === 'eval') && set.followUps.every((f) => f.split === 'eval');
  set.followUps.forEach((f, place) => row(f.question, f.first, allEval ? offTopicSplit(place) : (f.split ?? 'tune'), expectedPages(f, kbSettings)));
  const splitOf = placeSplit(set);
  for (const split of ['tune', 'eval'] as const) {
    const firsts: string[] = [];
    for (const [place, q] of set.questions.entries()) {
      if (firsts.length === FOLLOWED_FIRSTS) break;
      if (splitOf(q, place) === split && retriever.decide(q.question).outcome === 'answered') firsts.push(q.question);
    }
    for (const first of firsts) set.offTopic.forEach((question, place) => offTopicSplit(place) === split && row(question, first, split, undefined));
  }
}

// `--rows=file`: the rows read from that file when it exists, else made and written there (to fit many variants over the same rows).
const rowsArg = process.argv.find((a) => a.startsWith('--rows='))?.slice('--rows='.length);
const rows: Row[] = rowsArg && existsSync(rowsArg) ? (JSON.parse(readFileSync(rowsArg, 'utf8')) as Row[]) : [];
const setsArg = process.argv.find((a) => a.startsWith('--sets='))?.slice('--sets='.length).split(',');
if (!rows.length) await eachSetIndex('fit-confidence', setsArg, (set, index, kbSettings) => {
  if (followUpMode) return followUpRows(set, index, kbSettings);
  const retriever = new Retriever(index, settings);
  const folder = folderFigures(index.file, index.documents, index.passages);
  const lm = folderModel(index.file);
  const row = (question: string, split: Row['split'], expected: Set<string> | undefined): void => {
    const started = process.cpuUsage();
    const judged = retriever.decide(question).judged;
    const spent = process.cpuUsage(started);
    cpu.decide += (spent.user + spent.system) / 1000;
    cpu.questions++;
    if (!judged) return;
    const page = pageOf(judged.hit.passage.url);
    const hits = retriever.search(question);
    // Ranker agreement with the search as you type (its own ranking over the same index): does its first section belong to the judged page?
    let searchAgree = Number.NaN;
    if (dearNamed.includes('searchAgree')) {
      const before = process.cpuUsage();
      const first = searchSections(index, question, 1)[0];
      const searched = process.cpuUsage(before);
      cpu.search += (searched.user + searched.system) / 1000;
      searchAgree = first && pageOf(first.url) === page ? 1 : 0;
    }
    const features = [...FEATURE_NAMES.map((name) => judged.features[name]), ...folder, ...scoreFigures(hits, judged.hit), ...qppFigures(retriever, index, lm, question, hits, judged.hit), searchAgree, ...typeFigures(question, judged.hit), ...rareFigures(index, question, hits, judged.hit)];
    rows.push({ set: set.id, question, page, expected: [...(expected ?? [])], split, answerable: expected !== undefined, features, right: expected?.has(page) ?? false });
  };
  const splitOf = placeSplit(set);
  set.questions.forEach((q, place) => row(q.question, splitOf(q, place), expectedPages(q, kbSettings)));
  set.offTopic.forEach((question, place) => row(question, offTopicSplit(place), undefined));
});

if (rowsArg && !existsSync(rowsArg)) writeFileSync(rowsArg, JSON.stringify(rows));
for (const name of dearNamed) {
  const at = COLUMNS.indexOf(name);
  if (rows.some((r) => !Number.isFinite(r.features[at]))) throw new Error(`${name} is not in the rows of ${rowsArg}: they were made without a --features= naming it; make them again`);
}
if (cpu.questions) process.stderr.write(`CPU per question: the decision ${(cpu.decide / cpu.questions).toFixed(2)} ms; each word left out in turn (robust) ${(cpu.robust / cpu.questions).toFixed(2)} ms; the search as you type (searchAgree) ${(cpu.search / cpu.questions).toFixed(2)} ms\n`);
// The controls: the same for the same `--seed=` (a multiplicative congruential generator).
let seed = seedArg ? Number(seedArg.slice('--seed='.length)) : 1;
const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
const setNoise = new Map<string, number>();
for (const r of rows) {
  if (!setNoise.has(r.set)) setNoise.set(r.set, random());
  if (!r.features.length) continue;
  r.features = [...r.features.slice(0, COLUMNS.length - 2), random(), setNoise.get(r.set)!];
}
/** Each half's confident answers by least confidence, and its curve whatever the least confidence, as `judged` (a probability per row) gives them. */
function printCurves(judged: Map<Row, number>, how: string): void {
  for (const split of withEval ? (['tune', 'eval'] as const) : (['tune'] as const)) {
    const half = rows.filter((r) => r.split === split);
    process.stdout.write(`${split} halves, ${how} (right page / wrong page / unanswerable, confident):\n`);
    for (const least of LEAST) {
      const sure = half.filter((r) => judged.get(r)! >= least);
      const right = sure.filter((r) => r.right).length;
      const unanswerable = sure.filter((r) => !r.answerable).length;
      process.stdout.write(`  >= ${least}: ${right} / ${sure.length - right - unanswerable} / ${unanswerable}\n`);
    }
    // The curve itself, whatever the least confidence: the most right pages answered confidently for at most so many wrong pages and unanswerable questions.
    const points = half.map((r) => judged.get(r)!).sort((a, b) => b - a);
    const most = (bad: number): number => {
      let best = 0;
      for (const least of points) {
        const sure = half.filter((r) => judged.get(r)! >= least);
        const right = sure.filter((r) => r.right).length;
        if (sure.length - right <= bad) best = Math.max(best, right);
      }
      return best;
    };
    process.stdout.write(`  right at most 60 / 80 / 100 / 120 untrustworthy: ${[60, 80, 100, 120].map(most).join(' / ')}\n`);
  }
}

/** The follow-up bars `--follow-ups` prints each model's figures at. */
const BARS = [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7];

/**
 * `--follow-ups`: each half's follow-ups answered by least confidence, as the engine decides
 * them: answered as ranked with the conversation when the model is as sure, else as the same
 * words asked alone. Answerable follow-ups answered with an expected page among the first three
 * sources (the bench's `followup.top3`), and unanswerable follow-ups answered confidently.
 */
function printFollowUpCurves(judged: Map<Row, number>, how: string): void {
  for (const split of withEval ? (['tune', 'eval'] as const) : (['tune'] as const)) {
    const half = rows.filter((r) => r.split === split);
    const answerable = half.filter((r) => r.answerable).length;
    process.stdout.write(`${split} halves, ${how} (follow-ups answered right of ${answerable} / unanswerable follow-ups confident of ${half.length - answerable}; rows judged ${half.filter((r) => r.followUp!.judged).length}):\n`);
    const line = BARS.map((bar) => {
      let right = 0;
      let unanswerable = 0;
      for (const r of half) {
        const sure = r.followUp!.judged && judged.get(r)! >= bar;
        if (r.answerable) right += (sure ? r.right : r.followUp!.aloneRight) ? 1 : 0;
        else unanswerable += sure || r.followUp!.aloneAnswered ? 1 : 0;
      }
      return `${bar}: ${right}/${unanswerable}`;
    });
    process.stdout.write(`  ${line.join('  ')}\n`);
  }
}

const curves = followUpMode ? printFollowUpCurves : printCurves;
// The engine's model as it is (fitted on earlier tune halves, so not left out), on the same rows: the row a refit is measured against.
// With `--follow-ups`, the model the engine judges follow-ups with (`FOLLOW_UP_MODEL`).
const engineModel = followUpMode ? FOLLOW_UP_MODEL : CONFIDENCE_MODEL;
curves(
  new Map(rows.map((r) => [r, r.features.length ? confidence(Object.fromEntries(FEATURE_NAMES.map((name, i) => [name, r.features[i]!])) as unknown as ConfidenceFeatures, engineModel) : 0])),
  `the engine's model (${followUpMode ? 'FOLLOW_UP_MODEL' : 'CONFIDENCE_MODEL'})`,
);
// A follow-up with no passage passing the rules on its own words has nothing for the model to judge.
const tune = rows.filter((r) => r.split === 'tune' && (!r.followUp || r.followUp.judged));
for (const names of variants) {
  const all = model(fit(tune, names), names);
  process.stdout.write(`${names.join(', ')}: fitted on ${tune.length} tune rows:\n{\n${Object.entries(all).map(([k, v]) => `  ${k}: ${v.toFixed(2)},`).join('\n')}\n}\n`);
  // Left one set out: each set's rows judged by the model fitted on the other sets' tune halves.
  const judged = new Map<Row, number>();
  for (const set of new Set(rows.map((r) => r.set))) {
    const w = fit(tune.filter((r) => r.set !== set), names);
    for (const r of rows) if (r.set === set) judged.set(r, r.features.length ? judge(w, names, r) : 0);
  }
  curves(judged, 'left one set out');

  if (COST > 0 && !followUpMode) {
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
