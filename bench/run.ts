/**
 * `npm run bench`: size, what a page pays for the element, streaming render, proxy overhead and element
 * start-up, each measured against a baseline in the same run. Prints one table and writes bench/results.json (and the
 * results section of bench/README.md). `--quick` runs small sizes (a few minutes) and writes
 * bench/out/results.quick.json instead, leaving the committed results alone.
 * `--only=size,retrieval,kb-scale,search,search-box,page-cost,render,startup,proxy-json,proxy-streams,proxy-cache,written,insights,sites` runs some sections (results in
 * bench/out/results.only.json). `--repeat=N` runs kb-scale's sizes N times and reports each figure's
 * median and range (`--kb-sizes=200`: only those sizes, in MB). `--halves` gives the search section's quality figures by halves of
 * each set too (even places tune, odd eval). `--crawl-runs=N` runs the sites section's crawl only (no HTML
 * sets), its memory jobs N times each, alternating (with `--only=sites`: the memory figure alone, repeated). `--lane=browser` runs only the sections that drive Chromium
 * (and build what they compare with), `--lane=servers` the others: `npm test` runs its quick benchmark
 * as the two lanes side by side (a quick run's figures are not judged), each writing its own
 * bench/out/results.quick.<lane>.json.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchChromium } from './lib/browser.js';
import { buildBaseline } from './lib/baseline.js';
import { buildFloor, buildNaive, OUT_DIR } from './lib/build-browser.js';
import { allStarted, startAll, startChild, type ServerChild } from './lib/child.js';
import { cpuMsWithChildren } from './lib/cpu.js';
import { machineInfo, openFilesLimit } from './lib/machine.js';
import { formatMarkdownTable, formatTable, Report } from './lib/report.js';
import { benchInsights } from './insights.js';
import { benchProxyCache, type CacheTarget } from './proxy-cache.js';
import { benchProxyLoad } from './proxy-load.js';
import { benchProxyMemory, benchProxyStreams } from './proxy-streams.js';
import { benchRender } from './render.js';
import { benchRetrieval } from './retrieval.js';
import { benchKbScale } from './kb-scale.js';
import { benchSearch } from './search.js';
import { benchPageCost, type PageCostOptions } from './page-cost.js';
import { benchSites } from './sites.js';
import { benchSearchBox } from './search-box.js';
import { benchSize } from './size.js';
import { benchStartup } from './startup.js';
import { benchWritten } from './written.js';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
// The search section's quality figures also by halves of each set (even places tune, odd eval).
const halves = args.includes('--halves');
// kb-scale: `--repeat=N` runs each size N times (each figure their median, the range in its note); `--kb-sizes=200` picks sizes (MB).
const repeat = Number(args.find((a) => a.startsWith('--repeat='))?.slice('--repeat='.length) ?? 1);
const kbSizes = args.find((a) => a.startsWith('--kb-sizes='))?.slice('--kb-sizes='.length).split(',').map(Number);
// sites: `--crawl-runs=N` measures the crawl alone (no HTML sets), N memory runs of each job.
const crawlRuns = args.find((a) => a.startsWith('--crawl-runs='))?.slice('--crawl-runs='.length);
if (!Number.isInteger(repeat) || repeat < 1 || kbSizes?.some((n) => !(n > 0)) || (crawlRuns !== undefined && !(Number.isInteger(Number(crawlRuns)) && Number(crawlRuns) >= 1))) {
  console.error('bench: --repeat=N and --crawl-runs=N take a whole number from 1, --kb-sizes=3,200 sizes in MB');
  process.exit(2);
}
/** The sections that drive Chromium, and the builds they compare with: the `browser` lane; the rest is `servers`. */
const BROWSER_SECTIONS = ['size', 'page-cost', 'startup', 'render', 'search-box'];
const lane = args.find((a) => a.startsWith('--lane='))?.slice('--lane='.length);
if (lane !== undefined && lane !== 'browser' && lane !== 'servers') {
  console.error(`bench: --lane=${lane}: say browser or servers`);
  process.exit(2);
}
const inLane = (section: string) => lane === undefined || (lane === 'browser') === BROWSER_SECTIONS.includes(section);
const wanted = (section: string) => (!only || only.includes(section)) && inLane(section);

