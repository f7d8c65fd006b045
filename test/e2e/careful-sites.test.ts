/**
 * The built loader on careful sites, in headless Chromium: the demo's strict policy (script-src 'self',
 * Trusted Types with the `bot-answer` and `lit-html` policies) and a nonce-based script-src, each with the
 * classic script and the ES module, where the box and the chat must load with no new directive; the chat
 * failing to load (a 404, offline, blocked by the policy), where the box says so, offers Retry and the page
 * carries on; two boxes and the script included twice; and the box looking the same before and after the
 * chat arrives (screenshots), a question typed meanwhile kept.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_CSP } from '../../demo/static-routes.js';
import { buildWidget, closeChromium, useChromium } from './harness.js';

const SUITE_TIMEOUT_MS = 180_000;
const NONCE = 'c2l0ZS1ub25jZQ';

let bundle: Awaited<ReturnType<typeof buildWidget>>;
let browser: Browser;
let server: Server;
let origin: string;
/** Requests per path, since the last `reset()`. */
let requests: Map<string, number>;
/** Files the server answers 404 for, by name (`bot-answer-chat.js`). */
const broken = new Set<string>();
/** Pages by path: their HTML and policy. */
const pages = new Map<string, { html: string; csp?: string }>();

/** The answer endpoint's one answer, as JSON (the boxes ask with `stream="false"`). */
const ANSWER = { answer: 'Yes: **bold** and [a link](https://example.com/).', answer_found: true, sources: [] };

before(async () => {
  bundle = await buildWidget();
  browser = await useChromium();
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
    const page = pages.get(url.pathname);
    if (page) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(page.csp ? { 'content-security-policy': page.csp } : {}) });
      return res.end(page.html);
    }
    if (url.pathname == '/listen.js' || url.pathname == '/unlisted.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      // Records every policy violation, and shows the page's own script still runs after the element's failures.
      return res.end(
        url.pathname == '/listen.js'
          ? `window.violations = []; document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective + ' ' + e.blockedURI)); window.pageAlive = () => true;`
          : `window.unlistedRan = true;`,
      );
    }
    if (req.method == 'POST' && url.pathname == '/answer') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(ANSWER));
    }
    // The search beside the answer endpoint (the boxes search as the tests type): no page matches.
    if (url.pathname == '/search') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ results: [] }));
    }
    const file = /^\/dist\/([\w.-]+\.js)$/.exec(url.pathname)?.[1];
    if (file && !broken.has(file)) {
      const body = await readFile(join(bundle.dir, file)).catch(() => undefined);
      if (body) {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        return res.end(body);
      }
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, { timeout: SUITE_TIMEOUT_MS });

after(async () => {
  if (browser) await closeChromium();
  server?.close();
  await bundle?.remove();
}, { timeout: SUITE_TIMEOUT_MS });

const reset = () => {
  requests = new Map();
  broken.clear();
};

/** The script tag of the classic script or the ES module, with a nonce or without. */
const loader = (kind: 'classic' | 'module', nonce = '') =>
  `<script${nonce && ` nonce="${nonce}"`}${kind == 'module' ? ' type="module"' : ''} src="/dist/${kind == 'module' ? 'bot-answer.js' : 'bot-answer.iife.js'}"></script>`;

/** A box asking the local endpoint. */
const box = (attrs = '') => `<bot-answer bot-id="demo" endpoint="/answer" stream="false" ${attrs}></bot-answer>`;

