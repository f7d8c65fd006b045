import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { performanceSession, readMetrics } from './lib/browser.js';
import type { Report } from './lib/report.js';
import { max, median } from './lib/stats.js';

/** Settings of the page-cost benchmark. */
export interface PageCostOptions {
  /** Fresh pages per row, kind of sample and CPU rate (rounds alternate the rows). */
  samples: number;
  /** CPU slowdowns to run at (1 is none). */
  rates: number[];
  /** A first round per rate whose figures are dropped (caches, JIT, the machine's first run). */
  warmUp: boolean;
  /** The rows to run, by id (default: all): the quick run takes the page alone, the loader and the baseline. */
  rows?: string[];
  /**
   * The kinds of sample each row takes, by row id (default: every kind it has). The quick run takes each
   * kind once where its code differs (a press after a rest and at once, the chat over a launcher and in an
   * inline box), not every kind on every row.
   */
  kinds?: Record<string, Kind[]>;
  /** Quiet time after the widget shows before the figures of a page load are read, ms. */
  settleMs: number;
}

/** Where the element's files come from: the current build, and today's single bundle (the baseline). */
export interface PageCostFiles {
  /** `dist/`: the loaders, the box and the chat. */
  dist: string;
  /** The single bundle (`bot-answer.js` of the baseline commit), or why there is none. */
  baseline: string | { missing: string };
}

/** One widget on the article page. */
interface Row {
  id: string;
  label: string;
  /** Markup in the page's head (its scripts) and body (the element). */
  head: string;
  body: string;
  /** In the page: the element that shows the widget is there (its launcher, or its box's question field). */
  visible: string;
  /** In the page, for widgets with a launcher: the launcher, and whether the question field has focus. */
  launcher?: string;
  focused?: string;
  /** In the page, for bot-answer: resolves once its chat is loaded (so every byte of an open widget is counted). */
  opened?: string;
}

const KiB = 1024;
/** How long a pointer rests on the launcher before pressing it, for the head start: a deliberate move to a button, then a click. */
const HOVER_MS = 250;

const BOT = (mode: 'floating' | 'inline') => `<bot-answer bot-id="demo" endpoint="/api/answer" mode="${mode}" heading="Ask the docs" suggestions="How do I get started?|What does it cost?"></bot-answer>`;
const LAUNCHER = `document.querySelector('bot-answer')?.shadowRoot?.querySelector('[part=launcher]')`;
const FIELD = `document.querySelector('bot-answer')?.shadowRoot?.querySelector('[part=input]')`;
const FOCUSED = `document.activeElement?.shadowRoot?.activeElement?.localName == 'textarea'`;
const OPENED = `document.querySelector('bot-answer').load()`;
/** The box's file, which the loader fetches once the page is idle. */
const BOX_FILE = '/dist/bot-answer-box.js';

/** An article of about 6 KB of HTML: headings, paragraphs, a list and a table, no other script. */
function article(): string {
  const paragraph = (i: number) =>
    `<p>Section ${i} explains how the product handles accounts, billing and deployment. Teams read it before they ask support, ` +
    `and most answers are here: the limits of each plan, how keys rotate, what happens when a payment fails, and where the logs go.</p>`;
  const sections = Array.from({ length: 8 }, (_, i) => `<h2>Part ${i + 1}</h2>${paragraph(i * 2)}${paragraph(i * 2 + 1)}`).join('');
  return `<h1>Getting started</h1><ul><li>Install</li><li>Configure</li><li>Deploy</li></ul>${sections}<table><tr><th>Plan</th><th>Limit</th></tr><tr><td>Free</td><td>100</td></tr></table>`;
}

