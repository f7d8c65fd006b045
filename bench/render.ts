import type { Browser } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { ANSWER_SOURCES, END_MARKER, generateAnswer, splitIntoChunks } from './fixtures/answer.js';
import { diffMetrics, longestTaskInTrace, performanceSession, readMetrics, type MainThreadMetrics } from './lib/browser.js';
import { startPageServer } from './lib/page-server.js';
import type { Report } from './lib/report.js';
import { max, median } from './lib/stats.js';

/** Sizes of the render benchmark. */
export interface RenderOptions {
  answerBytes: number;
  chunks: number;
  /** Milliseconds between chunk writes by the local endpoint. */
  intervalMs: number;
  /** Samples of the element streaming and of the JSON baseline (alternated); the naive baseline runs once. */
  repeats: number;
}

type Variant = 'stream' | 'json' | 'naive';

interface Sample {
  variant: Variant;
  metrics: MainThreadMetrics;
  longestTask: number;
  longTasks: number[];
  frames: number;
  slowFrames: number;
  lastByteToScreen: number;
  answerMatches: boolean | null;
}

/** A frame counts as slow when its rAF interval is past one and a half 60 Hz periods: at least one frame was dropped. */
const SLOW_FRAME_MS = 25;

const probe = fileURLToPath(new URL('./browser/probe.js', import.meta.url));

/**
 * Streaming render benchmark: the real <bot-answer> streaming a generated Markdown answer
 * from a local endpoint, against (a) the same element rendering the same answer from JSON
 * and (b) a naive element that re-renders the whole text per chunk, all in one browser.
 */