/** Registers a page and opens it in a fresh context; page errors and console errors are collected. */
async function open(path: string, html: string, csp?: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  pages.set(path, { html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Site</title><link rel="icon" href="data:,">${html}`, csp });
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push('pageerror: ' + e.message));
  page.on('console', (m) => m.type() == 'error' && errors.push(m.text()));
  await page.goto(origin + path);
  await until(page, `!!customElements.get('bot-answer')`);
  return { context, page, errors };
}

/** Asks the first box a question, in the page, and waits for the rendered answer. */
async function askAndRead(page: Page, selector = 'bot-answer'): Promise<string> {
  return page.evaluate(`(async () => {
    const el = document.querySelector(${JSON.stringify(selector)});
    const done = new Promise((resolve) => el.addEventListener('bot-answer-done', resolve, { once: true }));
    el.ask('Is it bold?');
    await done;
    await el.updateComplete;
    return el.shadowRoot.querySelector('[part~=answer] strong').textContent;
  })()`);
}

/**
 * Waits until `expression` is true in the page. Polled through evaluate (DevTools): waitForFunction with a
 * string evaluates it with eval, which the policies under test refuse.
 */
async function until(page: Page, expression: string, what = expression) {
  const end = Date.now() + 10_000;
  while (!(await page.evaluate<boolean>(expression))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The launcher's centre, for a real pointer. */
async function hoverLauncher(page: Page) {
  await page.locator('bot-answer [part=launcher]').hover();
}

describe('strict policies: the box and the chat load with no new directive', { timeout: SUITE_TIMEOUT_MS }, () => {
  for (const kind of ['classic', 'module'] as const) {
    test(`the demo's policy (script-src 'self', Trusted Types), ${kind} script`, async () => {
      reset();
      const { context, page, errors } = await open(`/strict-${kind}`, `<script src="/listen.js"></script>${loader(kind)}</head><body>${box('mode="floating"')}`, DEMO_CSP);
      try {
        assert.equal(requests.get('/dist/bot-answer-chat.js'), undefined, 'nothing but the loader before intent');
        // A pointer on the closed launcher brings the box; the chat comes once the dialog is open.
        await hoverLauncher(page);
        await page.locator('bot-answer [part=launcher]').click();
        await page.locator('bot-answer dialog [part=input]').waitFor();
        await until(page, `document.querySelector('bot-answer').shadowRoot.adoptedStyleSheets.length == 3`, 'the chat');
        assert.equal(await askAndRead(page), 'bold');
        assert.deepEqual(await page.evaluate('violations'), [], 'no violation from the loader, the box or the chat');
        assert.deepEqual(errors, []);
        // The policy was enforced: a string HTML sink throws without a policy, and is reported.
        assert.match(await page.evaluate<string>(`(() => { try { document.body.innerHTML = '<b>x</b>'; return 'allowed'; } catch (e) { return String(e); } })()`), /TrustedHTML/);
        await until(page, `violations.length == 1 && /require-trusted-types-for/.test(violations[0])`);
      } finally {
        await context.close();
      }
    });

    for (const dynamic of [false, true]) {
      test(`a nonce-based script-src${dynamic ? " with 'strict-dynamic'" : ''}: the loader's nonce carries to its imports, ${kind} script`, async () => {
        reset();
        const csp = `default-src 'none'; script-src 'nonce-${NONCE}'${dynamic ? " 'strict-dynamic'" : ''}; style-src 'self'; connect-src 'self'; img-src 'self' data:; require-trusted-types-for 'script'; trusted-types bot-answer lit-html`;
        const { context, page, errors } = await open(
          `/nonce-${kind}-${dynamic}`,
          `<script nonce="${NONCE}" src="/listen.js"></script>${loader(kind, NONCE)}<script src="/unlisted.js"></script></head><body>${box()}`,
          csp,
        );
        try {
          // The policy is enforced: a script without the nonce was refused.
          assert.equal(await page.evaluate('window.unlistedRan ?? false'), false);
          assert.deepEqual(await page.evaluate('violations'), [`script-src-elem ${origin}/unlisted.js`]);
          await page.locator('bot-answer [part=input]').focus();
          assert.equal(await askAndRead(page), 'bold');
          assert.deepEqual(await page.evaluate('violations'), [`script-src-elem ${origin}/unlisted.js`], 'no violation from the box or the chat');
          assert.deepEqual(errors.filter((e) => !/unlisted\.js|Content Security Policy/.test(e)), []);
        } finally {
          await context.close();
        }
      });
    }
  }
});