/** The rows: the page alone, the loader (module and classic script, floating and inline), today's single bundle, two peers. */
function rows(baseline: boolean): Row[] {
  const bot = (id: string, label: string, script: string, mode: 'floating' | 'inline'): Row => ({
    id,
    label,
    head: script,
    body: BOT(mode),
    visible: mode == 'floating' ? LAUNCHER : FIELD,
    ...(mode == 'floating' ? { launcher: LAUNCHER, focused: FOCUSED } : {}),
    // The single bundle has everything from the start.
    ...(id.startsWith('loader') ? { opened: OPENED } : {}),
  });
  return [
    { id: 'none', label: 'the page alone', head: '', body: '', visible: `document.body` },
    bot('loader', 'bot-answer loader (module), floating', '<script type="module" src="/dist/bot-answer.js"></script>', 'floating'),
    bot('loader-classic', 'bot-answer loader (classic script), floating', '<script src="/dist/bot-answer.iife.js" defer></script>', 'floating'),
    bot('loader-inline', 'bot-answer loader (module), inline', '<script type="module" src="/dist/bot-answer.js"></script>', 'inline'),
    // The README's advice for inline pages: the box fetched alongside the loader, not after it.
    bot(
      'loader-inline-preload',
      'bot-answer loader (module), inline, box preloaded',
      '<script type="module" src="/dist/bot-answer.js"></script><link rel="modulepreload" href="/dist/bot-answer-box.js">',
      'inline',
    ),
    ...(baseline
      ? [
          bot('single', 'bot-answer single bundle (today), floating', '<script type="module" src="/baseline/bot-answer.js"></script>', 'floating'),
          bot('single-inline', 'bot-answer single bundle (today), inline', '<script type="module" src="/baseline/bot-answer.js"></script>', 'inline'),
        ]
      : []),
    {
      id: 'deep-chat',
      label: 'deep-chat 2.4.2 (inline chat)',
      head: '<script type="module" src="/peers/deep-chat.js"></script>',
      body: '<deep-chat></deep-chat>',
      visible: `document.querySelector('deep-chat')?.shadowRoot?.querySelector('#text-input')`,
    },
    {
      id: 'markprompt',
      label: '@markprompt/web 0.14.3, floating',
      head:
        '<link rel="stylesheet" href="/peers/markprompt.css"><script src="/peers/markprompt-config.js"></script>' +
        '<script type="module" src="/peers/markprompt.js"></script>',
      body: '<div id="markprompt"></div>',
      visible: `document.querySelector('.MarkpromptFloatingTrigger')`,
      launcher: `document.querySelector('.MarkpromptFloatingTrigger')`,
      focused: `document.activeElement?.id == 'markprompt-prompt'`,
    },
  ];
}

/**
 * Runs before the page's own scripts: records when the widget first shows (an animation frame in which its
 * element has a size), pointer-down, and the first frame after it in which the question field has focus.
 */
const probe = (row: Row) => `(() => {
  const p = (window.__cost = {});
  const shown = () => { try { const el = ${row.visible}; if (el && el.getBoundingClientRect().height > 0) return true; } catch {} };
  const watch = () => (shown() ? (p.visibleAt = performance.now()) : requestAnimationFrame(watch));
  requestAnimationFrame(watch);
  // Focus moving inside a shadow root is not seen from outside it: each frame after pointer-down looks.
  const focused = () => { try { return ${row.focused ?? 'false'}; } catch {} };
  const usable = () => (focused() ? (p.usable = performance.now()) : requestAnimationFrame(usable));
  addEventListener('pointerdown', () => p.down ?? ((p.down = performance.now()), requestAnimationFrame(usable)), true);
})();`;

/** What a sample does after the load (see `sample`). */
export type Kind = 'warm' | 'cold' | 'chat';

interface Load {
  /** gzip bytes of the JavaScript fetched before any interaction (less `jsIdle`), and once open. */
  jsBefore: number;
  /** gzip bytes of the box's file fetched when the page was idle, before any interaction, on a page that had not drawn it. */
  jsIdle: number;
  jsOpen?: number;
  /** The whole renderer main thread's time over the load (TaskDuration, thread time), ms. */
  task: number;
  /**
   * From the trace of the load, the widget's own tasks: their thread time, and their blocking time (thread time
   * beyond 50 ms each; `blockingWall` by wall time), at load and, apart, once the page was idle (the loader's idle-time fetch of the box, on
   * a floating page that has not drawn it), ms.
   */
  widget: number;
  widgetIdle: number;
  blocking: number;
  blockingWall: number;
  blockingIdle: number;
  /** The widget's longest task, at load or idle: thread time and wall time, ms. */
  longestCpu: number;
  longestWall: number;
  /** Every task of the page's main thread over the load, the page's own included: blocking time (wall), ms. */
  tbt: number;
  /** ms from navigation start to the widget shown. */
  visible: number;
  /** Pointer-down to a focused question field, after a hover head start and without one, ms. */
  warm?: number;
  cold?: number;
  /** Longest main-thread task while the chat loads (bot-answer's loader): thread and wall time, ms. */
  chatCpu?: number;
  chatWall?: number;
  /** Main-thread time of loading the box and the chat (what a page would pay to load them when idle), ms. */
  chatTask?: number;
}

