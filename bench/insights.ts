/**
 * The insights section: what recording costs an answer, how fast the owner's page is over a
 * million stored questions, and what a database outage under load does to answers.
 */
import { request, Agent } from 'node:http';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { startProxy } from '../packages/bot-answer-proxy/src/proxy/server.js';
import { openInsightsStore } from '../packages/bot-answer-proxy/src/insights/sql/open.js';
import type { InsightsStore } from '../packages/bot-answer-proxy/src/insights/types.js';
import { sampleBatches } from './insights-data.js';
import { OUT_DIR } from './lib/build-browser.js';
import { startAll, startChild, type ServerChild } from './lib/child.js';
import type { Report } from './lib/report.js';
import { max, median, percentile } from './lib/stats.js';
import { startTestPostgres, type TestPostgres } from '../test/proxy/postgres-server.js';

/** Sizes of the insights benchmark. */
export interface InsightsOptions {
  /** Answers asked of each configuration, one at a time, for the latency comparison, after `warm` untimed ones. */
  asked: number;
  warm: number;
  /** Questions stored for the page's timing. */
  rows: number;
  /** Page loads timed per view (after one untimed). */
  pageRepeats: number;
  /** The outage run: requests per second, and seconds before, during and after the database is stopped. */
  outage: { rate: number; before: number; down: number; after: number };
}

const TOKEN = 'bench-insights-token-0123456789';
const MESSAGE = 'How do I file travel expenses?';
const section = 'insights';
/** An answer slower than this while the database is away counts against the outage. */
const SLOW_MS = 50;

interface Timed {
  ms: number;
  status: number;
  id: string | null;
  at: number;
}

/** One JSON answer request over a keep-alive agent, timed from its start to the end of its body. */
function askOnce(agent: Agent, url: URL, body: Buffer): Promise<Timed> {
  return new Promise((resolve) => {
    const at = performance.now();
    const req = request(
      { agent, method: 'POST', hostname: url.hostname, port: url.port, path: '/api/answer', headers: { 'content-type': 'application/json', 'content-length': String(body.length) } },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve({ ms: performance.now() - at, status: res.statusCode ?? 0, id: (res.headers['x-request-id'] as string) ?? null, at }));
        res.on('error', () => resolve({ ms: performance.now() - at, status: 0, id: null, at }));
      },
    );
    req.on('error', () => resolve({ ms: performance.now() - at, status: 0, id: null, at }));
    req.end(body);
  });
}

const answerBody = (i: number) => Buffer.from(JSON.stringify({ message: `${MESSAGE} (${i % 50})`, bot_id: 'demo', stream: false }));

/**
 * Latency: the same questions through a proxy without insights and proxies recording to SQLite
 * and to PostgreSQL, each in its own process over one upstream, asked one at a time with the
 * targets' order rotating, so load on the machine falls on every configuration alike.
 */
async function latency(report: Report, targets: Array<{ name: string; child: ServerChild }>, { asked, warm }: { asked: number; warm: number }): Promise<void> {
  const agents = targets.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const urls = targets.map((t) => new URL(t.child.url));
  const samples: number[][] = targets.map(() => []);
  for (let i = -warm; i < asked; i++) {
    for (let k = 0; k < targets.length; k++) {
      const t = (i + warm + k) % targets.length;
      const result = await askOnce(agents[t]!, urls[t]!, answerBody(i));
      if (result.status !== 200) throw new Error(`${targets[t]!.name}: status ${result.status}`);
      if (i >= 0) samples[t]!.push(result.ms);
    }
  }
  agents.forEach((a) => a.destroy());
  const off = samples[0]!;
  for (const [t, target] of targets.entries()) {
    if (t === 0) continue;
    const on = samples[t]!;
    const added = median(on) - median(off);
    report.add({
      section,
      id: `${target.name}.p50`,
      label: `answer latency p50, insights on (${target.name})`,
      value: median(on),
      unit: 'ms',
      baseline: { label: 'insights off', value: median(off) },
      goal: 'within 0.2 ms of off',
      met: added <= 0.2,
      note: `added ${added.toFixed(3)} ms; p99 ${percentile(on, 99).toFixed(2)} ms (off ${percentile(off, 99).toFixed(2)}); ${on.length} answers each, one at a time`,
    });
  }
  for (const target of targets) {
    const status = await target.child.ask<{ pending: number; dropped: number } | null>('insights-flush');
    if (status && status.dropped > 0) throw new Error(`${target.name}: ${status.dropped} rows dropped`);
  }
}

/** Loads `rows` generated questions into a store through its own write path. */
async function load(store: InsightsStore, rows: number, now: number): Promise<number> {
  const started = performance.now();
  await store.open();
  for (const batch of sampleBatches({ rows, days: 90, now, batch: 5_000 })) await store.write(batch);
  return (performance.now() - started) / 1000;
}

