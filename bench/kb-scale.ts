import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild, type ServerChild } from './lib/child.js';
import type { Figure, Report } from './lib/report.js';
import { median, percentile } from './lib/stats.js';
import { FASTIFY_DOCS } from './retrieval.js';
import { prng } from './lib/prng.js';

const here = dirname(fileURLToPath(import.meta.url));

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ten', 'vor', 'qua', 'zel', 'bri', 'dan', 'sup', 'ex', 'ol', 'tri', 'mon', 'pel', 'gar', 'nu', 'fis', 'yo'];

/**
 * Writes a documentation folder of at least `bytes` bytes: copies of the Fastify docs, one
 * folder per copy, each with about one word in 25 replaced by a made-up word (20,000 of them),
 * so the copies differ and the vocabulary grows as a real large docs set's does.
 */
export async function generateDocsFolder(dir: string, bytes: number): Promise<{ files: number; bytes: number }> {
  const sources: Array<{ path: string; text: string }> = [];
  for (const entry of await readdir(FASTIFY_DOCS, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    const file = join(entry.parentPath, entry.name);
    sources.push({ path: file.slice(FASTIFY_DOCS.length + 1), text: await readFile(file, 'utf8') });
  }
  sources.sort((a, b) => (a.path < b.path ? -1 : 1));
  const next = prng(15);
  const vocabulary = Array.from({ length: 20_000 }, () => {
    let word = '';
    for (let i = 2 + Math.floor(next() * 3); i > 0; i--) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    return word;
  });
  let written = 0;
  let files = 0;
  for (let copy = 0; written < bytes; copy++) {
    for (const { path, text } of sources) {
      const varied = text.replace(/[A-Za-z]{4,}/g, (word) => (next() < 0.04 ? vocabulary[Math.floor(next() * vocabulary.length)]! : word));
      const file = join(dir, `part-${String(copy).padStart(3, '0')}`, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, varied);
      written += Buffer.byteLength(varied);
      files++;
    }
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

/**
 * Knowledge-base scale: for each size, a generated documentation folder served by the local
 * Answer API in its own process: start-up with the index built from nothing (cold) and with it
 * reused (warm), in wall and CPU time; the latency of JSON answers over loopback, one request at
 * a time, for the Fastify questions and off-topic ones (p50, p95); resident memory and JS heap
 * serving it after a forced GC, against the same process serving the sample knowledge base.
 */
export async function benchKbScale(report: Report, { sizes, rounds }: { sizes: number[]; rounds: number }): Promise<void> {
  const key = `bench-${randomBytes(12).toString('hex')}`;
  const baseline = await startChild('upstream', { BENCH_UPSTREAM_KEY: key, BENCH_KB_INDEX: join(tmpdir(), 'bench-kb-scale-sample-index') }, { quiet: true });
  const baselineMemory = await baseline.ask<Memory>('mem');
  await baseline.stop();
  for (const megabytes of sizes) await benchSize(report, megabytes, rounds, key, baselineMemory);
}

async function benchSize(report: Report, megabytes: number, rounds: number, key: string, baselineMemory: Memory): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-kb-scale-'));
  const index = await mkdtemp(join(tmpdir(), 'bench-kb-scale-index-'));
  const children: ServerChild[] = [];
  const env = { BENCH_UPSTREAM_KEY: key, BENCH_KB: dir, BENCH_KB_BASE_URL: 'https://docs.example.com/', BENCH_KB_INDEX: index };
  try {
    const folder = await generateDocsFolder(dir, megabytes * 1_000_000);
    const cold = await startChild('upstream', env, { quiet: true });
    children.push(cold);
    const coldLoad = await cold.ask<{ wall: number; cpu: number }>('load-ms');
    const documents = await cold.ask<number>('documents');
    await cold.stop();
    children.pop();
    const large = await startChild('upstream', env, { quiet: true });
    children.push(large);
    const warmLoad = await large.ask<{ wall: number; cpu: number }>('load-ms');

    const fastify = JSON.parse(readFileSync(join(here, 'retrieval', 'fastify-questions.json'), 'utf8')) as { questions: Array<{ question: string }>; offTopic: string[] };
    const questions = [...fastify.questions.map((q) => q.question), ...fastify.offTopic];
    const times: number[] = [];
    let answered = 0;
    const cpuBefore = await large.ask<NodeJS.CpuUsage>('cpu');
    for (let round = 0; round < rounds; round++) {
      for (const message of questions) {
        const t = performance.now();
        const response = await fetch(`${large.url}/v1/answer`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ message, bot_id: 'demo' }),
        });
        const body = (await response.json()) as { answer_found?: boolean };
        times.push(performance.now() - t);
        if (round === 0 && body.answer_found) answered++;
      }
    }
    const cpuAfter = await large.ask<NodeJS.CpuUsage>('cpu');
    const memory = await large.ask<Memory>('mem');
    const cpuPerAnswer = (cpuAfter.user - cpuBefore.user + cpuAfter.system - cpuBefore.system) / 1000 / times.length;
    const size = `${(folder.bytes / 1e6).toFixed(1)} MB, ${folder.files} files (${documents} served)`;
    const goal = GOALS[megabytes] ?? {};
    const section = 'kb-scale';
    const at = `${megabytes} MB`;
    const goalOf = (limit: number | undefined, value: number, unit: string): Partial<Figure> => (limit === undefined ? {} : { goal: `<= ${limit} ${unit}`, met: value <= limit });
    report.add({ section, id: `${megabytes}mb.cold`, label: `${at}: start-up, index built from nothing (wall)`, value: coldLoad.wall / 1000, unit: 's', ...goalOf(goal.coldS, coldLoad.wall / 1000, 's'), note: `CPU ${(coldLoad.cpu / 1000).toFixed(1)} s (user + system of the server process, which other load does not inflate); ${size}` });
    report.add({ section, id: `${megabytes}mb.warm`, label: `${at}: start-up, index reused (wall)`, value: warmLoad.wall / 1000, unit: 's', ...goalOf(goal.warmS, warmLoad.wall / 1000, 's'), note: `CPU ${(warmLoad.cpu / 1000).toFixed(2)} s; every file listed and compared, none read; ${size}` });
    const note = `${times.length} JSON requests one at a time over loopback (${rounds} rounds of ${questions.length} questions; ${answered} answered in the first); server CPU per answer ${cpuPerAnswer.toFixed(1)} ms (the answer time on an idle core); ${size}`;
    report.add({ section, id: `${megabytes}mb.p50`, label: `${at}: answer time p50`, value: median(times), unit: 'ms', note });
    const p95 = percentile(times, 95);
    report.add({ section, id: `${megabytes}mb.p95`, label: `${at}: answer time p95`, value: p95, unit: 'ms', ...goalOf(goal.p95Ms, p95, 'ms'), note });
    const mib = (n: number): number => n / 1024 / 1024;
    const memNote = `after the answers and a forced GC; JS heap ${mib(memory.heapUsed).toFixed(1)} MiB; baseline: the same process serving the sample knowledge base; ${size}`;
    report.add({ section, id: `${megabytes}mb.rss`, label: `${at}: resident memory (RSS) serving it`, value: mib(memory.rss), unit: 'MiB', baseline: { label: 'sample knowledge base', value: mib(baselineMemory.rss) }, ...goalOf(goal.rssMiB, mib(memory.rss), 'MiB'), note: memNote });
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await rm(dir, { recursive: true, force: true });
    await rm(index, { recursive: true, force: true });
  }
}
