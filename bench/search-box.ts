import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import type { Report } from './lib/report.js';
import { max, median, percentile } from './lib/stats.js';

/** Sizes of the search benchmark. */
export interface SearchOptions {
  /** Words typed one key at a time (each key from the second on measured). */
  words: number;
  /** Milliseconds between those keys: a typist's pace, so each key gets its own hits. */
  keyGapMs: number;
  /** Rounds of the fast burst (10 characters, 30 ms apart). */
  bursts: number;
}

/** Words a visitor types into a docs box (the sample knowledge base's), cycled. */
const WORDS = ['travel', 'expense', 'sabbatical', 'laptop', 'password', 'vacation', 'onboarding', 'benefits', 'security', 'remote'];

/**
 * Search as you type, in headless Chromium at 1x CPU, through the real element (its chat loaded first):
 * - **keypress to hits painted**: from a key's `keydown` (its event time) to the first animation frame after the
 *   element rendered the hits of the text that key made; words typed a key at a time, `keyGapMs` apart;
 * - **searches sent by a burst**: 10 characters typed 30 ms apart, the searches the page sent (its `fetch` calls
 *   to the search endpoint).
 *
 * The search endpoint is a stand-in served here (`/api/search`: six hits with highlights, answered at once),
 * or, with `BENCH_SEARCH_PROXY=<origin>` (a running bot-answer proxy, e.g. `http://127.0.0.1:8787`), that
 * proxy's own `/api/search`, forwarded as it is (bot id `BENCH_SEARCH_BOT`, default `demo`).
 */
export async function benchSearchBox(report: Report, browser: Browser, element: { es: string; box: string; chat: string }, options: SearchOptions): Promise<void> {
  const proxy = process.env.BENCH_SEARCH_PROXY;
  const botId = process.env.BENCH_SEARCH_BOT ?? 'demo';
  const files: Record<string, string> = { '/bot-answer.js': element.es, '/bot-answer-box.js': element.box, '/bot-answer-chat.js': element.chat };
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><script type="module" src="/bot-answer.js"></script></head>' +
    `<body><bot-answer id="subject" bot-id="${botId}" endpoint="/api/answer"></bot-answer></body></html>`;
  const server = createServer((req, res) => void handle(req, res).catch((e) => res.writeHead(500).end(String(e))));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname == '/api/search') {
      if (proxy) {
        const upstream = await fetch(new URL(url.pathname + url.search, proxy));
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        return res.end(Buffer.from(await upstream.arrayBuffer()));
      }
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      return res.end(JSON.stringify({ results: standIn(url.searchParams.get('q') ?? '') }));
    }
    if (url.pathname == '/') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    const file = files[url.pathname];
    if (file) return res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(await readFile(file));
    res.writeHead(404).end();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(PROBE);
    await page.goto(origin + '/');
    await page.evaluate(`customElements.whenDefined('bot-answer').then(() => document.querySelector('#subject').load())`);
    await page.locator('#subject [part=input]').focus();

    const latencies: number[] = [];
    for (let w = 0; w < options.words; w++) {
      const word = WORDS[w % WORDS.length]!;
      await clear(page);
      for (let i = 0; i < word.length; i++) {
        const text = word.slice(0, i + 1);
        await page.evaluate(`window.__search.expect(${JSON.stringify(text)})`);
        await page.keyboard.press(word[i]!);
        if (text.length >= 2) latencies.push((await page.evaluate('window.__search.painted')) as number);
        await page.waitForTimeout(options.keyGapMs);
      }
    }
    const bursts: number[] = [];
    for (let b = 0; b < options.bursts; b++) {
      await clear(page);
      await page.waitForTimeout(200);
      const before = (await page.evaluate('window.__search.sent')) as number;
      await page.keyboard.type('sabbatical', { delay: 30 });
      // Past the debounce and the answer: every search this burst makes has been sent.
      await page.waitForTimeout(400);
      bursts.push(((await page.evaluate('window.__search.sent')) as number) - before);
    }
    const target = proxy ? `the proxy at ${proxy}` : 'a stand-in /api/search served by the bench';
    report.add({
      section: 'search-box',
      id: 'keypress-to-hits.p95',
      label: 'keypress to hits painted, p95 (1x CPU)',
      value: percentile(latencies, 95),
      unit: 'ms',
      goal: '<= 150 ms',
      met: percentile(latencies, 95) <= 150,
      note: `${latencies.length} keys, ${options.keyGapMs} ms apart, in ${options.words} words; median ${median(latencies).toFixed(1)} ms; against ${target}`,
    });
    report.add({
      section: 'search-box',
      id: 'burst.searches',
      label: 'searches sent while typing 10 characters 30 ms apart (most of any round)',
      value: max(bursts),
      unit: 'searches',
      goal: '<= 4',
      met: max(bursts) <= 4,
      note: `${options.bursts} rounds: ${bursts.join(', ')}`,
    });
  } finally {
    await context.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Empties the question field (select all, delete), which also closes the list. */
async function clear(page: Page) {
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
}

/** Six hits for `q`, each snippet marking where `q` is in it, as the proxy's search answers. */
function standIn(q: string) {
  return Array.from({ length: 6 }, (_, i) => {
    const snippet = `Section ${i + 1} of the handbook explains ${q} and what follows from ${q} for the team.`;
    const highlights: [number, number][] = [];
    for (let at = snippet.indexOf(q); at >= 0 && q; at = snippet.indexOf(q, at + q.length)) highlights.push([at, at + q.length]);
    return { title: `Handbook › ${q} (${i + 1})`, url: `https://docs.example.com/handbook/${i + 1}#${encodeURIComponent(q)}`, snippet, highlights };
  });
}

/**
 * In the page, before its scripts: counts the element's searches (its `fetch` calls to `/api/search`) and,
 * for the text a key is about to make (`expect`), resolves `painted` to the milliseconds from that key's
 * `keydown` to the first animation frame after the element rendered the response to that text's search.
 */
const PROBE = `(() => {
  const s = (window.__search = { sent: 0 });
  let keyAt = 0, want = '', done;
  addEventListener('keydown', (e) => (keyAt = e.timeStamp), true);
  // A key that brings no hits within 5 s counts as 5 s.
  s.expect = (text) => { want = text; s.painted = new Promise((r) => ((done = r), setTimeout(() => r(5000), 5000))); };
  const fetch0 = window.fetch;
  window.fetch = function (input, init) {
    const url = new URL(typeof input == 'string' ? input : input.url, location.href);
    const p = fetch0.call(this, input, init);
    if (url.pathname.endsWith('/search')) {
      s.sent++;
      const q = url.searchParams.get('q');
      // The response read (as the element reads it), then a task: the element has rendered it by then.
      p.then((r) => r.clone().json()).then(() => new Promise((r) => setTimeout(r))).then(() => {
        if (q == want.trim()) requestAnimationFrame(() => done(performance.now() - keyAt));
      }, () => {});
    }
    return p;
  };
})();`;
