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
  /** A first sample of each page whose figures are dropped (the browser's caches); a quick run, whose figures are not judged, skips it. */
  warmUp: boolean;
}

type Variant = 'stream' | 'json' | 'naive' | 'transport';

interface Sample {
  variant: Variant;
  kind: 'metrics' | 'frames' | 'trace';
  metrics: MainThreadMetrics;
  /** From a trace only: thread (CPU) time and wall time of the longest task. */
  longestTask: number;
  longestTaskWall: number;
  /** Long-task entries (over 50 ms wall time) seen by a PerformanceObserver. */
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
export async function benchRender(report: Report, browser: Browser, element: { es: string; box: string; chat: string }, naiveBundle: string, options: RenderOptions): Promise<void> {
  const answer = generateAnswer(options.answerBytes);
  const chunks = splitIntoChunks(answer, options.chunks);
  const server = await startPageServer(
    { chunks, sources: ANSWER_SOURCES, intervalMs: options.intervalMs },
    { '/bot-answer.js': element.es, '/bot-answer-box.js': element.box, '/bot-answer-chat.js': element.chat, '/naive.js': naiveBundle },
  );
  const page = (script: string, tag: string, attrs: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><script type="module" src="${script}"></script></head>` +
    `<body><${tag} id="subject" bot-id="demo" endpoint="/api/answer" ${attrs}></${tag}></body></html>`;
  server.page('/stream', page('/bot-answer.js', 'bot-answer', 'mode="inline"'));
  server.page('/json', page('/bot-answer.js', 'bot-answer', 'mode="inline" stream="false"'));
  server.page('/naive', page('/naive.js', 'naive-answer', ''));
  server.page('/transport', page('/naive.js', 'naive-answer', 'render="none"'));

  /**
   * One question in a fresh page. `metrics`: nothing else runs in the page; `frames`: the
   * page's requestAnimationFrame counter runs; `trace`: a Chrome trace is recorded.
   */
  async function sample(variant: Variant, kind: 'metrics' | 'frames' | 'trace'): Promise<Sample> {
    const trace = kind === 'trace';
    const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
    await context.addInitScript({ path: probe });
    const p = await context.newPage();
    try {
      await p.goto(`${server.url}/${variant}`);
      // The element's chat is loaded before the figures start (it loads on the first sign of intent): they are the answer's.
      if (variant === 'stream' || variant === 'json') await p.evaluate(`customElements.whenDefined('bot-answer').then(() => document.querySelector('#subject').load())`);
      const cdp = await performanceSession(p);
      const timeoutMs = variant === 'naive' ? 300_000 : 60_000;
      const args = JSON.stringify({ selector: '#subject', message: 'Summarise the policies.', marker: END_MARKER, expected: answer, timeoutMs, countFrames: kind === 'frames' });
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
      const traced = trace ? longestTaskInTrace(await browser.stopTracing()) : undefined;
      return {
        variant,
        kind,
        metrics: diffMetrics(before, after),
        longestTask: traced?.cpu ?? Number.NaN,
        longestTaskWall: traced?.wall ?? Number.NaN,
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
    if (options.warmUp) {
      await sample('json', 'metrics');
      await sample('stream', 'metrics');
    }
    // Main-thread time comes from samples without any instrument running in the page.
    for (let i = 0; i < options.repeats; i++) {
      samples.push(await sample(i % 2 ? 'json' : 'stream', 'metrics'));
      samples.push(await sample(i % 2 ? 'stream' : 'json', 'metrics'));
      samples.push(await sample('transport', 'metrics'));
    }
    // Frames come from a sample with a requestAnimationFrame counter in the page (it costs a little).
    samples.push(await sample('stream', 'frames'));
    // A trace gives the exact longest task (long-task entries only report tasks over 50 ms).
    samples.push(await sample('stream', 'trace'));
    samples.push(await sample('naive', 'metrics'));
  } finally {
    await server.close();
  }

  const of = (v: Variant, kind: Sample['kind']) => samples.filter((s) => s.variant === v && s.kind === kind);
  const all = (v: Variant) => samples.filter((s) => s.variant === v);
  const med = (v: Variant, f: (s: Sample) => number) => median(of(v, 'metrics').map(f));
  const stream = (f: (s: Sample) => number) => med('stream', f);
  const json = (f: (s: Sample) => number) => med('json', f);
  const naive = (f: (s: Sample) => number) => med('naive', f);
  const n = of('stream', 'metrics').length;
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
  report.add({
    section: 'render',
    id: 'transport.task',
    label: 'main-thread time, stream only read and parsed',
    value: med('transport', task),
    unit: 'ms',
    baseline: { label: 'JSON, one render', value: jsonTask },
    note: 'bench-only: the same stream read with fetch and eventsource-parser, each event JSON-parsed, the text shown once at the end; what streaming costs before any rendering',
  });
  report.add({
    section: 'render',
    id: 'stream.script',
    label: 'script time, streaming',
    value: stream((s) => s.metrics.script),
    unit: 'ms',
    note: "Chrome's ScriptDuration, which leaves out microtasks (where the JSON path renders), so no JSON baseline",
  });
  for (const [id, label, pick] of [
    ['layout', 'layout time, streaming', (s: Sample) => s.metrics.layout],
    ['style', 'style recalc time, streaming', (s: Sample) => s.metrics.style],
  ] as const) {
    report.add({ section: 'render', id: `stream.${id}`, label, value: stream(pick), unit: 'ms', baseline: { label: 'JSON', value: json(pick) } });
  }
  const traced = of('stream', 'trace')[0];
  if (traced) {
    const wallLongTasks = all('stream').flatMap((s) => s.longTasks);
    report.add({
      section: 'render',
      id: 'stream.longest-task',
      label: 'longest task, streaming (thread time)',
      value: traced.longestTask,
      unit: 'ms',
      goal: '< 50 ms',
      met: traced.longestTask < 50,
      note: `from a trace (RunTask on the renderer main thread, thread clock); wall clock ${traced.longestTaskWall.toFixed(1)} ms; long-task entries over 50 ms wall in all streaming samples: ${wallLongTasks.length}${wallLongTasks.length ? ` (max ${max(wallLongTasks).toFixed(0)} ms)` : ''}`,
    });
  }
  const naiveLong = of('naive', 'metrics')[0]?.longTasks ?? [];
  if (naiveLong.length) {
    report.add({ section: 'render', id: 'naive.longest-task', label: 'longest task, naive re-render (wall)', value: max(naiveLong), unit: 'ms', note: `${naiveLong.length} long-task entries` });
  }
  const framed = of('stream', 'frames')[0];
  if (framed) {
    report.add({
      section: 'render',
      id: 'stream.slow-frames',
      label: `frames over 16 ms (rAF gap > ${SLOW_FRAME_MS} ms), streaming`,
      value: framed.slowFrames,
      unit: `of ${framed.frames}`,
      note: 'one sample with a requestAnimationFrame counter in the page, from the question to the answer on screen',
    });
  }
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
