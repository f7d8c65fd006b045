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

export interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Where the RSS is (`servers/upstream-built.mjs`, Linux only), in bytes. */
  parts?: { anon?: number; file?: number; shmem?: number; brk?: number; v8?: number };
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

/** How the kb-scale section runs: `repeat` runs of each size (cold then warm each time), reported by their median and range. */
export interface KbScaleSettings {
  sizes: number[];
  rounds: number;
  repeat: number;
}

/**
 * Knowledge-base scale: for each size, a generated documentation folder served by the local
 * Answer API as the package ships it (compiled JavaScript: a TypeScript loader would add its
 * own memory), in a process of its own: started with the index built from nothing (cold),
 * then again with it reused (warm), in wall and CPU time; in each, the latency of JSON
 * answers over loopback, one request at a time, for the Fastify questions and off-topic ones
 * (p50, p95), and resident memory and JS heap serving them after a forced GC, against the
 * same process serving the sample knowledge base. With `repeat` above 1 the whole is run that
 * many times per size, each over an index of its own, and each figure is the median of the
 * runs, its range in the note: one noisy run decides nothing.
 */
export async function benchKbScale(report: Report, { sizes, rounds, repeat }: KbScaleSettings): Promise<void> {
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
  for (const megabytes of sizes) await benchSize(report, megabytes, rounds, repeat, { BENCH_UPSTREAM_ENTRY: entry, BENCH_UPSTREAM_KEY: key }, baselineMemory);
}

