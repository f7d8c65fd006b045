import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
// @ts-expect-error plain JavaScript helper shared with the test runner config (no declarations)
import { CHROME_ARGS, requireChrome } from '../../scripts/find-chrome.mjs';

/** Starts the system Chromium headless, with the same flags as the browser tests. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: requireChrome() as string, headless: true, args: CHROME_ARGS as string[] });
}

/** Chrome's main-thread counters for one page (Performance.getMetrics), durations in milliseconds. */
export interface MainThreadMetrics {
  task: number;
  script: number;
  layout: number;
  style: number;
  heapUsed: number;
}

/** Reads Performance.getMetrics through the DevTools protocol (the session must have Performance.enable'd). */
export async function readMetrics(cdp: CDPSession): Promise<MainThreadMetrics> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const get = (name: string) => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
  return {
    task: get('TaskDuration') * 1000,
    script: get('ScriptDuration') * 1000,
    layout: get('LayoutDuration') * 1000,
    style: get('RecalcStyleDuration') * 1000,
    heapUsed: get('JSHeapUsedSize'),
  };
}

/** after - before, per counter. */
export function diffMetrics(before: MainThreadMetrics, after: MainThreadMetrics): MainThreadMetrics {
  return {
    task: after.task - before.task,
    script: after.script - before.script,
    layout: after.layout - before.layout,
    style: after.style - before.style,
    heapUsed: after.heapUsed - before.heapUsed,
  };
}

/** Opens a CDP session with the Performance domain on. */
export async function performanceSession(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  // Thread time: the main thread's own CPU time, so other processes on a shared machine do not inflate it.
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  return cdp;
}

/**
 * Longest main-thread task in a Chrome trace (RunTask events on the renderer's main thread),
 * in ms: `cpu` from the event's thread-clock duration (what the task itself cost, whatever
 * else the machine was running), `wall` from its wall-clock duration.
 */
export function longestTaskInTrace(trace: Buffer): { cpu: number; wall: number } {
  const { traceEvents } = JSON.parse(trace.toString('utf8')) as {
    traceEvents: { name: string; ph: string; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string } }[];
  };
  const mainThreads = new Set(traceEvents.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  let cpu = 0;
  let wall = 0;
  for (const e of traceEvents) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || e.dur === undefined || !mainThreads.has(`${e.pid}:${e.tid}`)) continue;
    wall = Math.max(wall, e.dur / 1000);
    cpu = Math.max(cpu, (e.tdur ?? e.dur) / 1000);
  }
  return { cpu, wall };
}
