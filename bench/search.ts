import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBots } from '../packages/bot-answer-engine/src/upstream/bots.js';
import { documentUrl } from '../packages/bot-answer-engine/src/upstream/folder/document-url.js';
import { resolveSettings } from '../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { STOP_WORDS } from '../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';
import { docsFolder } from './kb-scale.js';
import { cliNodeFlags, nodeBuild } from './lib/build-node.js';
import { startBuiltChild } from './lib/child.js';
import type { Report } from './lib/report.js';
import { median, percentile } from './lib/stats.js';
import { evaluationSets } from './retrieval/check-sets.js';
import type { Question, QuestionSet } from './retrieval/sets.js';

const here = dirname(fileURLToPath(import.meta.url));

/** Goals of issue 28 by folder size (MB): server time of a search, p95. */
const P95_GOAL_MS: Record<number, number> = { 20: 20, 200: 50 };
/** Share of the questions whose page must be among the first 3 hits of their typed words. */
const TOP3_GOAL = 0.8;
// Words that frame a question rather than say what it is about: a visitor does not type them.
const FRAME_WORDS = new Set(['make', 'use', 'using', 'get', 'need', 'want', 'way', 'possible', 'able', 'work']);
const TOKEN = /[\p{L}\p{N}]+(?:[._'-][\p{L}\p{N}]+)*/gu;

/**
 * What a visitor types into the box for a question: its first `words` telling words (not stop
 * words, not the words that frame a question, as written: `Bun.serve` stays whole), the last
 * one cut to two thirds of its letters (at least 3; a word of 4 letters or fewer is typed
 * whole), as a visitor stops typing once hits show. The same rule for every set, so a set added
 * later is covered.
 */
export function typedQuery(question: string, words = 3): string {
  const telling = (question.match(TOKEN) ?? []).filter((token) => {
    const lower = token.toLowerCase();
    return lower.length > 1 && !STOP_WORDS.has(lower) && !FRAME_WORDS.has(lower);
  });
  const chosen = telling.slice(0, words);
  if (chosen.length === 0) return '';
  const last = chosen[chosen.length - 1]!;
  if (last.length > 4) chosen[chosen.length - 1] = last.slice(0, Math.max(3, Math.ceil((last.length * 2) / 3)));
  return chosen.join(' ');
}

/**
 * Search as you type. Speed: the local Answer API as the package ships it (kb-scale's built
 * server process) over kb-scale's generated folders, answering every keystroke of the Fastify
 * questions typed (`typedQuery`, from the second character) over loopback, one at a time, after
 * a warm-up round (`warmUp`; a quick run, whose figures are not judged, goes without): p50 and p95 against the same server answering the whole questions. Quality:
 * every evaluation set (retrieval/sets.ts and the held-out sets; the sealed ones too with
 * `BENCH_SEALED=1`, as in the retrieval section), each question typed as its first 3 telling
 * words (2 in a note), the right page among the first 3 hits, against the answer's first 3
 * sources for the whole question.
 */
export async function benchSearch(report: Report, { sizes, rounds, warmUp, sets, halves = false }: { sizes: number[]; rounds: number; warmUp: boolean; sets?: string[]; halves?: boolean }): Promise<void> {
  await quality(report, await evaluationSets('search', sets), halves);
  const entry = nodeBuild();
  const key = `bench-${randomBytes(12).toString('hex')}`;
  for (const megabytes of sizes) await speed(report, megabytes, rounds, warmUp, { BENCH_UPSTREAM_ENTRY: entry, BENCH_UPSTREAM_KEY: key });
}

async function speed(report: Report, megabytes: number, rounds: number, warmUp: boolean, server: Record<string, string>): Promise<void> {
  const folder = await docsFolder(megabytes * 1_000_000);
  const index = await mkdtemp(join(tmpdir(), 'bench-search-index-'));
  const fastify = JSON.parse(readFileSync(join(here, 'retrieval', 'fastify-questions.json'), 'utf8')) as { questions: Question[] };
  const keystrokes = fastify.questions.flatMap((q) => {
    const typed = typedQuery(q.question);
    return Array.from({ length: Math.max(0, typed.length - 1) }, (_, i) => typed.slice(0, i + 2));
  });
  const child = await startBuiltChild('upstream-built', { ...server, BENCH_KB: folder.dir, BENCH_KB_BASE_URL: 'https://docs.example.com/', BENCH_KB_INDEX: index }, { quiet: true, nodeFlags: cliNodeFlags(server.BENCH_UPSTREAM_ENTRY!) });
  const headers = { authorization: `Bearer ${server.BENCH_UPSTREAM_KEY}` };
  try {
    const search = async (q: string): Promise<{ ms: number; cpu: number }> => {
      const before = await child.ask<NodeJS.CpuUsage>('cpu-own');
      const t = performance.now();
      const response = await fetch(`${child.url}/v1/search?${new URLSearchParams({ bot_id: 'demo', q })}`, { headers });
      if (response.status !== 200) throw new Error(`search ${JSON.stringify(q)}: ${response.status}`);
      await response.arrayBuffer();
      const ms = performance.now() - t;
      const after = await child.ask<NodeJS.CpuUsage>('cpu-own');
      return { ms, cpu: (after.user - before.user + after.system - before.system) / 1000 };
    };
    if (warmUp) for (const q of keystrokes) await search(q);
    const times: number[] = [];
    const cpu: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const q of keystrokes) {
        const one = await search(q);
        times.push(one.ms);
        cpu.push(one.cpu);
      }
    }
    const answers: number[] = [];
    for (const q of fastify.questions) {
      const t = performance.now();
      const response = await fetch(`${child.url}/v1/answer`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ message: q.question, bot_id: 'demo' }) });
      await response.arrayBuffer();
      answers.push(performance.now() - t);
    }
    const at = `${megabytes} MB`;
    const size = `${(folder.bytes / 1e6).toFixed(1)} MB, ${folder.files} files`;
    const note = `${times.length} searches one at a time over loopback (${rounds} rounds of every keystroke, from the second character, of the ${fastify.questions.length} Fastify questions typed as their first 3 telling words${warmUp ? '; after a warm-up round' : ''}); the server's own CPU per search p50 ${median(cpu).toFixed(1)} ms, p95 ${percentile(cpu, 95).toFixed(1)} ms; baseline: the same server answering the whole questions (POST /v1/answer, JSON); ${size}`;
    const goal = P95_GOAL_MS[megabytes];
    const baseline = (p: number) => ({ label: 'answer to the whole question', value: percentile(answers, p) });
    report.add({ section: 'search', id: `${megabytes}mb.p50`, label: `${at}: search time p50`, value: median(times), unit: 'ms', baseline: baseline(50), note });
    const p95 = percentile(times, 95);
    report.add({ section: 'search', id: `${megabytes}mb.p95`, label: `${at}: search time p95`, value: p95, unit: 'ms', baseline: baseline(95), ...(goal === undefined ? {} : { goal: `<= ${goal} ms`, met: p95 <= goal }), note });
  } finally {
    await child.stop();
    await rm(index, { recursive: true, force: true });
  }
}