/** The page over HTTP as the owner's browser loads it (bearer token), timed from request to last byte. */
async function timePage(url: string, query: string, repeats: number): Promise<{ ms: number; cold: number; bytes: number }> {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(`${url}/insights${query}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const html = await response.text();
    if (response.status !== 200) throw new Error(`page: status ${response.status}`);
    return { ms: performance.now() - started, bytes: html.length };
  };
  const cold = await once();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) times.push((await once()).ms);
  return { ms: median(times), cold: cold.ms, bytes: cold.bytes };
}

/**
 * The page's default view (last 30 days, all bots) over `rows` questions spread over 90 days,
 * in SQLite and in PostgreSQL: the data queries and the HTML, through the proxy's own route.
 */
async function pageAtScale(report: Report, db: { name: string; url: string; prepare?: () => Promise<void> }, options: InsightsOptions, upstream: ServerChild, key: string): Promise<void> {
  const now = Date.now();
  const store = openInsightsStore(db.url);
  let seconds: number;
  try {
    seconds = await load(store, options.rows, now);
  } finally {
    await store.close();
  }
  await db.prepare?.();
  const proxy = await startProxy({ apiKey: key, baseUrl: upstream.url, port: 0, host: '127.0.0.1', rateLimitPerMinute: 0, insightsDb: db.url, insightsToken: TOKEN, log: false });
  try {
    const views = [
      ['default', '', 'default view (30 days, all bots)'],
      ['bot', '?bot=handbook', '30 days, one bot'],
      ['90d', '?period=90', '90 days: every row'],
    ] as const;
    for (const [id, query, label] of views) {
      const timed = await timePage(proxy.url, query, options.pageRepeats);
      report.add({
        section,
        id: `${db.name}.page-${id}`,
        label: `${db.name}: page, ${label}, ${options.rows.toLocaleString('en-US')} questions stored`,
        value: timed.ms,
        unit: 'ms',
        ...(id === 'default' ? { goal: 'under 1000 ms', met: timed.ms < 1000 && timed.cold < 1000 } : {}),
        note: `first load ${timed.cold.toFixed(0)} ms; median of ${options.pageRepeats}; ${(timed.bytes / 1024).toFixed(0)} KiB of HTML${id === 'default' ? `; ${options.rows.toLocaleString('en-US')} rows loaded through the store in ${seconds.toFixed(0)} s` : ''}`,
      });
    }
  } finally {
    await proxy.close();
  }
}

/**
 * The database stopped and started again under a steady load of answers, sent at the same pace
 * to a proxy without insights (the baseline: what this machine does anyway): how many answers
 * failed, how many took more than 50 ms while the database was away, and whether every question
 * asked after it came back was stored.
 */
export async function outage(report: Report, postgres: TestPostgres, targets: { on: ServerChild; off: ServerChild }, databaseUrl: string, options: InsightsOptions['outage']): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 100 });
  const urls = { on: new URL(targets.on.url), off: new URL(targets.off.url) };
  const results: { on: Timed[]; off: Timed[] } = { on: [], off: [] };
  const pending: Array<Promise<void>> = [];
  const total = Math.round(options.rate * (options.before + options.down + options.after));
  const interval = 1000 / options.rate;
  const begin = performance.now();
  let downAt = Number.NaN;
  let upAt = Number.NaN;
  const control = (async () => {
    await new Promise((resolve) => setTimeout(resolve, options.before * 1000));
    downAt = performance.now();
    await postgres.stop();
    await new Promise((resolve) => setTimeout(resolve, options.down * 1000));
    await postgres.start();
    upAt = performance.now();
  })();
  // The two answers sent at the same moment, one to each proxy, through the same upstream.
  const pairs = Array.from({ length: total }, () => ({}) as Partial<Record<'on' | 'off', Timed>>);
  for (let i = 0; i < total; i++) {
    const due = begin + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    for (const side of i % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      pending.push(askOnce(agent, urls[side], answerBody(i)).then((r) => void results[side].push((pairs[i]![side] = r))));
    }
  }
  await Promise.all(pending);
  await control;
  agent.destroy();
  const status = await targets.on.ask<{ pending: number; dropped: number; paused: boolean } | null>('insights-flush');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const ids = results.on.filter((r) => r.id).map((r) => r.id!);
  const stored = new Set((await client.query<{ request_id: string }>('SELECT request_id FROM insights_questions WHERE request_id = ANY($1::text[])', [ids])).rows.map((r) => r.request_id));
  await client.end();
  const failed = results.on.filter((r) => r.status !== 200).length;
  const inWindow = (r: Timed) => r.at >= downAt && r.at < upAt + 1000;
  const window = (rs: Timed[]) => rs.filter(inWindow);
  const slow = (rs: Timed[]) => rs.filter((r) => r.ms > SLOW_MS).length;
  const during = window(results.on);
  // Slow on its own: over 50 ms and more than twice the answer sent with it to the other proxy.
  // A pause of the shared machine or upstream slows both; one the outage causes slows only the
  // proxy recording (an outage that blocks answers makes each one slow, its pair not).
  const windowPairs = pairs.filter((p): p is Record<'on' | 'off', Timed> => p.on !== undefined && p.off !== undefined && inWindow(p.on));
  const slowAlone = (side: 'on' | 'off') => windowPairs.filter((p) => p[side].ms > SLOW_MS && p[side].ms > 2 * p[side === 'on' ? 'off' : 'on'].ms).length;
  const afterReturn = results.on.filter((r) => r.at >= upAt && r.id);
  const missingAfter = afterReturn.filter((r) => !stored.has(r.id!)).length;
  report.add({
    section,
    id: 'outage.lost',
    label: 'database stopped and restarted under load: answers failed',
    value: failed,
    unit: '',
    baseline: { label: 'insights off, same load', value: results.off.filter((r) => r.status !== 200).length },
    goal: '0',
    met: failed === 0,
    note: `${results.on.length} answers at ${options.rate}/s; PostgreSQL down ${((upAt - downAt) / 1000).toFixed(1)} s (stop to ready)`,
  });
  report.add({
    section,
    id: 'outage.slow',
    label: 'answers over 50 ms on their own while the database was away (and 1 s after)',
    value: slowAlone('on'),
    unit: '',
    baseline: { label: 'insights off, same load', value: slowAlone('off') },
    goal: '0',
    met: slowAlone('on') === 0 && windowPairs.length > 0,
    note: `on their own: over 50 ms and over twice the answer sent at the same moment to the other proxy; over 50 ms at all ${slow(during)} (off ${slow(window(results.off))}); ${during.length} answers in that window: p50 ${median(during.map((r) => r.ms)).toFixed(2)} ms (off ${median(window(results.off).map((r) => r.ms)).toFixed(2)}), max ${max(during.map((r) => r.ms)).toFixed(1)} ms (off ${max(window(results.off).map((r) => r.ms)).toFixed(1)}); over 50 ms before the stop ${slow(results.on.filter((r) => r.at < downAt))} (off ${slow(results.off.filter((r) => r.at < downAt))}), after the window ${slow(results.on.filter((r) => r.at >= upAt + 1000))} (off ${slow(results.off.filter((r) => r.at >= upAt + 1000))})`,
  });
  report.add({
    section,
    id: 'outage.after',
    label: 'questions asked after the database returned, not stored',
    value: missingAfter,
    unit: '',
    goal: '0',
    met: missingAfter === 0 && afterReturn.length > 0,
    note: `${afterReturn.length} asked after it returned; of all ${ids.length}, ${stored.size} stored; ${status?.dropped ?? 0} dropped from the buffer`,
  });
}

/** Runs the section. `upstream` is a local Answer API child (pacing off) and `key` its key. */
export async function benchInsights(report: Report, options: InsightsOptions, upstream: ServerChild, key: string): Promise<void> {
  const dir = join(OUT_DIR, 'insights');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const postgres = await startTestPostgres();
  const children: ServerChild[] = [];
  try {
    const env = { BENCH_UPSTREAM_URL: upstream.url, BENCH_UPSTREAM_KEY: key };
    const start = (db?: string) => () => startChild('proxy', { ...env, ...(db ? { BENCH_INSIGHTS_DB: db } : {}) }, { quiet: true });
    const pgLatency = await postgres.createDatabase('latency');
    const [off, sqlite, inPostgres] = await startAll(children, [start(), start(join(dir, 'latency.sqlite')), start(pgLatency)]);
    await latency(report, [{ name: 'off', child: off! }, { name: 'sqlite', child: sqlite! }, { name: 'postgres', child: inPostgres! }], options);

    await Promise.all([sqlite!.stop(), inPostgres!.stop()]);
    const pgOutage = await postgres.createDatabase('outage');
    const [outageProxy] = await startAll(children, [start(pgOutage)]);
    await outage(report, postgres, { on: outageProxy!, off: off! }, pgOutage, options.outage);
    await Promise.all(children.splice(0).map((c) => c.stop()));

    await pageAtScale(report, { name: 'sqlite', url: join(dir, 'page.sqlite') }, options, upstream, key);
    const pgPage = await postgres.createDatabase('page');
    await pageAtScale(
      report,
      {
        name: 'postgres',
        url: pgPage,
        // As autovacuum would after a load: statistics for the planner, and a visibility map for index-only scans.
        prepare: async () => {
          const client = new pg.Client({ connectionString: pgPage });
          await client.connect();
          await client.query('VACUUM (ANALYZE)');
          await client.end();
        },
      },
      options,
      upstream,
      key,
    );
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await postgres.close();
    await rm(dir, { recursive: true, force: true });
  }
}
