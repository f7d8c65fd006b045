import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild, type ServerChild } from './lib/child.js';
import type { Report } from './lib/report.js';
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

/**
 * Knowledge-base scale: a generated documentation folder of `megabytes` MB served by the local
 * Answer API in its own process: start-up time (reading, parsing, indexing), memory after a
 * forced GC against the same process serving the sample knowledge base, and the latency of
 * JSON answers over loopback, one request at a time, for the Fastify questions and off-topic ones.
 */
export async function benchKbScale(report: Report, { megabytes, rounds }: { megabytes: number; rounds: number }): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-kb-scale-'));
  const children: ServerChild[] = [];
  try {
    const folder = await generateDocsFolder(dir, megabytes * 1_000_000);
    const key = `bench-${randomBytes(12).toString('hex')}`;
    const baseline = await startChild('upstream', { BENCH_UPSTREAM_KEY: key }, { quiet: true });
    children.push(baseline);
    const baselineMemory = await baseline.ask<Memory>('mem');
    await baseline.stop();
    children.pop();
    const large = await startChild('upstream', { BENCH_UPSTREAM_KEY: key, BENCH_KB: dir, BENCH_KB_BASE_URL: 'https://docs.example.com/' }, { quiet: true });
    children.push(large);
    const load = await large.ask<{ wall: number; cpu: number }>('load-ms');
    const loadMs = load.wall;
    const documents = await large.ask<number>('documents');
    const memory = await large.ask<Memory>('mem');

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
    const cpuPerAnswer = (cpuAfter.user - cpuBefore.user + cpuAfter.system - cpuBefore.system) / 1000 / times.length;
    const size = `${(folder.bytes / 1e6).toFixed(1)} MB, ${folder.files} files (${documents} served)`;
    // The goals are set for 20 MB; a smaller (quick) run only shows the section works.
    const goals = megabytes >= 20;
    report.add({
      section: 'kb-scale',
      id: 'load',
      label: `start-up with a ${megabytes} MB docs folder (read, parse, index)`,
      value: loadMs / 1000,
      unit: 's',
      ...(goals ? { goal: '< 15 s', met: loadMs < 15_000 } : {}),
      note: size,
    });
    report.add({
      section: 'kb-scale',
      id: 'load.cpu',
      label: 'start-up CPU time (the same start-up)',
      value: load.cpu / 1000,
      unit: 's',
      note: `user + system CPU of the server process: what the start-up costs whatever else the machine runs; ${size}`,
    });
    const note = `${times.length} JSON requests one at a time over loopback (${rounds} rounds of ${questions.length} questions; ${answered} answered in the first); ${size}`;
    report.add({ section: 'kb-scale', id: 'answer.p50', label: 'answer time p50', value: median(times), unit: 'ms', ...(goals ? { goal: '< 50 ms', met: median(times) < 50 } : {}), note });
    report.add({
      section: 'kb-scale',
      id: 'answer.cpu',
      label: 'server CPU time per answer',
      value: cpuPerAnswer,
      unit: 'ms',
      note: `user + system CPU of the server process over the same requests, divided by their number: the answer time on an idle core; ${size}`,
    });
    report.add({ section: 'kb-scale', id: 'answer.p99', label: 'answer time p99', value: percentile(times, 99), unit: 'ms', note });
    const mib = (n: number): number => n / 1024 / 1024;
    const memNote = `after a forced GC; baseline: the same process serving the sample knowledge base; ${size}`;
    report.add({ section: 'kb-scale', id: 'rss', label: 'process memory (RSS) serving it', value: mib(memory.rss), unit: 'MiB', baseline: { label: 'sample knowledge base', value: mib(baselineMemory.rss) }, note: memNote });
    report.add({
      section: 'kb-scale',
      id: 'heap',
      label: 'JS heap used serving it',
      value: mib(memory.heapUsed),
      unit: 'MiB',
      baseline: { label: 'sample knowledge base', value: mib(baselineMemory.heapUsed) },
      note: memNote,
    });
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}