/** Starts a server over the folder, waits for it to be ready and asks it the questions `rounds` times. */
export async function serve(env: Record<string, string>, rounds: number, questions: string[]): Promise<Served> {
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

/** The median of values, and with more than one their range for a note: "; median of 5 runs, 139-152 MiB". */
function acrossRuns(values: number[], format: (n: number) => string): { value: number; range: string } {
  if (values.length < 2) return { value: values[0]!, range: '' };
  return { value: median(values), range: `; median of ${values.length} runs, ${format(Math.min(...values))}-${format(Math.max(...values))}` };
}

async function benchSize(report: Report, megabytes: number, rounds: number, repeat: number, server: Record<string, string>, baselineMemory: Memory): Promise<void> {
  const folder = await docsFolder(megabytes * 1_000_000);
  const fastify = JSON.parse(readFileSync(join(here, 'retrieval', 'fastify-questions.json'), 'utf8')) as { questions: Array<{ question: string }>; offTopic: string[] };
  const questions = [...fastify.questions.map((q) => q.question), ...fastify.offTopic];
  const runs: Array<{ cold: Served; warm: Served }> = [];
  for (let run = 0; run < repeat; run++) {
    const index = await mkdtemp(join(tmpdir(), 'bench-kb-scale-index-'));
    const env = { ...server, BENCH_KB: folder.dir, BENCH_KB_BASE_URL: 'https://docs.example.com/', BENCH_KB_INDEX: index };
    try {
      const cold = await serve(env, rounds, questions);
      const warm = await serve(env, rounds, questions);
      runs.push({ cold, warm });
    } finally {
      await rm(index, { recursive: true, force: true });
    }
  }
  const size = `${(folder.bytes / 1e6).toFixed(1)} MB, ${folder.files} files`;
  const goal = GOALS[megabytes] ?? {};
  const section = 'kb-scale';
  const at = `${megabytes} MB`;
  const goalOf = (limit: number | undefined, value: number, unit: string): Partial<Figure> => (limit === undefined ? {} : { goal: `<= ${limit} ${unit}`, met: value <= limit });
  const mib = (n: number): number => n / 1024 / 1024;
  const of = (side: 'cold' | 'warm', figure: (served: Served) => number, format: (n: number) => string) => acrossRuns(runs.map((r) => figure(r[side])), format);
  const s1 = (n: number): string => `${n.toFixed(1)} s`;
  const ms = (n: number): string => `${n.toFixed(1)} ms`;
  const mb = (n: number): string => `${n.toFixed(0)} MiB`;
  const coldWall = of('cold', (r) => r.load.wall / 1000, s1);
  const coldCpu = of('cold', (r) => r.load.cpu / 1000, s1);
  report.add({ section, id: `${megabytes}mb.cold`, label: `${at}: start-up, index built from nothing (wall)`, value: coldWall.value, unit: 's', ...goalOf(goal.coldS, coldWall.value, 's'), note: `CPU ${s1(coldCpu.value)} (user + system of the server process, all its threads; other load does not inflate it${coldCpu.range}); ${size}${coldWall.range}` });
  const warmWall = of('warm', (r) => r.load.wall / 1000, (n) => `${n.toFixed(2)} s`);
  const warmCpu = of('warm', (r) => r.load.cpu / 1000, (n) => `${n.toFixed(2)} s`);
  report.add({ section, id: `${megabytes}mb.warm`, label: `${at}: start-up, index reused (wall)`, value: warmWall.value, unit: 's', ...goalOf(goal.warmS, warmWall.value, 's'), note: `CPU ${warmCpu.value.toFixed(2)} s; every file listed and compared, none read; ${size}${warmWall.range}` });
  const p50 = of('cold', (r) => median(r.times), ms);
  const p95 = of('cold', (r) => percentile(r.times, 95), ms);
  const warmP50 = of('warm', (r) => median(r.times), ms);
  const warmP95 = of('warm', (r) => percentile(r.times, 95), ms);
  const note = `in the process that built the index: ${runs[0]!.cold.times.length} JSON requests one at a time over loopback (${rounds} rounds of ${questions.length} questions; ${runs[0]!.cold.answered} answered in the first); index reused: p50 ${ms(warmP50.value)}, p95 ${ms(warmP95.value)}; ${size}`;
  report.add({ section, id: `${megabytes}mb.p50`, label: `${at}: answer time p50`, value: p50.value, unit: 'ms', note: `${note}${p50.range}` });
  report.add({ section, id: `${megabytes}mb.p95`, label: `${at}: answer time p95`, value: p95.value, unit: 'ms', ...goalOf(goal.p95Ms, p95.value, 'ms'), note: `${note}${p95.range}` });
  const cpu95 = of('cold', (r) => percentile(r.cpu, 95), ms);
  const cpuNote = `the server's own CPU time for each answer (the HTTP request included; the time it would take on an idle core), in the process that built the index: p50 ${ms(of('cold', (r) => median(r.cpu), ms).value)}, max ${ms(of('cold', (r) => percentile(r.cpu, 100), ms).value)}; index reused: p50 ${ms(of('warm', (r) => median(r.cpu), ms).value)}, p95 ${ms(of('warm', (r) => percentile(r.cpu, 95), ms).value)}; ${size}${cpu95.range}`;
  report.add({ section, id: `${megabytes}mb.cpu95`, label: `${at}: server CPU per answer p95`, value: cpu95.value, unit: 'ms', note: cpuNote });
  const baseline = { label: 'sample knowledge base', value: mib(baselineMemory.rss) };
  for (const side of ['cold', 'warm'] as const) {
    const rss = of(side, (r) => mib(r.memory.rss), mb);
    const heap = of(side, (r) => mib(r.memory.heapUsed), mb).value;
    const parts = runs[0]![side].memory.parts;
    const detail = parts?.anon === undefined ? '' : `; of the RSS (median): V8's heap ${mb(of(side, (r) => mib(r.memory.parts!.v8!), mb).value)}, other anonymous memory (the allocator's: SQLite's, the threads') ${mb(of(side, (r) => mib(r.memory.parts!.anon! - r.memory.parts!.v8!), mb).value)}, files mapped (the binary, libraries) ${mb(of(side, (r) => mib(r.memory.parts!.file!), mb).value)}`;
    const who = side === 'cold' ? 'the process that built the index' : 'a process started again over the index built (a restart)';
    report.add({
      section,
      id: side === 'cold' ? `${megabytes}mb.rss` : `${megabytes}mb.rss-warm`,
      label: side === 'cold' ? `${at}: resident memory (RSS) serving it` : `${at}: resident memory (RSS) serving it, index reused`,
      value: rss.value,
      unit: 'MiB',
      baseline,
      ...goalOf(goal.rssMiB, rss.value, 'MiB'),
      note: `${who}, after its answers and a forced GC; JS heap ${heap.toFixed(1)} MiB${detail}; baseline: the same server serving the sample knowledge base; ${size}${rss.range}`,
    });
  }
}
