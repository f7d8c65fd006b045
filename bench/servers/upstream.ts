/**
 * The local Answer API in its own process, for the proxy and knowledge-base benchmarks. Pacing
 * comes from BENCH_PACE_MS (0: off) and BENCH_WORDS_PER_CHUNK; BENCH_KB (with
 * BENCH_KB_BASE_URL) serves another folder than the sample knowledge base, unwatched, with its
 * index in BENCH_KB_INDEX (default: the usual cache folder). The
 * parent can ask it `wait-abort` (the next request its client aborted, with the time it saw
 * the abort) and `load-ms` (how long start-up took, knowledge base loading and indexing included, in wall
 * and CPU time).
 */
import { performance } from 'node:perf_hooks';
import { startAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { fail, onAsk, ready } from './serve.js';

try {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const api = await startAnswerApi({
    port: 0,
    paceMs: Number(process.env.BENCH_PACE_MS ?? 0),
    wordsPerChunk: Number(process.env.BENCH_WORDS_PER_CHUNK ?? 3),
    keys: process.env.BENCH_UPSTREAM_KEY ? [process.env.BENCH_UPSTREAM_KEY] : [],
    ...(process.env.BENCH_KB ? { kb: process.env.BENCH_KB, kbBaseUrl: process.env.BENCH_KB_BASE_URL, watch: false } : {}),
    ...(process.env.BENCH_KB_INDEX ? { kbIndex: process.env.BENCH_KB_INDEX } : {}),
  });
  const loadMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const loadCpuMs = (cpu.user + cpu.system) / 1000;
  onAsk('load-ms', () => ({ wall: loadMs, cpu: loadCpuMs }));
  onAsk('documents', () => api.bots[0]!.documents);
  onAsk('wait-abort', async () => {
    const record = await api.waitForAbort();
    return { id: record.id, startedAt: record.startedAt, abortedAt: record.abortedAt };
  });
  // The request log grows with every request; the load runs make hundreds of thousands.
  onAsk('forget', () => void api.requests.splice(0));
  onAsk('count', () => api.requests.length);
  process.on('SIGTERM', () => void api.close().then(() => process.exit(0)));
  ready(api.url, api.keys);
} catch (error) {
  fail(error);
}