/** A half of a set's questions: `tune` at even places, `eval` at odd ones. */
type Half = 'tune' | 'eval';
const HALVES: readonly Half[] = ['tune', 'eval'];

/**
 * The quality figures; with `halves`, also each set's and every set's by halves: a set's questions
 * at even places (0, 2, ...) are the tune half, those at odd places the eval half. Ranking is tuned
 * on the tune half, looking at its misses only (the only ones printed then); the eval half says
 * whether a change generalises.
 */
async function quality(report: Report, sets: QuestionSet[], halves: boolean): Promise<void> {
  let right = 0;
  let total = 0;
  let answered = 0;
  const byHalf = { tune: { right: 0, total: 0 }, eval: { right: 0, total: 0 } };
  for (const set of sets) {
    const outcome = await searchSet(set);
    right += outcome.top3;
    answered += outcome.answerTop3;
    total += outcome.questions;
    const note = `${set.label}; typed as the first 2 telling words: ${outcome.top3Two} of ${outcome.questions}; baseline: the answer's first 3 sources for the whole question`;
    report.add({ section: 'search', id: `${set.id}.top3`, label: `${set.id}: right page among the first 3 hits, typed`, value: outcome.top3, unit: `of ${outcome.questions}`, baseline: { label: 'answer to the whole question', value: outcome.answerTop3 }, note });
    if (halves) {
      for (const half of HALVES) {
        const count = outcome.halves[half];
        byHalf[half].right += count.right;
        byHalf[half].total += count.total;
        report.add({ section: 'search', id: `${set.id}.top3.${half}`, label: `${set.id}: right page among the first 3 hits, typed (${half} half)`, value: count.right, unit: `of ${count.total}`, note: `${set.label}; questions at ${half === 'tune' ? 'even' : 'odd'} places` });
      }
    }
    // Misses of held-out sets are left out, and by halves those of the eval half: looking at them would tune to them.
    if (!set.heldOut) for (const miss of outcome.misses.filter((m) => !halves || m.half === 'tune')) process.stderr.write(`bench: search ${set.id}: not in the first 3: ${miss.line}\n`);
  }
  if (halves) {
    for (const half of HALVES) {
      const count = byHalf[half];
      report.add({ section: 'search', id: `all.top3.${half}`, label: `every set: right page among the first 3 hits, typed (${half} half)`, value: count.right, unit: `of ${count.total}`, note: `each set's questions at ${half === 'tune' ? 'even' : 'odd'} places` });
    }
  }
  report.add({
    section: 'search',
    id: 'all.top3',
    label: 'every set: right page among the first 3 hits, typed',
    value: right,
    unit: `of ${total}`,
    baseline: { label: 'answer to the whole question', value: answered },
    goal: '>= 80%',
    met: right >= TOP3_GOAL * total,
    note: `${sets.map((s) => s.id).join(', ')}; each question typed as its first 3 telling words, the last cut to two thirds (typedQuery)`,
  });
}

