import autocannon from 'autocannon';
import { pacedLoad } from './lib/paced-load.js';
import type { Report } from './lib/report.js';
import { median, percentile } from './lib/stats.js';

/** Where load goes: a name, the URL of the answer endpoint and the headers it needs. */
export interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** CPU time (µs) the server process has used so far, when it runs in its own process. */
  cpu?: () => Promise<{ user: number; system: number }>;
}

/** Sizes of the JSON-mode load benchmark. */
export interface LoadOptions {
  connections: number;
  /** Seconds per measured run, and per warm-up run of each target. */
  seconds: number;
  warmSeconds: number;
  /** Alternating rounds over every target. */
  rounds: number;
  /** Fixed request rate of the latency comparison, and its seconds per run and rounds. */
  fixedRate: number;
  fixedSeconds: number;
  fixedRounds: number;
  /** Question sent with every request. */
  message: string;
}

interface RunResult {
  /** Failed responses by status (and `error`, `timeout`), autocannon runs only. */
  failureKinds?: Record<string, number>;
  /** CPU time (µs) the target's process spent per successful request, when known. */
  cpuPerRequest?: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  count: number;
  failures: number;
}

/**
 * One autocannon run. Latencies are taken from autocannon's per-response event (a float in
 * ms) rather than its histogram, which keeps whole milliseconds only: the goals here are sub-ms.
 */
export async function load(target: Target, options: { connections: number; seconds: number; overallRate?: number; message: string }): Promise<RunResult> {
  return withCpu(target, () => autocannonRun(target, options));
}

/** Runs `body` and adds the target process's CPU time per successful request to its result. */
async function withCpu(target: Target, body: () => Promise<RunResult>): Promise<RunResult> {
  const before = await target.cpu?.();
  const result = await body();
  const after = await target.cpu?.();
  if (before && after && result.count) result.cpuPerRequest = (after.user + after.system - before.user - before.system) / result.count;
  return result;
}

async function autocannonRun(target: Target, options: { connections: number; seconds: number; overallRate?: number; message: string }): Promise<RunResult> {
  const latencies: number[] = [];
  let failures = 0;
  let instance!: autocannon.Instance;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
    url: target.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body: JSON.stringify({ message: options.message, bot_id: 'demo', stream: false }),
    connections: options.connections,
    duration: options.seconds,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  const statuses: Record<string, number> = {};
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode === 200) latencies.push(responseTime);
    else {
      failures++;
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    }
  });
  const result = await finished;
  failures += result.errors + result.timeouts;
  if (result.errors) statuses.error = result.errors;
  if (result.timeouts) statuses.timeout = result.timeouts;
  return {
    failureKinds: statuses,
    requestsPerSecond: latencies.length / options.seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    count: latencies.length,
    failures,
  };
}

/**
 * JSON-mode proxy overhead: throughput and latency at `connections` connections for the
 * upstream direct, through our proxy and through a plain `http-proxy` pass-through, in
 * alternating rounds (medians over rounds); then latency at a fixed request rate, direct vs
 * ours, alternating, to see what the proxy adds when nothing is saturated. The fixed rate uses
 * an evenly paced generator: autocannon's `overallRate` sends each second's quota in a burst.
 * `between` runs after every measured run (the caller empties the upstream's request log).
 */