/** Every size the benchmark uses, full and quick. */
const SETTINGS = quick
  ? {
      render: { answerBytes: 5_000, chunks: 200, intervalMs: 2, repeats: 1, warmUp: false },
      // Quick: one word typed a key at a time, one burst (each waits out the debounce, key by key).
      searchBox: { words: 1, keyGapMs: 150, bursts: 1 },
      // Quick: one of each code path (a page alone, the floating and inline loader, the baseline), each kind of sample
      // once where its code differs: 6 fresh pages, not 8 (each about 2.5 s of CPU, traced); full runs take every row and kind.
      pageCost: {
        samples: 1,
        rates: [1],
        warmUp: false,
        rows: ['none', 'loader', 'loader-inline', 'single'],
        kinds: { none: ['warm'], loader: ['warm', 'cold', 'chat'], 'loader-inline': ['chat'], single: ['warm'] },
        settleMs: 250,
      } satisfies PageCostOptions,
      // Quick: no untimed first page of each bundle.
      startup: { repeats: 1, warmUp: false },
      load: { connections: 50, seconds: 0.25, warmSeconds: 0.1, rounds: 1, fixedRate: 500, fixedSeconds: 0.25, fixedRounds: 1 },
      // Quick: the upstream paced at 5 ms a chunk (20 before): each of the four ramps waited out 2 s of pacing, the streams
      // still overlap (50 opened within 50 ms, each about 0.5 s long).
      streams: { streams: 50, rampMs: 50, rounds: 1, warmUp: false, aborts: 5, paceMs: 5 },
      memory: { streams: 50, steps: 3, rampMs: 50, rounds: 1, paceMs: 100 },
      kbScale: { sizes: kbSizes ?? [1], rounds: 1, repeat },
      // Quick: one set kept in node_modules, nothing fetched; it has every kind of question (halves, follow-ups, off-topic).
      retrieval: { sets: ['fastify'] },
      search: { sizes: [1], rounds: 1, warmUp: false, sets: ['fastify'], halves },
      cache: { distinct: 100, asked: 60, seed: 1, warm: 3 },
      written: { rounds: 1, inProcessRounds: 1 },
      insights: { asked: 50, warm: 3, rows: 1_000, pageRepeats: 1, outage: { rate: 50, before: 0.5, down: 1, after: 1 } },
      sites: { crawlPages: 50, memoryRuns: 1, sets: ['pino'] },
    }
  : {
      render: { answerBytes: 50_000, chunks: 2000, intervalMs: 2, repeats: 7, warmUp: true },
      searchBox: { words: 10, keyGapMs: 150, bursts: 5 },
      pageCost: { samples: 5, rates: [1, 4], warmUp: true, settleMs: 1000 },
      startup: { repeats: 15, warmUp: true },
      load: { connections: 50, seconds: 5, warmSeconds: 1, rounds: 3, fixedRate: 500, fixedSeconds: 5, fixedRounds: 4 },
      streams: { streams: 1000, rampMs: 500, rounds: 3, warmUp: true, aborts: 20, paceMs: 100 },
      memory: { streams: 1000, steps: 5, rampMs: 200, rounds: 3, paceMs: 1000 },
      kbScale: { sizes: kbSizes ?? [3, 20, 200], rounds: 3, repeat },
      retrieval: {},
      search: { sizes: [20, 200], rounds: 2, warmUp: true, halves },
      cache: { distinct: 200, asked: 2000, seed: 1, warm: 100 },
      written: { rounds: 10, inProcessRounds: 50 },
      insights: { asked: 2000, warm: 100, rows: 1_000_000, pageRepeats: 5, outage: { rate: 100, before: 3, down: 4, after: 4 } },
      sites: { crawlPages: 1000, memoryRuns: 3, sets: ['pino', 'undici'] },
    };
/** A question the sample knowledge base answers (about 1.9 KB of Markdown with citations). */
const MESSAGE = 'How do I file travel expenses?';

const report = new Report();
const failures: { section: string; error: string }[] = [];
const started = Date.now();

async function section(name: string, body: () => Promise<void>): Promise<void> {
  if (!wanted(name)) return;
  const t = Date.now();
  const cpu = cpuMsWithChildren();
  process.stderr.write(`bench: ${name}...\n`);
  try {
    await body();
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    failures.push({ section: name, error: message.split('\n').slice(0, 3).join(' | ') });
    process.stderr.write(`bench: ${name} failed: ${message}\n`);
  }
  // CPU of this process and of the servers the section started and stopped (Chromium's is counted when it closes).
  process.stderr.write(`bench: ${name} took ${((Date.now() - t) / 1000).toFixed(1)} s, cpu ${((cpuMsWithChildren() - cpu) / 1000).toFixed(1)} s\n`);
}

