/**
 * Written answers: what the local Answer API adds before the model is called, and how soon the
 * model's first token reaches a visitor, against a stand-in model server on loopback (no real
 * model: its own time is not ours to measure).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProxy } from '../packages/bot-answer-proxy/src/proxy/node.js';
import { loadBots } from '../packages/bot-answer-engine/src/upstream/bots.js';
import { buildMessages, numberSources } from '../packages/bot-answer-engine/src/upstream/compose/written/prompt.js';
import { startAnswerApi } from '../packages/bot-answer-engine/src/upstream/index.js';
import { frames, startFakeModel } from '../test/upstream/written/fake-model.js';
import type { Report } from './lib/report.js';
import { median, percentile } from './lib/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const QUESTIONS = (JSON.parse(readFileSync(join(here, '..', 'test', 'upstream', 'sample-questions.json'), 'utf8')) as { question: string }[]).map((q) => q.question);

export interface WrittenOptions {
  /** Rounds over the 24 sample questions. */
  rounds: number;
  /** Rounds of the in-process timing (a millisecond a question: more samples hold its tail still). */
  inProcessRounds: number;
}

export async function benchWritten(report: Report, options: WrittenOptions): Promise<void> {
  await beforeTheModel(report, options);
  await firstText(report, options);
}

/**
 * Retrieval and the prompt, two ways: in-process (retrieval, numbering the passages, the
 * messages and the request body, as the server does them), and over HTTP from the moment a
 * client sends the question to the local Answer API to the moment the model server has the
 * request (which also counts both loopback hops, the body reads and the auth check: an upper bound).
 */
async function beforeTheModel(report: Report, { rounds, inProcessRounds }: WrittenOptions): Promise<void> {
  const bots = await loadBots(undefined, undefined, { watch: false });
  const bot = bots.get('demo')!;
  const inProcess: number[] = [];
  const cpu: number[] = [];
  // The first round warms the JIT up; then the figure's rounds, then as many again with the same
  // engine (a diagnosis beside the figure: V8 is still optimising the hot path in the first
  // rounds after one round of warm-up, on its helper threads, which the process's CPU time counts).
  const settled: number[] = [];
  for (let round = 0; round < 2 * inProcessRounds + 1; round++) {
    for (const question of QUESTIONS) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const passages = bot.retrieve(question);
      const body = JSON.stringify({ model: 'm', messages: buildMessages(numberSources(passages, 5), question, []), stream: true, stream_options: { include_usage: true } });
      const took = performance.now() - started;
      const used = process.cpuUsage(cpuBefore);
      if (round === 0 || body.length === 0) continue;
      if (round <= inProcessRounds) {
        inProcess.push(took);
        cpu.push((used.user + used.system) / 1000);
      } else settled.push((used.user + used.system) / 1000);
    }
  }
  for (const b of bots.values()) b.close();

  const model = await startFakeModel();
  model.answer({ steps: frames(['Fine [1].']) });
  const api = await startAnswerApi({ port: 0, watch: false, llmBaseUrl: model.url, llmModel: 'm' });
  const overHttp: number[] = [];
  try {
    for (let round = 0; round < rounds + 1; round++) {
      for (const question of QUESTIONS) {
        const asked = model.requests.length;
        const sent = performance.now();
        const response = await fetch(`${api.url}/v1/answer`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${api.keys[0]}` },
          body: JSON.stringify({ message: question, bot_id: 'demo' }),
        });
        await response.arrayBuffer();
        const arrived = model.requests[asked]?.receivedAt;
        if (round > 0 && arrived !== undefined) overHttp.push(arrived - sent);
      }
    }
  } finally {
    await api.close();
    await model.close();
  }

  report.add({
    section: 'written',
    id: 'before-model.in-process.p50',
    label: 'written mode before the model is called: retrieval and prompt, in-process, p50',
    value: median(inProcess),
    unit: 'ms',
    goal: '<= 5 ms (p50 wall, p95 CPU)',
    met: median(inProcess) <= 5 && percentile(cpu, 95) <= 5,
    note:
      `the 24 sample questions, ${inProcessRounds} rounds after a warm-up round (${inProcess.length} samples): bot.retrieve + numbering + messages + request body, wall clock; ` +
      `p95 ${percentile(inProcess, 95).toFixed(2)} ms wall, max ${Math.max(...inProcess).toFixed(1)} ms (on a shared 2-core machine the wall tail is mostly waiting for a core); ` +
      `CPU time of the process over the same work: p50 ${median(cpu).toFixed(2)}, p95 ${percentile(cpu, 95).toFixed(2)} ms`,
  });
  report.add({
    section: 'written',
    id: 'before-model.in-process.settled.p95-cpu',
    label: 'the same, CPU p95 once V8 has optimised the hot path (a diagnosis, no goal)',
    value: percentile(settled, 95),
    unit: 'ms',
    note:
      `the next ${inProcessRounds} rounds of the same loop (${settled.length} samples, after ${inProcessRounds + 1} rounds), process CPU time: p50 ${median(settled).toFixed(2)} ms; ` +
      'the figure above counts the compiling V8 does on its helper threads in the first rounds after one round of warm-up, once per process',
  });
  report.add({
    section: 'written',
    id: 'before-model.http.p50',
    label: 'question sent to the local Answer API until the model server has its request, p50',
    value: median(overHttp),
    unit: 'ms',
    note: `same questions over loopback (${overHttp.length} samples), JSON mode; an upper bound: also both HTTP hops, body reads, auth and validation; p95 ${percentile(overHttp, 95).toFixed(2)} ms`,
  });
}

/**
 * The model's first token to the first text event a visitor reads, through the proxy in front
 * of the local Answer API: the model server notes the time it writes its first content chunk
 * (after a role-only chunk and a pause, as models do), the client the time its first `delta` arrives.
 */
async function firstText(report: Report, { rounds }: WrittenOptions): Promise<void> {
  const model = await startFakeModel();
  const api = await startAnswerApi({ port: 0, watch: false, llmBaseUrl: model.url, llmModel: 'm' });
  const proxy = await startProxy({ apiKey: api.keys[0]!, baseUrl: api.url, port: 0, log: false, rateLimitPerMinute: 0 });
  const lags: number[] = [];
  try {
    for (let round = 0; round < rounds + 1; round++) {
      for (const question of QUESTIONS) {
        let tokenAt = Number.NaN;
        const [role, first, ...rest] = frames(['Here is', ' the answer [1].']);
        model.answer({ steps: [role!, { waitMs: 20 }, { call: () => (tokenAt = performance.now()) }, first!, { waitMs: 20 }, ...rest] });
        const response = await fetch(`${proxy.url}/api/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: question, bot_id: 'demo', stream: true }) });
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        let text = '';
        let seenAt = Number.NaN;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
          if (Number.isNaN(seenAt) && text.includes('event: delta')) seenAt = performance.now();
        }
        if (round > 0 && text.includes('event: done') && Number.isFinite(seenAt - tokenAt)) lags.push(seenAt - tokenAt);
      }
    }
  } finally {
    await proxy.close();
    await api.close();
    await model.close();
  }
  report.add({
    section: 'written',
    id: 'first-text.p99',
    label: "model's first token to the first text a visitor receives (through the proxy), p99",
    value: percentile(lags, 99),
    unit: 'ms',
    goal: '<= 50 ms',
    met: lags.length > 0 && percentile(lags, 99) <= 50,
    note: `${lags.length} streamed answers (the 24 sample questions, ${rounds} rounds after a warm-up); p50 ${median(lags).toFixed(2)} ms; the local Answer API and the proxy in the benchmark's process`,
  });
}
