/**
 * The local Answer API as the package ships it (compiled JavaScript, no TypeScript loader in
 * the process), for the knowledge-base scale benchmark: its memory is what a deployment's is.
 * BENCH_UPSTREAM_ENTRY is the compiled `upstream/index.js`; BENCH_KB (with BENCH_KB_BASE_URL)
 * the folder served, unwatched, with its index in BENCH_KB_INDEX. Answers the parent's `mem`,
 * `cpu`, `load-ms` and `documents` as `serve.ts` does for the other servers; its CPU times
 * include the processes it started (a large sync runs in one of its own). `cpu-own` is its own
 * CPU time alone, to the microsecond.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { getHeapStatistics } from 'node:v8';

/** As `cpuMsWithChildren` (lib/cpu.ts), which this plain-JavaScript process cannot import. */
function cpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const [utime, stime, cutime, cstime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 15).map(Number);
    return ((utime + stime + cutime + cstime) * 1000) / 100;
  } catch {
    const own = process.cpuUsage();
    return (own.user + own.system) / 1000;
  }
}

/**
 * Where the resident memory is, in bytes (Linux; empty elsewhere): anonymous, file-backed
 * (the binary and libraries) and shared (SQLite's write-ahead-log index) from /proc/self/status,
 * the main malloc arena (`[heap]`) from /proc/self/smaps, and V8's heap as resident (its
 * physical size); anonymous memory less V8's heap is mostly the allocator's (SQLite's page
 * cache, the other threads' arenas) and the threads' stacks.
 */
function residentParts() {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    const smaps = readFileSync('/proc/self/smaps', 'utf8');
    const brk = /\[heap\]\n(?:.*\n)*?Rss:\s+(\d+) kB/.exec(smaps);
    return { anon: kib('RssAnon'), file: kib('RssFile'), shmem: kib('RssShmem'), brk: Number(brk?.[1] ?? 0) * 1024, v8: getHeapStatistics().total_physical_size };
  } catch {
    return {};
  }
}

const handlers = {
  mem() {
    globalThis.gc?.();
    globalThis.gc?.();
    return { ...process.memoryUsage(), parts: residentParts() };
  },
  cpu: () => {
    const ms = cpuMs();
    return { user: ms * 1000, system: 0 };
  },
  /** This process's own CPU time, to the microsecond (what answering costs; /proc counts in hundredths of a second). */
  'cpu-own': () => process.cpuUsage(),
};
process.on('message', (message) => {
  if (message?.type !== 'ask') return;
  Promise.resolve()
    .then(() => handlers[message.command](message.arg))
    .then(
      (value) => process.send?.({ type: 'reply', id: message.id, value }),
      (error) => process.send?.({ type: 'reply', id: message.id, value: { error: String(error) } }),
    );
});
try {
  const { startAnswerApi } = await import(pathToFileURL(process.env.BENCH_UPSTREAM_ENTRY).href);
  const started = performance.now();
  const cpuBefore = cpuMs();
  const api = await startAnswerApi({
    port: 0,
    keys: [process.env.BENCH_UPSTREAM_KEY],
    ...(process.env.BENCH_KB ? { kb: process.env.BENCH_KB, kbBaseUrl: process.env.BENCH_KB_BASE_URL } : {}),
    kbIndex: process.env.BENCH_KB_INDEX,
    watch: false,
  });
  const load = { wall: performance.now() - started, cpu: cpuMs() - cpuBefore };
  handlers['load-ms'] = () => load;
  handlers.documents = () => api.bots[0].documents;
  process.on('SIGTERM', () => void api.close().then(() => process.exit(0)));
  process.send?.({ type: 'ready', url: api.url, keys: api.keys });
} catch (error) {
  process.send?.({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
}