describe('the chat cannot be loaded: the box says so and offers Retry; the page carries on', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('a 404, then Retry once the file is back', async () => {
    reset();
    broken.add('bot-answer-chat.js');
    const { context, page, errors } = await open('/missing', `<script src="/listen.js"></script>${loader('classic')}</head><body>${box()}`);
    try {
      const root = page.locator('bot-answer');
      await root.locator('[part=input]').fill('Is it bold?');
      await root.locator('[part=input]').press('Enter');
      const note = root.locator('[part=error][role=alert]');
      await note.waitFor();
      assert.match((await note.textContent()) ?? '', /Could not load the assistant\. Check your connection\./);
      assert.equal(await page.evaluate<string>(`document.querySelector('bot-answer').state`), 'answering', 'the question waits');
      assert.equal(await page.evaluate('pageAlive()'), true);
      broken.clear();
      const done = page.evaluate(`new Promise((r) => document.addEventListener('bot-answer-done', (e) => r(e.detail.answer), { once: true }))`);
      await note.getByRole('button', { name: 'Retry' }).click();
      assert.equal(await done, ANSWER.answer, 'the waiting question was sent once the chat arrived');
      assert.equal(await note.count(), 0);
      assert.deepEqual(errors.filter((e) => !/Failed to load resource|Failed to fetch dynamically imported module/.test(e)), []);
      assert.ok(!errors.some((e) => e.startsWith('pageerror')), 'no uncaught error');
    } finally {
      await context.close();
    }
  });

  test('offline after the box was fetched when idle: the launcher opens it, it says so, and Retry loads the chat once back online', async () => {
    reset();
    const { context, page, errors } = await open('/offline', `<script src="/listen.js"></script>${loader('module')}</head><body>${box('mode="floating"')}`);
    try {
      await until(page, `performance.getEntriesByType('resource').some((e) => e.name.endsWith('/dist/bot-answer-box.js'))`, 'the box fetched once the page is idle');
      await context.setOffline(true);
      await page.locator('bot-answer [part=launcher]').click();
      const note = page.locator('bot-answer dialog [part=error][role=alert]');
      await note.waitFor();
      assert.match((await note.textContent()) ?? '', /Could not load the assistant\. Check your connection\./);
      assert.equal(await page.evaluate('pageAlive()'), true);
      await context.setOffline(false);
      await note.getByRole('button', { name: 'Retry' }).click();
      await until(page, `document.querySelector('bot-answer').shadowRoot.querySelector('[part=error]') == null`, 'the note gone once the chat is here');
      assert.equal(await askAndRead(page), 'bold');
      assert.ok(!errors.some((e) => e.startsWith('pageerror')), 'no uncaught error');
    } finally {
      await context.close();
    }
  });

  test('the box cannot be loaded either: a floating launcher says so itself, and opens once its file is back', async () => {
    reset();
    broken.add('bot-answer-box.js');
    const { context, page, errors } = await open('/no-box', `<script src="/listen.js"></script>${loader('module')}</head><body>${box('mode="floating"')}`);
    try {
      const launcher = page.locator('bot-answer [part=launcher]');
      await launcher.click();
      await until(page, `/Could not load the assistant/.test(document.querySelector('bot-answer').shadowRoot.querySelector('[part=launcher]').textContent)`);
      assert.match((await launcher.textContent()) ?? '', /Retry$/);
      assert.equal(await page.evaluate('pageAlive()'), true);
      broken.clear();
      await launcher.click();
      await page.locator('bot-answer dialog [part=input]').waitFor();
      assert.equal(await launcher.textContent(), 'Ask');
      assert.equal(await askAndRead(page), 'bold');
      assert.ok(!errors.some((e) => e.startsWith('pageerror')), 'no uncaught error');
    } finally {
      await context.close();
    }
  });

  test('blocked by the page\'s policy: the box says so, and nothing is thrown', async () => {
    reset();
    // Only the loader's and the box's files are allowed (CSP source expressions with a path).
    const csp = `script-src ${origin}/listen.js ${origin}/dist/bot-answer.js ${origin}/dist/bot-answer-box.js`;
    const { context, page, errors } = await open('/blocked', `<script src="/listen.js"></script>${loader('module')}</head><body>${box()}`, csp);
    try {
      await page.locator('bot-answer [part=input]').focus();
      await page.locator('bot-answer [part=error][role=alert]').waitFor();
      assert.deepEqual(await page.evaluate('violations'), [`script-src-elem ${origin}/dist/bot-answer-chat.js`]);
      assert.equal(await page.evaluate('pageAlive()'), true);
      assert.ok(!errors.some((e) => e.startsWith('pageerror')), 'no uncaught error');
    } finally {
      await context.close();
    }
  });
});