const dist = { iife: root('packages/bot-answer/dist/bot-answer.iife.js'), es: root('packages/bot-answer/dist/bot-answer.js'), box: root('packages/bot-answer/dist/bot-answer-box.js'), chat: root('packages/bot-answer/dist/bot-answer-chat.js') };
if ((wanted('size') || wanted('startup') || wanted('render') || wanted('page-cost') || wanted('search-box')) && !Object.values(dist).every((f) => existsSync(f))) {
  console.error('bench: dist/ is missing the element\'s files; run `npm run build` first (npm run bench does).');
  process.exit(1);
}
await mkdir(OUT_DIR, { recursive: true });
// The floor element is built only for the sections that compare with it; today's single bundle (the baseline
// commit's element) for the size and page-cost sections.
const floor = wanted('size') || wanted('startup') ? await buildFloor() : undefined;
const single = wanted('size') || wanted('page-cost') ? await buildBaseline() : undefined;
if (single && 'missing' in single) process.stderr.write(`bench: no single-bundle baseline: ${single.missing}\n`);
const singleEs = single && 'es' in single ? single.es : undefined;

await section('size', () => benchSize(report, dist, floor!, singleEs));
await section('retrieval', () => benchRetrieval(report, SETTINGS.retrieval));
await section('kb-scale', () => benchKbScale(report, SETTINGS.kbScale));
await section('sites', () => benchSites(report, crawlRuns ? { ...SETTINGS.sites, memoryRuns: Number(crawlRuns), sets: [] } : SETTINGS.sites));
await section('search', () => benchSearch(report, SETTINGS.search));

let browser: Browser | undefined;
let chromiumVersion: string | undefined;
if (wanted('startup') || wanted('render') || wanted('page-cost') || wanted('search-box')) {
  browser = await launchChromium();
  chromiumVersion = browser.version();
}
try {
  await section('page-cost', () => benchPageCost(report, browser!, { dist: root('packages/bot-answer/dist/'), baseline: singleEs ?? (single as { missing: string }) }, SETTINGS.pageCost));
  await section('startup', () => benchStartup(report, browser!, { real: dist.iife, box: dist.box, floor: floor! }, SETTINGS.startup));
  await section('render', async () => {
    const naive = await buildNaive();
    await benchRender(report, browser!, dist, naive, SETTINGS.render);
  });
  await section('search-box', () => benchSearchBox(report, browser!, dist, SETTINGS.searchBox));
} finally {
  await browser?.close();
}

/** Starts the upstream (paced or not), our proxy and the pass-through, each in its own process. */
async function withServers<T>(paceMs: number, passthrough: boolean, body: (s: { upstream: ServerChild; proxy: ServerChild; passthrough?: ServerChild; key: string }) => Promise<T>): Promise<T> {
  const key = `bench-${randomBytes(12).toString('hex')}`;
  const children: ServerChild[] = [];
  try {
    const upstream = await startChild('upstream', { BENCH_PACE_MS: String(paceMs), BENCH_UPSTREAM_KEY: key });
    children.push(upstream);
    const env = { BENCH_UPSTREAM_URL: upstream.url, BENCH_UPSTREAM_KEY: key };
    const [proxy, pass] = await startAll(children, [() => startChild('proxy', env, { quiet: true }), ...(passthrough ? [() => startChild('passthrough', env)] : [])]);
    return await body({ upstream, proxy: proxy!, ...(pass ? { passthrough: pass } : {}), key });
  } finally {
    await Promise.all(children.map((c) => c.stop()));
  }
}

await section('proxy-json', () =>
  withServers(0, true, ({ upstream, proxy, passthrough, key }) =>
    benchProxyLoad(
      report,
      {
        direct: { name: 'direct', url: `${upstream.url}/v1/answer`, headers: { authorization: `Bearer ${key}` } },
        ours: { name: 'ours', url: `${proxy.url}/api/answer`, headers: {}, cpu: () => proxy.ask('cpu') },
        passthrough: { name: 'passthrough', url: `${passthrough!.url}/api/answer`, headers: {}, cpu: () => passthrough!.ask('cpu') },
      },
      { ...SETTINGS.load, message: MESSAGE },
      async () => void (await upstream.ask('forget')),
    ),
  ),
);

await section('proxy-streams', async () => {
  const { openFilesLimit: limit } = openFilesLimit();
  let streams = SETTINGS.streams.streams;
  // The proxy holds two sockets per stream (client and upstream); keep headroom for everything else.
  if (limit !== undefined && limit < 2 * streams + 256) {
    streams = Math.max(10, Math.floor((limit - 256) / 2));
    process.stderr.write(`bench: open-file limit ${limit}: ${streams} concurrent streams instead of ${SETTINGS.streams.streams} (raise it with ulimit -n)\n`);
  }
  await withServers(SETTINGS.streams.paceMs, true, async ({ passthrough, ...s }) => {
    const stack = await startChild('web-stack', { BENCH_UPSTREAM_URL: s.upstream.url, BENCH_UPSTREAM_KEY: s.key });
    try {
      await benchProxyStreams(report, { ...s, passthrough: passthrough!, stack }, { ...SETTINGS.streams, streams, message: MESSAGE });
    } finally {
      await stack.stop();
    }
  });
  // Memory through an upstream paced slowly enough that no stream ends before its round's last reading.
  const { paceMs, ...memory } = SETTINGS.memory;
  await benchProxyMemory(report, (body) => withServers(paceMs, false, body), { ...memory, streams: Math.min(memory.streams, streams), message: MESSAGE });
});

