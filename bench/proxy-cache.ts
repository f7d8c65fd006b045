import type { Report } from './lib/report.js';
import { median, percentile } from './lib/stats.js';
import { prng } from './lib/prng.js';

/** Sizes of the answer-cache benchmark. */
export interface CacheOptions {
  /** Distinct questions, drawn by Zipf(1.0). */
  distinct: number;
  /** Questions asked, one after another. */
  asked: number;
  seed: number;
  /** Warm-up questions asked of every configuration first, none of those measured (the JIT; the cache tables stay empty). */
  warm: number;
}

/** One proxy configuration to measure: its answer endpoint, and how many requests its own upstream saw. */
export interface CacheTarget {
  name: string;
  url: string;
  upstreamCount(): Promise<number>;
}

interface Sample {
  ms: number;
  cache: string | null;
}

/** `asked` indices in [0, distinct) drawn by Zipf(1.0): rank k with weight 1/(k+1). */
export function zipfDraw(distinct: number, asked: number, seed: number): number[] {
  const cdf: number[] = [];
  let sum = 0;
  for (let k = 0; k < distinct; k++) cdf.push((sum += 1 / (k + 1)));
  const random = prng(seed);
  const out: number[] = [];
  for (let i = 0; i < asked; i++) {
    const x = random() * sum;
    let lo = 0;
    let hi = distinct - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    out.push(lo);
  }
  return out;
}

const TOPICS = ['travel expenses', 'hotel booking', 'the VPN', 'parental leave', 'expense receipts', 'a new laptop', 'the wiki', 'per diem rates', 'security training', 'remote work'];
const FORMS = ['How do I handle {t}?', 'What is the policy on {t}?', 'Who approves {t}?', 'Where do I find {t}?', 'When is the deadline for {t}?'];

/** The i-th distinct question: real sentences the sample knowledge base answers. */
function questionText(i: number): string {
  const form = FORMS[i % FORMS.length]!;
  const topic = TOPICS[Math.floor(i / FORMS.length) % TOPICS.length]!;
  const round = Math.floor(i / (FORMS.length * TOPICS.length));
  return form.replace('{t}', topic) + (round ? ` (${round})` : '');
}

async function askOne(target: CacheTarget, question: number): Promise<Sample> {
  const started = performance.now();
  const response = await fetch(target.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: questionText(question), bot_id: 'demo', stream: false }),
  });
  await response.arrayBuffer();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${target.name}: status ${response.status}`);
  return { ms, cache: response.headers.get('x-cache') };
}

/**
 * Asks every target each question in turn (the targets' order rotating), so a burst of load on
 * the shared machine lands on every configuration alike instead of on one run.
 */
async function askAll(targets: CacheTarget[], sequence: number[]): Promise<Sample[][]> {
  const samples: Sample[][] = targets.map(() => []);
  for (const [n, question] of sequence.entries()) {
    for (let k = 0; k < targets.length; k++) {
      const t = (n + k) % targets.length;
      samples[t]!.push(await askOne(targets[t]!, question));
    }
  }
  return samples;
}

/**
 * The cost side of the answer cache: the same Zipf(1.0) question mix (seeded) through a proxy
 * without the cache and through proxies with it (memory; Redis when given), each with its own
 * upstream, asked in turn question by question in the same run. Reports the share of questions that reached the upstream, and hit and miss
 * latencies against the uncached answers to the same questions (paired by position).
 */
export async function benchProxyCache(report: Report, off: CacheTarget, cached: CacheTarget[], options: CacheOptions): Promise<void> {
  const sequence = zipfDraw(options.distinct, options.asked, options.seed);
  const distinctAsked = new Set(sequence).size;
  // Warm-up: other questions, so no configuration starts with a cold JIT and the cache tables stay empty.
  const warm = Array.from({ length: options.warm }, (_, i) => options.distinct + i);
  const targets = [off, ...cached];
  await askAll(targets, warm);
  const before = await Promise.all(targets.map((t) => t.upstreamCount()));
  const all = await askAll(targets, sequence);
  const upstreamRequests = await Promise.all(targets.map(async (t, i) => (await t.upstreamCount()) - before[i]!));
  const base = all[0]!;
  const offUpstream = upstreamRequests[0]!;
  const baseP50 = median(base.map((s) => s.ms));
  const baseP99 = percentile(base.map((s) => s.ms), 99);
  const section = 'proxy-cache';

  for (const [t, target] of cached.entries()) {
    const samples = all[t + 1]!;
    const upstream = upstreamRequests[t + 1]!;
    const hits: number[] = [];
    const misses: number[] = [];
    const hitBase: number[] = [];
    const missBase: number[] = [];
    const missAdded: number[] = [];
    samples.forEach((s, i) => {
      if (s.cache === 'HIT') {
        hits.push(s.ms);
        hitBase.push(base[i]!.ms);
      } else {
        misses.push(s.ms);
        missBase.push(base[i]!.ms);
        missAdded.push(s.ms - base[i]!.ms);
      }
    });
    const id = target.name;
    report.add({
      section,
      id: `${id}.upstream-share`,
      label: `${id}: share of questions reaching the upstream`,
      value: upstream / sequence.length,
      unit: '',
      baseline: { label: 'no cache', value: offUpstream / sequence.length },
      note: `${upstream} of ${sequence.length} asked (${distinctAsked} distinct questions in the draw); ${hits.length} answered as HIT`,
    });
    report.add({
      section,
      id: `${id}.hit-p50`,
      label: `${id}: hit latency p50`,
      value: median(hits),
      unit: 'ms',
      baseline: { label: 'same questions, no cache', value: median(hitBase) },
    });
    report.add({
      section,
      id: `${id}.hit-p99`,
      label: `${id}: hit latency p99`,
      value: percentile(hits, 99),
      unit: 'ms',
      baseline: { label: 'same questions, no cache', value: percentile(hitBase, 99) },
    });
    report.add({
      section,
      id: `${id}.miss-p50`,
      label: `${id}: miss latency p50`,
      value: median(misses),
      unit: 'ms',
      baseline: { label: 'same questions, no cache', value: median(missBase) },
      note: `median added per miss (paired): ${median(missAdded).toFixed(2)} ms`,
    });
    report.add({
      section,
      id: `${id}.miss-p99`,
      label: `${id}: miss latency p99`,
      value: percentile(misses, 99),
      unit: 'ms',
      baseline: { label: 'same questions, no cache', value: percentile(missBase, 99) },
    });
  }
  report.add({ section, id: 'off.p50', label: 'no cache: latency p50 / p99', value: baseP50, unit: 'ms', note: `p99 ${baseP99.toFixed(2)} ms; ${offUpstream} of ${sequence.length} reached the upstream` });
}
