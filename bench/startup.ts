import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { performanceSession, readMetrics } from './lib/browser.js';
import { startPageServer } from './lib/page-server.js';
import type { Report } from './lib/report.js';
import { median } from './lib/stats.js';

interface StartupSample {
  /** ms from just before the bundle's <script> to the element's first render completing. */
  toFirstRender: number;
  /** JS heap used after first render and a forced GC, in bytes. */
  heap: number;
  rendered: boolean;
}

/** Inline classic script text, safe inside <script>. */
const inline = (code: string) => code.replace(/<\/(script)/gi, '<\\/$1');

/**
 * Start-up benchmark: a page holding the element's markup and the IIFE bundle inline (so
 * network time is out of the figure) measures, in the page, from just before the bundle
 * script to the end of the element's first update; then a GC and the JS heap size. The
 * floor element of the size benchmark is measured the same way, alternately, in fresh pages,
 * `repeats` of each, after an untimed first page of each when `warmUp`.
 */
export async function benchStartup(report: Report, browser: Browser, bundles: { real: string; box: string; floor: string }, { repeats, warmUp }: { repeats: number; warmUp: boolean }): Promise<void> {
  // The inline loader's box is fetched from beside the page (the inline script has no URL of its own).
  const server = await startPageServer({ chunks: [], sources: [], intervalMs: 1 }, { '/bot-answer-box.js': bundles.box });
  const page = (code: string, tag: string) =>
    `<!doctype html><html><head><meta charset="utf-8"></head><body>` +
    `<${tag} bot-id="demo" mode="inline"></${tag}>` +
    `<script>window.__t0 = performance.now();</script>` +
    `<script>${inline(code)}</script>` +
    `<script>(() => { const el = document.querySelector('${tag}'); Promise.resolve(el.updateComplete).then(() => {` +
    ` window.__t1 = performance.now(); window.__rendered = !!(el.shadowRoot && el.shadowRoot.childNodes.length); }); })();</script>` +
    `</body></html>`;
  server.page('/real', page(await readFile(bundles.real, 'utf8'), 'bot-answer'));
  server.page('/floor', page(await readFile(bundles.floor, 'utf8'), 'floor-element'));
  server.page('/blank', '<!doctype html><html><body></body></html>');

  async function sample(path: string): Promise<StartupSample> {
    const context = await browser.newContext();
    const p = await context.newPage();
    try {
      await p.goto(`${server.url}${path}`);
      await p.waitForFunction('window.__t1 !== undefined || location.pathname === "/blank"');
      const times = (await p.evaluate('({ t0: window.__t0, t1: window.__t1, rendered: window.__rendered })')) as { t0?: number; t1?: number; rendered?: boolean };
      const cdp = await performanceSession(p);
      await cdp.send('HeapProfiler.collectGarbage');
      const { heapUsed } = await readMetrics(cdp);
      return { toFirstRender: (times.t1 ?? Number.NaN) - (times.t0 ?? Number.NaN), heap: heapUsed, rendered: times.rendered ?? false };
    } finally {
      await context.close();
    }
  }

  const real: StartupSample[] = [];
  const floor: StartupSample[] = [];
  const blank: StartupSample[] = [];
  try {
    if (warmUp) {
      await sample('/real');
      await sample('/floor');
    }
    for (let i = 0; i < repeats; i++) {
      if (i % 2) floor.push(await sample('/floor'));
      real.push(await sample('/real'));
      if (i % 2 === 0) floor.push(await sample('/floor'));
      blank.push(await sample('/blank'));
    }
  } finally {
    await server.close();
  }
  const note = `median of ${repeats} fresh pages; bundle inline, IIFE`;
  report.add({
    section: 'startup',
    id: 'first-render',
    label: 'script evaluation to first render',
    value: median(real.map((s) => s.toFirstRender)),
    unit: 'ms',
    baseline: { label: 'floor element', value: median(floor.map((s) => s.toFirstRender)) },
    note,
  });
  const emptyHeap = median(blank.map((s) => s.heap));
  report.add({
    section: 'startup',
    id: 'heap',
    label: 'JS heap after first render (over a blank page)',
    value: (median(real.map((s) => s.heap)) - emptyHeap) / 1024,
    unit: 'KiB',
    baseline: { label: 'floor element', value: (median(floor.map((s) => s.heap)) - emptyHeap) / 1024 },
    note: `${note}; after a forced GC; blank page ${(emptyHeap / 1024).toFixed(0)} KiB subtracted`,
  });
  const notRendered = real.filter((s) => !s.rendered).length + floor.filter((s) => !s.rendered).length;
  if (notRendered) report.add({ section: 'startup', id: 'not-rendered', label: 'pages whose element had not rendered', value: notRendered, unit: 'pages' });
}