describe('several boxes and copies', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('two boxes, the classic script twice and the module: defined once, each file fetched once', async () => {
    reset();
    const { context, page, errors } = await open(
      '/twice',
      `${loader('classic')}${loader('classic')}${loader('module')}</head><body>${box('id="a"')}${box('id="b" mode="floating"')}`,
    );
    try {
      assert.equal(await page.evaluate(`window.BotAnswer === customElements.get('bot-answer')`), true);
      assert.equal(await askAndRead(page, '#a'), 'bold');
      assert.equal(await askAndRead(page, '#b'), 'bold');
      assert.deepEqual(
        ['/dist/bot-answer.js', '/dist/bot-answer-box.js', '/dist/bot-answer-chat.js'].map((p) => requests.get(p)),
        [1, 1, 1],
        'the module, the box and the chat, each fetched once',
      );
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});

describe('no jump when the chat arrives', { timeout: SUITE_TIMEOUT_MS }, () => {
  /** Holds back the chat's file (never answered) until the returned function is called. */
  async function holdChat(page: Page): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/bot-answer-chat.js', async (route) => {
      await released;
      await route.continue();
    });
    return release;
  }
  const chatHere = (page: Page) => until(page, `[...document.querySelectorAll('bot-answer')].every((el) => el.shadowRoot.adoptedStyleSheets.length == 3)`, 'the chat');
  const shot = { animations: 'disabled', caret: 'hide' } as const;
  let blank: Page | undefined;
  after(() => blank?.close());

  /**
   * Compares two screenshots pixel by pixel, in a blank page: whether they have the same size, and how many
   * pixels differ by more than 16 levels in a channel. Smaller differences are antialiasing redrawn (one
   * pixel of a rounded corner, 5 levels, was seen); anything that moves or changes colour differs by far more.
   */
  async function compare(a: Buffer, b: Buffer): Promise<{ size: boolean; moved: number }> {
    // One blank page for every comparison (it only decodes images): a page costs a context and a renderer.
    blank ??= await browser.newPage();
    const urls = [a, b].map((png) => `data:image/png;base64,${png.toString('base64')}`);
    return blank.evaluate(`(async () => {
      const images = await Promise.all(${JSON.stringify(urls)}.map(async (src) => { const i = new Image(); i.src = src; await i.decode(); return i; }));
      const pixels = images.map((i) => { const c = new OffscreenCanvas(i.width, i.height).getContext('2d'); c.drawImage(i, 0, 0); return c.getImageData(0, 0, i.width, i.height).data; });
      const size = images[0].width == images[1].width && images[0].height == images[1].height;
      let moved = 0;
      for (let i = 0; size && i < pixels[0].length; i += 4)
        if ([0, 1, 2, 3].some((c) => Math.abs(pixels[0][i + c] - pixels[1][i + c]) > 16)) moved++;
      return { size, moved };
    })()`);
  }
  const look = `<style>bot-answer{--bot-answer-accent:#7a3;--bot-answer-radius:14px}bot-answer::part(suggestion){font-style:italic}</style>`;

  test('the inline box looks the same before and after, and a question being typed keeps its text, caret and focus', async () => {
    reset();
    const { context, page, errors } = await open('/look-inline', `${loader('module')}${look}</head><body><h1>Page</h1>${box('heading="Help" suggestions="How?|Why?"')}<p>After</p>`);
    try {
      const release = await holdChat(page);
      await page.locator('bot-answer [part=input]').click();
      await page.keyboard.type('Half a quest');
      await page.keyboard.press('ArrowLeft');
      const before = await page.screenshot(shot);
      assert.equal(await page.evaluate(`document.querySelector('bot-answer').shadowRoot.adoptedStyleSheets.length`), 2, 'the chat is not here yet');
      release();
      await chatHere(page);
      await page.evaluate(`document.querySelector('bot-answer').updateComplete`);
      assert.deepEqual(await compare(before, await page.screenshot(shot)), { size: true, moved: 0 }, 'the page is unchanged');
      const field = await page.evaluate<{ value: string; caret: number; focused: boolean }>(
        `(() => { const root = document.querySelector('bot-answer').shadowRoot, t = root.querySelector('textarea'); return { value: t.value, caret: t.selectionStart, focused: root.activeElement == t }; })()`,
      );
      assert.deepEqual(field, { value: 'Half a quest', caret: 11, focused: true });
      // Control: the comparison sees a change of one word.
      await page.evaluate(`(async (el) => { el.heading = 'Help!'; await el.updateComplete; })(document.querySelector('bot-answer'))`);
      assert.ok((await compare(before, await page.screenshot(shot))).moved > 0, 'a changed heading is seen');
      await page.keyboard.press('End');
      await page.keyboard.type('ion');
      await page.keyboard.press('Enter');
      await page.locator('bot-answer [part~=answer] strong').waitFor();
      assert.equal(await page.locator('bot-answer [part~=question]').textContent(), 'Half a question');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('the floating dialog, opened before the chat is here, looks the same once it is', async () => {
    reset();
    const { context, page, errors } = await open('/look-floating', `${loader('classic')}${look}</head><body><h1>Page</h1>${box('mode="floating" theme="dark" suggestions="How?|Why?"')}`);
    try {
      const release = await holdChat(page);
      await page.locator('bot-answer [part=launcher]').click();
      await page.locator('bot-answer dialog[open] [part=input]').waitFor();
      const before = await page.screenshot(shot);
      release();
      await chatHere(page);
      await page.evaluate(`document.querySelector('bot-answer').updateComplete`);
      assert.deepEqual(await compare(before, await page.screenshot(shot)), { size: true, moved: 0 }, 'the page is unchanged');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