/** One task of the page's renderer main thread in a Chrome trace: wall and thread-time durations, ms. */
interface Task {
  wall: number;
  cpu: number;
  /** Thread time and wall time of the page's own parsing in it, ms. */
  own: number;
  ownWall: number;
  /** Whether it runs one of the widget's scripts (a file the page fetched, evaluated or called back). */
  widget: boolean;
  /** Whether it runs an idle callback (the page itself has none). */
  idle: boolean;
}

type TraceEvent = { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string; fileName?: string; data?: { url?: string; frames?: { processId: number; isInPrimaryMainFrame?: boolean }[] } } };

/** A script file fetched by the page (the page itself has none; the probe and the harness's evaluations have no URL). */
const SCRIPT_FILE = /^https?:\/\/[^#?]*\.js(?:[?#]|$)/;

/**
 * The tasks (RunTask events) of the page's own renderer main thread in a Chrome trace: the renderer of the tab's
 * main frame when tracing started, not the browser's other renderers. Each is the widget's when something in it
 * compiles, evaluates or calls one of the fetched scripts: module compilation and evaluation (the page has no
 * module of its own), a classic script's evaluation, a callback (event listener, timer, animation frame, idle
 * callback) whose function lives in such a file. The microtasks and the style and layout that our code forces
 * within such a task count with it; the page's own parsing that the browser runs in the same task (a deferred
 * script runs in the task that ends the parse: `ParseHTML`, `Document::FinishedParsing`, which lays out the whole
 * page) does not, nor do the page's frames, which paint the widget with everything else.
 */
function tasks(trace: Buffer): Task[] {
  const { traceEvents } = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] };
  const started = traceEvents.find((e) => e.name === 'TracingStartedInBrowser')?.args?.data?.frames?.find((f) => f.isInPrimaryMainFrame);
  const main = traceEvents.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === started?.processId);
  if (!main) throw new Error('page-cost: the page\'s renderer main thread is not in the trace');
  const events = traceEvents.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const ours = (e: TraceEvent) =>
    e.name === 'v8.compileModule' || e.name === 'v8.evaluateModule' || ((e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.compile') && SCRIPT_FILE.test(e.args?.data?.url ?? ''));
  const out: Task[] = [];
  for (let i = 0; i < events.length; i++) {
    const t = events[i]!;
    if (t.name !== 'RunTask' || t.dur === undefined) continue;
    const task: Task = { wall: t.dur / 1000, cpu: (t.tdur ?? t.dur) / 1000, own: 0, ownWall: 0, widget: false, idle: false };
    const end = t.ts + t.dur;
    /** The end of the page's own parsing work last seen in the task (what is nested in it is not counted twice). */
    let parsed = 0;
    for (let j = i + 1; j < events.length && events[j]!.ts <= end; j++) {
      const e = events[j]!;
      if (ours(e)) task.widget = true;
      if ((e.name === 'ParseHTML' || e.name === 'Document::FinishedParsing') && e.ts >= parsed && e.dur !== undefined) {
        task.own += (e.tdur ?? e.dur) / 1000;
        task.ownWall += e.dur / 1000;
        parsed = e.ts + e.dur;
      }
      if (e.name === 'FireIdleCallback') task.idle = true;
    }
    out.push(task);
  }
  return out;
}

/**
 * Lighthouse's blocking time of `list`: each task's time beyond 50 ms, summed; by thread time, or by wall time
 * as Lighthouse counts it (on this shared machine, wall time also counts the neighbours' work).
 */
const blocking = (list: Task[], by: 'cpu' | 'wall' = 'cpu') => list.reduce((sum, t) => sum + Math.max(0, t[by] - 50), 0);

/**
 * Page-cost benchmark: what a page pays for each widget, the page alone and today's single bundle measured
 * in the same run, in alternating fresh pages, at 1x and 4x CPU slowdown (CDP
 * Emulation.setCPUThrottlingRate). Every file comes from this machine (the peers from node_modules);
 * requests to anything else are refused.
 */
export async function benchPageCost(report: Report, browser: Browser, files: PageCostFiles, options: PageCostOptions): Promise<void> {
  // The peers' prebuilt browser files, found from their packages' main files (their exports hide package.json).
  const require = createRequire(import.meta.url);
  const peers: Record<string, string> = {
    '/peers/deep-chat.js': join(dirname(require.resolve('deep-chat')), 'deepChat.bundle.js'),
    '/peers/markprompt.js': join(dirname(require.resolve('@markprompt/web')), 'init.js'),
    '/peers/markprompt.css': require.resolve('@markprompt/css/markprompt.css'),
  };
  const baseline = typeof files.baseline === 'string' ? dirname(files.baseline) : undefined;
  const all = rows(!!baseline).filter((row) => !options.rows || options.rows.includes(row.id));
  /** gzip size of each file served, by URL path. */
  const gzipped = new Map<string, number>();
  const sent: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    sent.push(path);
    const row = all.find((r) => path === `/${r.id}`);
    if (path === '/blank') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><link rel="icon" href="data:,">');
    if (row) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Docs</title>${row.head}</head><body>${article()}${row.body}</body></html>`);
    }
    if (req.method === 'POST' && path === '/api/answer') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ answer: 'An answer.', answer_found: true, sources: [] }));
    }
    if (path === '/peers/markprompt-config.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      return res.end(`window.markprompt = { projectKey: 'bench', container: '#markprompt' };`);
    }
    const file = peers[path] ?? (path.startsWith('/dist/') ? join(files.dist, path.slice(6)) : baseline && path.startsWith('/baseline/') ? join(baseline, path.slice(10)) : undefined);
    const body = file && (await readFile(file).catch(() => undefined));
    if (!body) return res.writeHead(404).end();
    if (path.endsWith('.js')) gzipped.set(path, gzipSync(body, { level: 9 }).length);
    res.writeHead(200, { 'content-type': path.endsWith('.css') ? 'text/css' : 'text/javascript', 'cache-control': 'no-store' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** Presses that never gave a focused field, by row. */
  const timedOut = new Map<string, number>();
  const jsSince = (from: number) => sent.slice(from).reduce((sum, path) => sum + (gzipped.get(path) ?? 0), 0);

  /** Waits until `expression` is true in the page (polled; the page may refuse eval). */
  async function until(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!(await page.evaluate<boolean>(`!!(${expression})`))) {
      if (Date.now() > end) throw new Error(`page-cost: timed out waiting for ${expression}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Moves the pointer onto the launcher, rests `restMs`, presses it; resolves with pointer-down to a focused field, ms. */
  async function press(page: Page, row: Row, restMs: number): Promise<number> {
    const box = await page.evaluate<{ x: number; y: number; width: number; height: number }>(`(() => { const r = (${row.launcher}).getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; })()`);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    if (restMs) await page.waitForTimeout(restMs);
    await page.mouse.down();
    await page.mouse.up();
    // A press that never gives a focused field is a sample lost (counted in the note), not a failed run.
    const ok = await until(page, 'window.__cost.usable', 30_000).then(() => true, () => false);
    if (!ok) timedOut.set(row.id, (timedOut.get(row.id) ?? 0) + 1);
    return ok ? page.evaluate<number>('window.__cost.usable - window.__cost.down') : Number.NaN;
  }

  /**
   * One fresh page of `row` at `rate`: its load, then one of: (warm) the pointer resting on the launcher
   * before pressing it, and what the open widget fetched in all; (cold) pressing it at once; (chat) a trace
   * of the chat arriving after a pointer moves over the launcher (or focus moves to the inline field).
   */
  async function sample(row: Row, rate: number, kind: Kind): Promise<Load> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.route((url) => url.hostname !== '127.0.0.1', (route) => route.abort());
    await context.addInitScript(probe(row));
    const page = await context.newPage();
    const cdp: CDPSession = await performanceSession(page);
    try {
      // A first page on the same origin: the renderer that loads the row's page is then running when the
      // trace starts, and the trace names its main thread.
      await page.goto(`${origin}/blank`);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      const from = sent.length;
      await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'] });
      await page.goto(`${origin}/${row.id}`, { waitUntil: 'load' });
      await until(page, 'window.__cost.visibleAt');
      await page.waitForTimeout(options.settleMs);
      const trace = tasks(await browser.stopTracing());
      const metrics = await readMetrics(cdp);
      // The loader fetches the box's file once the page is idle; a floating page draws it only on intent.
      const drawn = await page.evaluate<boolean>(`!!document.querySelector('bot-answer')?.shadowRoot?.querySelector('[part=panel]')`);
      const jsIdle = !drawn && sent.indexOf(BOX_FILE, from) >= 0 ? (gzipped.get(BOX_FILE) ?? 0) : 0;
      // The widget's tasks from its first idle callback on are idle-time work, where the loader's floating page
      // has drawn nothing but its launcher: the box's fetch, compilation and evaluation.
      // The widget's share of each of its tasks: less the page's own parsing the browser ran in the same task.
      const widget = trace.filter((t) => t.widget).map((t) => ({ ...t, cpu: t.cpu - t.own, wall: t.wall - t.ownWall }));
      const idleFrom = row.id.startsWith('loader') && !drawn ? widget.findIndex((t) => t.idle) : -1;
      const atLoad = idleFrom < 0 ? widget : widget.slice(0, idleFrom);
      const idle = idleFrom < 0 ? [] : widget.slice(idleFrom);
      const longest = widget.reduce((a, t) => (t.cpu > a.cpu ? t : a), { cpu: 0, wall: 0 });
      const load: Load = {
        jsBefore: jsSince(from) - jsIdle,
        jsIdle,
        task: metrics.task,
        widget: atLoad.reduce((sum, t) => sum + t.cpu, 0),
        widgetIdle: idle.reduce((sum, t) => sum + t.cpu, 0),
        blocking: blocking(atLoad),
        blockingWall: blocking(atLoad, 'wall'),
        blockingIdle: blocking(idle),
        longestCpu: longest.cpu,
        longestWall: longest.wall,
        tbt: blocking(trace, 'wall'),
        visible: await page.evaluate<number>('window.__cost.visibleAt'),
      };
      if (kind == 'chat') {
        const before = metrics.task;
        await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'] });
        if (row.launcher) await page.locator('bot-answer [part=launcher]').hover();
        else await page.locator('bot-answer [part=input]').focus();
        await page.evaluate(row.opened!);
        await page.waitForTimeout(300);
        const chat = tasks(await browser.stopTracing());
        load.chatCpu = max(chat.map((t) => t.cpu));
        load.chatWall = max(chat.map((t) => t.wall));
        load.chatTask = (await readMetrics(cdp)).task - before;
      } else if (row.launcher) load[kind] = await press(page, row, kind == 'warm' ? HOVER_MS : 0);
      if (kind == 'warm') {
        if (row.opened) await page.evaluate(row.opened);
        await page.waitForTimeout(200);
        load.jsOpen = jsSince(from);
      }
      return load;
    } finally {
      await context.close();
    }
  }

  const results = new Map<string, Load[]>();
  const key = (row: Row, rate: number) => `${row.id}@${rate}`;
  /** What each sample does after the load: every row a warm one; with a launcher a cold one too; the loader a chat trace. */
  const kinds = (row: Row): Kind[] =>
    (['warm', ...(row.launcher ? ['cold' as const] : []), ...(row.id.startsWith('loader') ? ['chat' as const] : [])] as Kind[]).filter((kind) => !options.kinds || (options.kinds[row.id] ?? ['warm']).includes(kind));
  try {
    for (const rate of options.rates) {
      if (options.warmUp) for (const row of all) await sample(row, rate, 'warm');
      for (let i = 0; i < options.samples; i++) {
        const order = i % 2 ? [...all].reverse() : all;
        for (const row of order) {
          for (const kind of kinds(row)) {
            const list = results.get(key(row, rate)) ?? [];
            list.push(await sample(row, rate, kind));
            results.set(key(row, rate), list);
          }
        }
      }
    }
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  const note = `median of ${options.samples} fresh pages per row${options.samples > 1 ? ', alternating' : ''}; a ${Math.round(article().length / 1024)} KB article page; main-thread time is thread time`;
  const of = (row: Row, rate: number, pick: (l: Load) => number | undefined) => {
    const values = (results.get(key(row, rate)) ?? []).map(pick).filter((v): v is number => v !== undefined && Number.isFinite(v));
    return values.length ? median(values) : Number.NaN;
  };
  const none = all.find((r) => r.id == 'none')!;
  const single = all.find((r) => r.id == 'single');
  const singleInline = all.find((r) => r.id == 'single-inline');
  const base = (row: Row, rate: number, pick: (l: Load) => number | undefined) => {
    const reference = row.id.includes('inline') ? singleInline : single;
    return reference && reference !== row ? { label: 'single bundle', value: of(reference, rate, pick) } : undefined;
  };
  const add = (row: Row, rate: number, id: string, label: string, value: number, unit: string, extra: Partial<Parameters<Report['add']>[0]> = {}) => {
    if (!Number.isFinite(value)) return;
    report.add({ section: 'page-cost', id: `${row.id}.${id}${rate == 1 ? '' : `.x${rate}`}`, label: `${row.label}: ${label}${rate == 1 ? '' : ` (${rate}x CPU)`}`, value, unit, note, ...extra });
  };
  const loader = (row: Row) => row.id.startsWith('loader');

  for (const row of all.filter((r) => r.id != 'none')) {
    const jsBefore = of(row, 1, (l) => l.jsBefore) / KiB;
    const budget = row.id.startsWith('loader-inline') ? 4 : 3;
    add(row, 1, 'js-before', 'JS fetched before any interaction, less the idle-time fetch of the box (gzip)', jsBefore, 'KiB', {
      baseline: base(row, 1, (l) => l.jsBefore / KiB),
      ...(loader(row) ? { goal: `<= ${budget} KiB`, met: jsBefore <= budget } : {}),
    });
    if (loader(row) && row.launcher) add(row, 1, 'js-idle', 'JS fetched when the page is idle, before any interaction: the box, not drawn (gzip)', of(row, 1, (l) => l.jsIdle) / KiB, 'KiB');
    const jsOpen = of(row, 1, (l) => l.jsOpen) / KiB;
    add(row, 1, 'js-open', 'JS fetched once the chat is open (gzip)', jsOpen, 'KiB', {
      baseline: base(row, 1, (l) => (l.jsOpen === undefined ? undefined : l.jsOpen / KiB)),
      ...(loader(row) ? { goal: '<= 42 KiB', met: jsOpen <= 42 } : {}),
    });
    for (const rate of options.rates) {
      // Every fresh page of the row is a page load (each kind of sample loads one): these figures have more samples.
      const loads = `${note.replace(/^median of \d+ fresh pages per row/, `median of ${results.get(key(row, rate))?.length ?? 0} page loads`)}`;
      const idleRow = loader(row) && !!row.launcher;
      const widget = of(row, rate, (l) => l.widget);
      add(row, rate, 'main-thread', "main-thread time of the widget's own tasks at load (trace)", widget, 'ms', {
        baseline: base(row, rate, (l) => l.widget),
        note: `${loads}; the tasks that run its scripts, from navigation to ${options.settleMs} ms after it showed${idleRow ? ', less the idle-time work' : ''}`,
        ...(loader(row) && rate == 1 ? { goal: '<= 5 ms', met: widget <= 5 } : {}),
      });
      if (idleRow)
        add(row, rate, 'main-thread-idle', "main-thread time of the widget's own tasks once the page is idle: the box fetched, not drawn (trace)", of(row, rate, (l) => l.widgetIdle), 'ms', {
          note: `${loads}; its tasks from its first idle callback on`,
        });
      add(row, rate, 'main-thread-added', 'whole main thread added over the page alone (a difference of two totals)', of(row, rate, (l) => l.task) - of(none, rate, (l) => l.task), 'ms', {
        baseline: base(row, rate, (l) => l.task - of(none, rate, (n) => n.task)),
        note: `${loads}; TaskDuration: also the page's frames painting the widget, and the harness's polls`,
      });
      const longest = of(row, rate, (l) => l.longestCpu);
      add(row, rate, 'longest-task', "the widget's longest task, at load or idle", longest, 'ms', {
        baseline: base(row, rate, (l) => l.longestCpu),
        note: `${loads}; thread time (wall time ${of(row, rate, (l) => l.longestWall).toFixed(1)} ms)`,
        ...(loader(row) && rate == 1 ? { goal: '< 50 ms', met: longest < 50 } : {}),
      });
      const blockingAtLoad = of(row, rate, (l) => l.blocking);
      add(row, rate, 'tbt', "blocking time of the widget's own tasks at load", blockingAtLoad, 'ms', {
        baseline: base(row, rate, (l) => l.blocking),
        note: `${loads}; the thread time beyond 50 ms of each of its tasks (Lighthouse's measure, its tasks alone, by thread time); by wall time ${of(row, rate, (l) => l.blockingWall).toFixed(0)} ms; every task of the page by wall time (total blocking time): ${of(row, rate, (l) => l.tbt).toFixed(0)} ms, the page alone: ${of(none, rate, (l) => l.tbt).toFixed(0)} ms`,
        ...(loader(row) && rate == 4 ? { goal: '0 ms (no task of its own over 50 ms)', met: blockingAtLoad <= 0 } : {}),
      });
      if (idleRow)
        add(row, rate, 'tbt-idle', "blocking time of the widget's own tasks once the page is idle", of(row, rate, (l) => l.blockingIdle), 'ms', {
          note: `${loads}; a long task there would still hold up a tap landing in it`,
          ...(rate == 4 ? { goal: '0 ms', met: of(row, rate, (l) => l.blockingIdle) <= 0 } : {}),
        });
      const visible = of(row, rate, (l) => l.visible);
      const reference = base(row, rate, (l) => l.visible);
      add(row, rate, 'visible', row.launcher ? 'navigation to a visible launcher' : 'navigation to a visible widget', visible, 'ms', {
        baseline: reference,
        ...(loader(row) && reference ? { goal: 'sooner than the single bundle', met: visible < reference.value } : {}),
      });
      if (row.launcher) {
        const warm = of(row, rate, (l) => l.warm);
        const singleWarm = single && single !== row ? of(single, rate, (l) => l.warm) : undefined;
        add(row, rate, 'pointer-warm', `pointer-down to a focused question field, after ${HOVER_MS} ms on the launcher`, warm, 'ms', {
          baseline: base(row, rate, (l) => l.warm),
          ...(loader(row) && rate == 1 && singleWarm !== undefined ? { goal: '<= single bundle + 20 ms', met: warm <= singleWarm + 20 } : {}),
        });
        add(row, rate, 'pointer-cold', 'pointer-down to a focused question field, no head start', of(row, rate, (l) => l.cold), 'ms', { baseline: base(row, rate, (l) => l.cold) });
        const lost = timedOut.get(row.id);
        if (lost && rate == options.rates.at(-1)) add(row, rate, 'pointer-lost', 'presses without a focused question field within 30 s (left out)', lost, 'samples');
      }
      if (loader(row) && row.launcher) {
        const chat = of(row, rate, (l) => l.chatCpu);
        add(row, rate, 'chat-longest-task', 'longest task while the chat loads (from a pointer over the launcher)', chat, 'ms', {
          note: `${note}; thread time (wall time ${of(row, rate, (l) => l.chatWall).toFixed(1)} ms)`,
          ...(rate == 1 ? { goal: '< 50 ms', met: chat < 50 } : {}),
        });
        add(row, rate, 'chat-main-thread', 'main-thread time of loading the box and the chat (an idle-time preload would cost this)', of(row, rate, (l) => l.chatTask), 'ms');
      }
    }
  }
}