await section('proxy-cache', async () => {
  const key = `bench-${randomBytes(12).toString('hex')}`;
  const children: ServerChild[] = [];
  let redis: Awaited<ReturnType<typeof import('../test/proxy/redis-server.js').startTestRedis>> | undefined;
  try {
    // Each configuration has its own upstream, so each one's count is its own. The three start at once.
    const target = async (name: string, extra: Record<string, string>): Promise<CacheTarget> => {
      const upstream = await startChild('upstream', { BENCH_PACE_MS: '0', BENCH_UPSTREAM_KEY: key });
      children.push(upstream);
      const proxy = await startChild('proxy', { BENCH_UPSTREAM_URL: upstream.url, BENCH_UPSTREAM_KEY: key, ...extra }, { quiet: true });
      children.push(proxy);
      return { name, url: `${proxy.url}/api/answer`, upstreamCount: () => upstream.ask<number>('count') };
    };
    const withRedis = async (): Promise<CacheTarget | undefined> => {
      try {
        const { startTestRedis } = await import('../test/proxy/redis-server.js');
        redis = await startTestRedis();
        return await target('redis', { BENCH_CACHE_TTL: '3600', BENCH_REDIS_URL: redis.url });
      } catch (error) {
        process.stderr.write(`bench: proxy-cache: no Redis run (${(error as Error).message.split('\n')[0]})\n`);
        return undefined;
      }
    };
    const [off, memory, inRedis] = await allStarted<CacheTarget | undefined>([target('off', {}), target('memory', { BENCH_CACHE_TTL: '3600' }), withRedis()]);
    await benchProxyCache(report, off!, [memory!, ...(inRedis ? [inRedis] : [])], SETTINGS.cache);
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await redis?.close();
  }
});

await section('written', () => benchWritten(report, SETTINGS.written));

await section('insights', async () => {
  const key = `bench-${randomBytes(12).toString('hex')}`;
  const upstream = await startChild('upstream', { BENCH_PACE_MS: '0', BENCH_UPSTREAM_KEY: key });
  try {
    await benchInsights(report, SETTINGS.insights, upstream, key);
  } finally {
    await upstream.stop();
  }
});

for (const f of failures) report.add({ section: f.section, id: 'failed', label: 'section failed (error in results.json)', value: Number.NaN, unit: '', goal: 'runs', met: false, note: f.error });

const goals = report.goals();
const results = {
  date: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  durationSeconds: Math.round((Date.now() - started) / 1000),
  machine: machineInfo(chromiumVersion),
  settings: { ...SETTINGS, message: MESSAGE },
  goalsMet: goals.filter((g) => g.met).length,
  goalsTotal: goals.length,
  allGoalsMet: goals.length > 0 && goals.every((g) => g.met),
  figures: report.figures,
};
const table = formatTable(report.figures);
console.log(table);
const load = results.machine.loadAverage;
console.log(`\n${results.goalsMet} of ${results.goalsTotal} goals met; ${results.mode} run in ${results.durationSeconds} s on ${results.machine.cores} x ${results.machine.cpuModel} (load average ${load.start} -> ${load.end})`);

// Only a full run of every section replaces the committed results.
const out = quick ? `${OUT_DIR}results.quick${lane ? `.${lane}` : ''}.json` : only || lane ? `${OUT_DIR}results.only.json` : root('bench/results.json');
await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`wrote ${out.replace(root(''), '')}`);
if (!quick && !only && !lane) await updateReadme(results);
process.exitCode = failures.length ? 1 : 0;

/** Replaces the results section of bench/README.md (between its markers) with this run's table. */
async function updateReadme(r: typeof results): Promise<void> {
  const path = root('bench/README.md');
  if (!existsSync(path)) return;
  const text = await readFile(path, 'utf8');
  const start = '<!-- results:start -->';
  const end = '<!-- results:end -->';
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) return;
  const m = r.machine;
  const body = [
    '',
    `Run of ${r.date.slice(0, 16).replace('T', ' ')} UTC, ${r.durationSeconds} s, on ${m.cores} x ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}${m.chromium ? `, Chromium ${m.chromium}` : ''}; 1-minute load average ${m.loadAverage.start} at the start, ${m.loadAverage.end} at the end. ${r.goalsMet} of ${r.goalsTotal} goals met.`,
    '',
    formatMarkdownTable(r.figures),
    '',
  ].join('\n');
  await writeFile(path, text.slice(0, from + start.length) + body + text.slice(to));
}