export async function benchRender(report: Report, browser: Browser, bundle: string, naiveBundle: string, options: RenderOptions): Promise<void> {
  const answer = generateAnswer(options.answerBytes);
  const chunks = splitIntoChunks(answer, options.chunks);
  const server = await startPageServer({ chunks, sources: ANSWER_SOURCES, intervalMs: options.intervalMs }, { '/bot-answer.js': bundle, '/naive.js': naiveBundle });
  const page = (script: string, tag: string, attrs: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><script type="module" src="${script}"></script></head>` +
    `<body><${tag} id="subject" bot-id="demo" endpoint="/api/answer" ${attrs}></${tag}></body></html>`;
  server.page('/stream', page('/bot-answer.js', 'bot-answer', 'mode="inline"'));
  server.page('/json', page('/bot-answer.js', 'bot-answer', 'mode="inline" stream="false"'));
  server.page('/naive', page('/naive.js', 'naive-answer', ''));

  async function sample(variant: Variant, trace: boolean): Promise<Sample> {
    const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
    await context.addInitScript({ path: probe });
    const p = await context.newPage();
    try {
      await p.goto(`${server.url}/${variant}`);
      const cdp = await performanceSession(p);
      const timeoutMs = variant === 'naive' ? 300_000 : 60_000;
      const args = JSON.stringify({ selector: '#subject', message: 'Summarise the policies.', marker: END_MARKER, expected: answer, timeoutMs });
      if (trace) await browser.startTracing(p, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'] });
      const before = await readMetrics(cdp);
      const result = (await p.evaluate(`window.__bench.run(${args})`)) as {
        onScreenAt: number;
        responseEnd: number;
        frameDeltas: number[];
        longTasks: number[];
        answerMatches: boolean | null;
      };
      const after = await readMetrics(cdp);
      const traced = trace ? longestTaskInTrace(await browser.stopTracing()) : Number.NaN;
      return {
        variant,
        metrics: diffMetrics(before, after),
        longestTask: Math.max(traced || 0, max(result.longTasks) || 0),
        longTasks: result.longTasks,
        frames: result.frameDeltas.length,
        slowFrames: result.frameDeltas.filter((d) => d > SLOW_FRAME_MS).length,
        lastByteToScreen: result.onScreenAt - result.responseEnd,
        answerMatches: result.answerMatches,
      };
    } finally {
      await context.close();
    }
  }

  const samples: Sample[] = [];
  try {
    // Warm up the browser's caches for both pages so the first measured sample is not an outlier.
    await sample('json', false);
    for (let i = 0; i < options.repeats; i++) {
      samples.push(await sample(i % 2 ? 'json' : 'stream', false));
      samples.push(await sample(i % 2 ? 'stream' : 'json', false));
    }
    // Traced runs give the exact longest task (long-task entries only report tasks over 50 ms).
    samples.push({ ...(await sample('stream', true)), variant: 'stream', traceOnly: true } as Sample & { traceOnly: boolean });
    samples.push(await sample('naive', false));
  } finally {
    await server.close();
  }

  const untraced = (v: Variant) => samples.filter((s) => s.variant === v && !(s as Sample & { traceOnly?: boolean }).traceOnly);
  const all = (v: Variant) => samples.filter((s) => s.variant === v);
  const med = (v: Variant, f: (s: Sample) => number) => median(untraced(v).map(f));
  const stream = (f: (s: Sample) => number) => med('stream', f);
  const json = (f: (s: Sample) => number) => med('json', f);
  const naive = (f: (s: Sample) => number) => med('naive', f);
  const n = untraced('stream').length;
  const sizeNote = `${(answer.length / 1024).toFixed(1)} KiB answer in ${chunks.length} chunks, ${options.intervalMs} ms apart; median of ${n}`;
  const task = (s: Sample) => s.metrics.task;

  const streamTask = stream(task);
  const jsonTask = json(task);
  const naiveTask = naive(task);
  report.add({
    section: 'render',
    id: 'stream.task',
    label: 'main-thread time, streaming',
    value: streamTask,
    unit: 'ms',
    baseline: { label: 'JSON, one render', value: jsonTask },
    goal: '<= 3x JSON',
    met: streamTask <= 3 * jsonTask,
    note: `Chrome TaskDuration (thread time), ${sizeNote}`,
  });
  report.add({
    section: 'render',
    id: 'stream.vs-naive',
    label: 'main-thread time, naive re-render',
    value: naiveTask,
    unit: 'ms',
    baseline: { label: 'streaming', value: streamTask },
    goal: '>= 10x streaming',
    met: naiveTask >= 10 * streamTask,
    note: 'bench-only element: marked.parse + DOMPurify.sanitize of the whole text and innerHTML per chunk; one sample',
  });
  for (const [id, label, pick] of [
    ['script', 'script time, streaming', (s: Sample) => s.metrics.script],
    ['layout', 'layout time, streaming', (s: Sample) => s.metrics.layout],
    ['style', 'style recalc time, streaming', (s: Sample) => s.metrics.style],
  ] as const) {
    report.add({ section: 'render', id: `stream.${id}`, label, value: stream(pick), unit: 'ms', baseline: { label: 'JSON', value: json(pick) } });
  }
  const longest = max(all('stream').map((s) => s.longestTask));
  report.add({
    section: 'render',
    id: 'stream.longest-task',
    label: 'longest task, streaming',
    value: longest,
    unit: 'ms',
    baseline: { label: 'naive', value: max(all('naive').map((s) => s.longestTask)) },
    goal: '< 50 ms',
    met: longest < 50,
    note: 'max over all streaming samples: a trace (RunTask on the renderer main thread) and long-task entries',
  });
  report.add({
    section: 'render',
    id: 'stream.slow-frames',
    label: `frames over 16 ms (rAF gap > ${SLOW_FRAME_MS} ms), streaming`,
    value: stream((s) => s.slowFrames),
    unit: `of ${Math.round(stream((s) => s.frames))}`,
    baseline: { label: 'naive', value: naive((s) => s.slowFrames) },
  });
  report.add({
    section: 'render',
    id: 'stream.last-byte-to-screen',
    label: 'last byte received to final answer on screen',
    value: stream((s) => s.lastByteToScreen),
    unit: 'ms',
    baseline: { label: 'JSON', value: json((s) => s.lastByteToScreen) },
    note: 'Resource Timing responseEnd to the first animation frame whose DOM holds the last words',
  });
  const mismatched = samples.filter((s) => s.answerMatches === false).length;
  report.add({
    section: 'render',
    id: 'stream.answer-exact',
    label: 'bot-answer-done answers differing from the text sent',
    value: mismatched,
    unit: `of ${samples.filter((s) => s.variant !== 'naive').length}`,
  });
}
