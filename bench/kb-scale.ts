import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliNodeFlags, nodeBuild } from './lib/build-node.js';
import { startBuiltChild } from './lib/child.js';
import type { Figure, Report } from './lib/report.js';
import { median, percentile } from './lib/stats.js';
import { FASTIFY_DOCS } from './retrieval.js';
import { prng } from './lib/prng.js';

const here = dirname(fileURLToPath(import.meta.url));

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ten', 'vor', 'qua', 'zel', 'bri', 'dan', 'sup', 'ex', 'ol', 'tri', 'mon', 'pel', 'gar', 'nu', 'fis', 'yo'];

/** Changes whenever the folders `generateDocsFolder` writes change, so a cached folder of another version is written anew. */
const GENERATOR_VERSION = 1;
const CACHE = join(here, 'out', 'kb-scale');
/** Marks a cached folder written to its end (hidden files are not read as documents). */
const COMPLETE = '.complete.json';

/**
 * A documentation folder of at least `bytes` bytes (see `writeDocsFolder`), kept in
 * `bench/out/kb-scale/` between runs: the same size, generator and Fastify docs give the same
 * folder, so it is written once. A folder left half-written is written anew.
 */
export async function docsFolder(bytes: number): Promise<{ dir: string; files: number; bytes: number }> {
  const sources = await fastifySources();
  const version = `v${GENERATOR_VERSION}-${createHash('sha256').update(JSON.stringify(sources)).digest('hex').slice(0, 12)}`;
  const dir = join(CACHE, version, `${bytes}`);
  try {
    const done = JSON.parse(await readFile(join(dir, COMPLETE), 'utf8')) as { files: number; bytes: number };
    return { dir, ...done };
  } catch {
    // Not there, or not finished: written below.
  }
  // Folders of another generator or other Fastify docs are not used again.
  for (const other of await readdir(CACHE).catch(() => [])) if (other !== version) await rm(join(CACHE, other), { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const written = await writeDocsFolder(dir, bytes, sources);
  await writeFile(join(dir, COMPLETE), JSON.stringify(written));
  return { dir, ...written };
}

async function fastifySources(): Promise<Array<{ path: string; text: string }>> {
  const sources: Array<{ path: string; text: string }> = [];
  for (const entry of await readdir(FASTIFY_DOCS, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    const file = join(entry.parentPath, entry.name);
    sources.push({ path: file.slice(FASTIFY_DOCS.length + 1), text: await readFile(file, 'utf8') });
  }
  return sources.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/**
 * Writes a documentation folder of at least `bytes` bytes: copies of the Fastify docs, one
 * folder per copy, each with about one word in 25 replaced by a made-up word (20,000 of them),
 * so the copies differ and the vocabulary grows as a real large docs set's does.
 */
async function writeDocsFolder(dir: string, bytes: number, sources: Array<{ path: string; text: string }>): Promise<{ files: number; bytes: number }> {
  const next = prng(15);
  const vocabulary = Array.from({ length: 20_000 }, () => {
    let word = '';
    for (let i = 2 + Math.floor(next() * 3); i > 0; i--) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    return word;
  });
  let written = 0;
  let files = 0;
  for (let copy = 0; written < bytes; copy++) {
    const writes: Array<Promise<void>> = [];
    for (const { path, text } of sources) {
      const varied = text.replace(/[A-Za-z]{4,}/g, (word) => (next() < 0.04 ? vocabulary[Math.floor(next() * vocabulary.length)]! : word));
      const file = join(dir, `part-${String(copy).padStart(3, '0')}`, path);
      writes.push(mkdir(dirname(file), { recursive: true }).then(() => writeFile(file, varied)));
      written += Buffer.byteLength(varied);
      files++;
    }
    await Promise.all(writes);
  }
  return { files, bytes: written };
}

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** Goals of the issue by folder size (MB): ready (cold) for 3 MB; cold build, warm start, p95 and memory for 200 MB. */
const GOALS: Record<number, { coldS?: number; warmS?: number; p95Ms?: number; rssMiB?: number }> = {
  3: { coldS: 3 },
  200: { coldS: 60, warmS: 3, p95Ms: 100, rssMiB: 150 },
};

/** How one server process started and answered. */
interface Served {
  load: { wall: number; cpu: number };
  times: number[];
  /** Server CPU time of each answer (ms). */
  cpu: number[];
  answered: number;
  memory: Memory;
}

/**
 * Knowledge-base scale: for each size, a generated documentation folder served by the local
 * Answer API as the package ships it (compiled JavaScript: a TypeScript loader would add its
 * own memory), in a process of its own: started with the index built from nothing (cold),
 * then again with it reused (warm), in wall and CPU time; in each, the latency of JSON
 * answers over loopback, one request at a time, for the Fastify questions and off-topic ones
 * (p50, p95), and resident memory and JS heap serving them after a forced GC, against the
 * same process serving the sample knowledge base.
 */
export async function benchKbScale(report: Report, { sizes, rounds }: { sizes: number[]; rounds: number }): Promise<void> {
  const key = `bench-${randomBytes(12).toString('hex')}`;
  const entry = nodeBuild();
  const sampleIndex = await mkdtemp(join(tmpdir(), 'bench-kb-scale-sample-index-'));
  let baselineMemory: Memory;
  try {
    const baseline = await startBuiltChild('upstream-built', { BENCH_UPSTREAM_ENTRY: entry, BENCH_UPSTREAM_KEY: key, BENCH_KB_INDEX: sampleIndex }, { quiet: true, nodeFlags: cliNodeFlags(entry) });
    baselineMemory = await baseline.ask<Memory>('mem');
    await baseline.stop();
  } finally {
    await rm(sampleIndex, { recursive: true, force: true });
  }
  for (const megabytes of sizes) await benchSize(report, megabytes, rounds, { BENCH_UPSTREAM_ENTRY: entry, BENCH_UPSTREAM_KEY: key }, baselineMemory);
}

/** Starts a server over the folder, waits for it to be ready and asks it the questions `rounds` times. */
async function serve(env: Record<string, string>, rounds: number, questions: string[]): Promise<Served> {
  const child = await startBuiltChild('upstream-built', env, { quiet: true, nodeFlags: cliNodeFlags(env.BENCH_UPSTREAM_ENTRY!) });
  try {
    const load = await child.ask<{ wall: number; cpu: number }>('load-ms');
    const times: number[] = [];
    const cpu: number[] = [];
    let answered = 0;
    for (let round = 0; round < rounds; round++) {
      for (const message of questions) {
        const before = await child.ask<NodeJS.CpuUsage>('cpu-own');
        const t = performance.now();
        const response = await fetch(`${child.url}/v1/answer`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.BENCH_UPSTREAM_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ message, bot_id: 'demo' }),
        });
        const body = (await response.json()) as { answer_found?: boolean };
        times.push(performance.now() - t);
        const after = await child.ask<NodeJS.CpuUsage>('cpu-own');
        cpu.push((after.user - before.user + after.system - before.system) / 1000);
        if (round === 0 && body.answer_found) answered++;
      }
    }
    const memory = await child.ask<Memory>('mem');
    return { load, times, cpu, answered, memory };
  } finally {
    await child.stop();
  }
}

async function benchSize(report: Report, megabytes: number, rounds: number, server: Record<string, string>, baselineMemory: Memory): Promise<void> {
  const folder = await docsFolder(megabytes * 1_000_000);
  const index = await mkdtemp(join(tmpdir(), 'bench-kb-scale-index-'));
  const env = { ...server, BENCH_KB: folder.dir, BENCH_KB_BASE_URL: 'https://docs.example.com/', BENCH_KB_INDEX: index };
  const fastify = JSON.parse(readFileSync(join(here, 'retrieval', 'fastify-questions.json'), 'utf8')) as { questions: Array<{ question: string }>; offTopic: string[] };
  const questions = [...fastify.questions.map((q) => q.question), ...fastify.offTopic];
  try {
    const cold = await serve(env, rounds, questions);
    const warm = await serve(env, rounds, questions);
    const size = `${(folder.bytes / 1e6).toFixed(1)} MB, ${folder.files} files`;
    const goal = GOALS[megabytes] ?? {};
    const section = 'kb-scale';
    const at = `${megabytes} MB`;
    const goalOf = (limit: number | undefined, value: number, unit: string): Partial<Figure> => (limit === undefined ? {} : { goal: `<= ${limit} ${unit}`, met: value <= limit });
    const ms = (times: number[], p: number): string => `${percentile(times, p).toFixed(1)} ms`;
    const mib = (n: number): number => n / 1024 / 1024;
    report.add({ section, id: `${megabytes}mb.cold`, label: `${at}: start-up, index built from nothing (wall)`, value: cold.load.wall / 1000, unit: 's', ...goalOf(goal.coldS, cold.load.wall / 1000, 's'), note: `CPU ${(cold.load.cpu / 1000).toFixed(1)} s (user + system of the server process, all its threads; other load does not inflate it); ${size}` });
    report.add({ section, id: `${megabytes}mb.warm`, label: `${at}: start-up, index reused (wall)`, value: warm.load.wall / 1000, unit: 's', ...goalOf(goal.warmS, warm.load.wall / 1000, 's'), note: `CPU ${(warm.load.cpu / 1000).toFixed(2)} s; every file listed and compared, none read; ${size}` });
    const note = `in the process that built the index: ${cold.times.length} JSON requests one at a time over loopback (${rounds} rounds of ${questions.length} questions; ${cold.answered} answered in the first); index reused: p50 ${ms(warm.times, 50)}, p95 ${ms(warm.times, 95)}; ${size}`;
    report.add({ section, id: `${megabytes}mb.p50`, label: `${at}: answer time p50`, value: median(cold.times), unit: 'ms', note });
    const p95 = percentile(cold.times, 95);
    report.add({ section, id: `${megabytes}mb.p95`, label: `${at}: answer time p95`, value: p95, unit: 'ms', ...goalOf(goal.p95Ms, p95, 'ms'), note });
    const cpuNote = `the server's own CPU time for each answer (the HTTP request included; the time it would take on an idle core), in the process that built the index: p50 ${ms(cold.cpu, 50)}, max ${ms(cold.cpu, 100)}; index reused: p50 ${ms(warm.cpu, 50)}, p95 ${ms(warm.cpu, 95)}; ${size}`;
    report.add({ section, id: `${megabytes}mb.cpu95`, label: `${at}: server CPU per answer p95`, value: percentile(cold.cpu, 95), unit: 'ms', note: cpuNote });
    const memNote = `the process that built the index, after its answers and a forced GC; JS heap ${mib(cold.memory.heapUsed).toFixed(1)} MiB; index reused: ${mib(warm.memory.rss).toFixed(0)} MiB RSS; baseline: the same server serving the sample knowledge base; ${size}`;
    report.add({ section, id: `${megabytes}mb.rss`, label: `${at}: resident memory (RSS) serving it`, value: mib(cold.memory.rss), unit: 'MiB', baseline: { label: 'sample knowledge base', value: mib(baselineMemory.rss) }, ...goalOf(goal.rssMiB, mib(cold.memory.rss), 'MiB'), note: memNote });
  } finally {
    await rm(index, { recursive: true, force: true });
  }
}