/** One set's questions searched as typed (3 and 2 words), and answered whole, in-process. */
async function searchSet(
  set: QuestionSet,
): Promise<{ questions: number; top3: number; top3Two: number; answerTop3: number; misses: Array<{ half: Half; line: string }>; halves: Record<Half, { right: number; total: number }> }> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-search-set-'));
  try {
    const bot = (await loadBots(set.dir, undefined, { kbSettings: set.settings, indexFolder: folder, watch: false })).get('demo')!;
    try {
      const settings = resolveSettings(set.dir, set.settings);
      const pageOf = (url: string): string => url.replace(/#.*$/, '');
      const expected = (q: Question): Set<string> => new Set(q.expectUrl ? [q.expectUrl] : (q.expect ?? []).map((path) => documentUrl(path, settings)!));
      const inTop3 = (urls: string[], q: Question): boolean => urls.slice(0, 3).some((url) => expected(q).has(pageOf(url)));
      let top3 = 0;
      let top3Two = 0;
      let answerTop3 = 0;
      const misses: Array<{ half: Half; line: string }> = [];
      const halves = { tune: { right: 0, total: 0 }, eval: { right: 0, total: 0 } };
      for (const [place, q] of set.questions.entries()) {
        const typed = typedQuery(q.question);
        const hits = bot.search(typed, 6).map((r) => r.url);
        const half: Half = place % 2 === 0 ? 'tune' : 'eval';
        halves[half].total++;
        if (inTop3(hits, q)) {
          top3++;
          halves[half].right++;
        } else misses.push({ half, line: `${JSON.stringify(typed)} (${q.question}) -> ${hits.slice(0, 3).map(pageOf).join(', ') || 'nothing'}` });
        if (inTop3(bot.search(typedQuery(q.question, 2), 6).map((r) => r.url), q)) top3Two++;
        const answer = bot.answer(q.question, false);
        if (answer.answer_found && inTop3(answer.sources.map((s) => s.url ?? ''), q)) answerTop3++;
      }
      return { questions: set.questions.length, top3, top3Two, answerTop3, misses, halves };
    } finally {
      bot.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