export async function benchProxyLoad(
  report: Report,
  targets: { direct: Target; ours: Target; passthrough: Target },
  options: LoadOptions,
  between: () => Promise<void>,
): Promise<void> {
  const all = [targets.direct, targets.ours, targets.passthrough];
  // Warm each path: JIT, connection pools, the upstream's search index.
  for (const t of all) await load(t, { connections: options.connections, seconds: options.warmSeconds, message: options.message });
  const runs = new Map<string, RunResult[]>(all.map((t) => [t.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    const order = all.map((_, i) => all[(i + round) % all.length]!);
    for (const t of order) {
      runs.get(t.name)!.push(await load(t, { connections: options.connections, seconds: options.seconds, message: options.message }));
      await between();
    }
  }
  const med = (name: string, f: (r: RunResult) => number) => median(runs.get(name)!.map(f));
  const rps = (name: string) => med(name, (r) => r.requestsPerSecond);
  const note = `${options.connections} connections, ${options.rounds} alternating rounds of ${options.seconds} s, medians`;
  const failures = [...runs.values()].flat().reduce((n, r) => n + r.failures, 0);
  // The verdict uses each round's own ratio (runs seconds apart share the machine's mood), then their median.
  const pairedRatio = median(runs.get('ours')!.map((r, i) => r.requestsPerSecond / runs.get('passthrough')![i]!.requestsPerSecond));
  report.add({
    section: 'proxy-json',
    id: 'throughput.vs-passthrough',
    label: 'requests/s through our proxy',
    value: rps('ours'),
    unit: 'req/s',
    baseline: { label: 'http-proxy pass-through', value: rps('passthrough') },
    ratio: Math.round(pairedRatio * 1000) / 1000,
    goal: '>= 1x pass-through',
    met: pairedRatio >= 1,
    note: `${note}; ratio: median of the per-round ratios`,
  });
  report.add({ section: 'proxy-json', id: 'throughput.vs-direct', label: 'requests/s through our proxy', value: rps('ours'), unit: 'req/s', baseline: { label: 'upstream direct', value: rps('direct') }, note });
  report.add({ section: 'proxy-json', id: 'throughput.passthrough-vs-direct', label: 'requests/s through http-proxy', value: rps('passthrough'), unit: 'req/s', baseline: { label: 'upstream direct', value: rps('direct') }, note });
  for (const p of ['p50', 'p99'] as const) {
    report.add({
      section: 'proxy-json',
      id: `latency.${p}.saturated`,
      label: `${p} latency at ${options.connections} connections, our proxy`,
      value: med('ours', (r) => r[p]),
      unit: 'ms',
      baseline: { label: 'http-proxy', value: med('passthrough', (r) => r[p]) },
      note: `direct: ${med('direct', (r) => r[p]).toFixed(2)} ms`,
    });
  }
  const cpuOurs = med('ours', (r) => r.cpuPerRequest ?? Number.NaN);
  const cpuPass = med('passthrough', (r) => r.cpuPerRequest ?? Number.NaN);
  if (Number.isFinite(cpuOurs)) {
    report.add({
      section: 'proxy-json',
      id: 'cpu-per-request',
      label: 'proxy process CPU per request, at 50 connections',
      value: cpuOurs / 1000,
      unit: 'ms',
      ...(Number.isFinite(cpuPass) ? { baseline: { label: 'http-proxy', value: cpuPass / 1000 } } : {}),
      note: 'user + system CPU time of the proxy process over the run (process.cpuUsage) per successful request; the CPU bound on throughput on this machine',
    });
  }
  const kinds: Record<string, Record<string, number>> = {};
  for (const [name, list] of runs) {
    const byKind: Record<string, number> = {};
    for (const r of list) for (const [kind, n] of Object.entries(r.failureKinds ?? {})) byKind[kind] = (byKind[kind] ?? 0) + n;
    if (Object.keys(byKind).length) kinds[name] = byKind;
  }
  report.add({
    section: 'proxy-json',
    id: 'failures',
    label: 'failed requests (non-200, errors, timeouts)',
    value: failures,
    unit: '',
    note: `all load runs at ${options.connections} connections${failures ? `: ${JSON.stringify(kinds)}` : ''}`,
  });

  // Fixed rate: below saturation, so the difference is the proxy's own cost per request.
  const body = JSON.stringify({ message: options.message, bot_id: 'demo', stream: false });
  const paced = (t: Target, seconds: number) =>
    withCpu(t, () =>
      pacedLoad(t.url, { rate: options.fixedRate, seconds, connections: options.connections, headers: { 'content-type': 'application/json', ...t.headers }, body }).then((r) => ({
        requestsPerSecond: r.achievedRate,
        p50: percentile(r.latencies, 50),
        p99: percentile(r.latencies, 99),
        count: r.latencies.length,
        failures: r.failures,
      })),
    );
  // The pass-through runs at the fixed rate too: what any proxy process adds on this machine at
  // the time (a hop, a process sharing the 2 cores), beside what ours adds, in the same rounds.
  const fixed = new Map<string, RunResult[]>(all.map((t) => [t.name, []]));
  for (const t of all) await paced(t, options.warmSeconds);
  for (let round = 0; round < options.fixedRounds; round++) {
    const order = all.map((_, i) => all[(i + round) % all.length]!);
    for (const t of order) {
      fixed.get(t.name)!.push(await paced(t, options.fixedSeconds));
      await between();
    }
  }
  const fixedNote = `${options.fixedRate} req/s evenly spaced (open loop) for ${options.fixedSeconds} s, ${options.fixedRounds} alternating rounds, medians`;
  // Each round's difference pairs runs made seconds apart; the median of those differences.
  const addedBy = (name: string, p: 'p50' | 'p99') => median(fixed.get(name)!.map((r, i) => r[p] - fixed.get('direct')![i]![p]));
  const rounds = (name: string, p: 'p50' | 'p99') => fixed.get(name)!.map((r, i) => (r[p] - fixed.get('direct')![i]![p]).toFixed(1)).join(', ');
  for (const [p, limit] of [
    ['p50', 1],
    ['p99', 5],
  ] as const) {
    const added = addedBy('ours', p);
    const direct = median(fixed.get('direct')!.map((r) => r[p]));
    report.add({
      section: 'proxy-json',
      id: `latency.${p}.added-at-fixed-rate`,
      label: `${p} latency added at ${options.fixedRate} req/s`,
      value: added,
      unit: 'ms',
      baseline: { label: 'direct', value: direct },
      ratio: Math.round(((direct + added) / direct) * 1000) / 1000,
      goal: `< ${limit} ms added`,
      met: added < limit,
      note: `${fixedNote}; added: median of the per-round differences (${rounds('ours', p)} ms); http-proxy in the same rounds: ${addedBy('passthrough', p).toFixed(2)} ms (${rounds('passthrough', p)})`,
    });
  }
  report.add({
    section: 'proxy-json',
    id: 'latency.p99.added-at-fixed-rate.passthrough',
    label: `p99 latency added at ${options.fixedRate} req/s, http-proxy pass-through`,
    value: addedBy('passthrough', 'p99'),
    unit: 'ms',
    baseline: { label: 'direct', value: median(fixed.get('direct')!.map((r) => r.p99)) },
    note: `${fixedNote}; in the same rounds as ours: what a process that only pipes bytes adds on this machine at the time, to read ours against`,
  });
  const fixedCpu = median(fixed.get('ours')!.map((r) => r.cpuPerRequest ?? Number.NaN));
  if (Number.isFinite(fixedCpu)) {
    report.add({
      section: 'proxy-json',
      id: 'cpu-per-request.fixed-rate',
      label: `proxy process CPU per request, at ${options.fixedRate} req/s`,
      value: fixedCpu / 1000,
      unit: 'ms',
      note: `${fixedNote}; a request's own cost, before any queueing, is at least this`,
    });
  }
  const achieved = median(fixed.get('ours')!.map((r) => r.requestsPerSecond));
  const fixedFailures = [...fixed.values()].flat().reduce((n, r) => n + r.failures, 0);
  report.add({ section: 'proxy-json', id: 'fixed-rate.achieved', label: 'rate achieved in the fixed-rate runs, our proxy', value: achieved, unit: 'req/s', note: `${fixedNote}; ${fixedFailures} failed` });
}
