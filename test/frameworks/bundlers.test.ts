/**
 * `import 'bot-answer'` in an app built by Vite and by webpack (test/frameworks/bundled: an entry and a
 * page): each bundler puts the loader in the app's entry and splits the box and the chat into chunks of
 * their own, from the loader's `import()`s; in Chromium the page fetches the entry, the box's chunk once
 * idle (not drawn), the chat's once a pointer is over the launcher, and the box answers. Needs the built package (`npm run build`): the
 * app imports `bot-answer` through its exports, as any app does.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import webpack from 'webpack';
import { launchChromium } from '../e2e/harness.js';

const APP = join(import.meta.dirname, 'bundled');

let browser: Browser;
let work: string;

before(async () => {
  await mkdir(join(import.meta.dirname, '.build'), { recursive: true });
  work = await mkdtemp(join(import.meta.dirname, '.build', 'bundlers-'));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await rm(work, { recursive: true, force: true });
});

/** Builds the app with webpack (production mode, its defaults for the web). */
function buildWithWebpack(outDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const compiler = webpack({
      mode: 'production',
      context: APP,
      entry: './main.js',
      output: { path: outDir, filename: 'main.js', chunkFilename: '[name].[contenthash].js' },
      target: 'web',
    });
    compiler.run((error, stats) => {
      compiler.close(() => {});
      if (error || stats?.hasErrors()) reject(error ?? new Error(stats!.toString('errors-only')));
      else resolve();
    });
  });
}

/** The JavaScript files of a build, with what each holds: the loader, the box's strings, the chat's. */
async function chunks(dir: string): Promise<Array<{ file: string; loader: boolean; box: boolean; chat: boolean }>> {
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.js'));
  return Promise.all(
    files.map(async (file) => {
      const code = await readFile(join(dir, file), 'utf8');
      // A string of each part: the loader's launcher, the box's suggestions label, the chat's copy button.
      return { file, loader: code.includes('aria-haspopup'), box: code.includes('Try asking'), chat: code.includes('Copy code') };
    }),
  );
}

/** Serves `dir` (and a page for webpack, which writes none) with a JSON answer endpoint; records the paths requested. */
async function serve(dir: string, page?: string) {
  const requested: string[] = [];
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requested.push(path);
    if (req.method === 'POST' && path === '/answer') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ answer: 'Split **well**.', answer_found: true, sources: [] }));
    }
    if (path === '/' && page) return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    const body = await readFile(normalize(join(dir, path === '/' ? 'index.html' : path))).catch(() => undefined);
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': path.endsWith('.html') || path === '/' ? 'text/html' : 'text/javascript' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requested, close: () => server.close() };
}

for (const bundler of ['vite', 'webpack'] as const) {
  test(`${bundler}: the app's entry holds the loader, the box and the chat are chunks, the chat fetched on intent`, async () => {
    const out = join(work, bundler);
    if (bundler === 'vite') await build({ root: APP, logLevel: 'error', build: { outDir: out, emptyOutDir: true } });
    else await buildWithWebpack(out);

    const built = await chunks(out);
    const entry = built.filter((c) => c.loader);
    assert.equal(entry.length, 1, `one file holds the loader: ${built.map((c) => c.file).join(', ')}`);
    assert.deepEqual([entry[0]!.box, entry[0]!.chat], [false, false], 'the entry holds neither the box nor the chat');
    assert.deepEqual(built.filter((c) => c.box && !c.loader && !c.chat).length, 1, 'the box is a chunk of its own');
    assert.deepEqual(built.filter((c) => c.chat && !c.loader && !c.box).length, 1, 'the chat is a chunk of its own');
    const boxFile = built.find((c) => c.box)!.file;
    const chatFile = built.find((c) => c.chat)!.file;

    const site = await serve(out, bundler === 'webpack' ? (await readFile(join(APP, 'index.html'), 'utf8')).replace('./main.js', '/main.js') : undefined);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    try {
      await page.goto(site.url + '/');
      await page.waitForFunction('window.appReady && customElements.get("bot-answer")');
      await page.locator('bot-answer [part=launcher]').waitFor();
      const fetched = (file: string) => site.requested.some((p) => p.endsWith('/' + file.split('/').pop()));
      // The box's chunk comes once the page is idle, not drawn (the loader's style sheet alone); the chat's on intent.
      for (let i = 0; i < 200 && !fetched(boxFile); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual([fetched(boxFile), fetched(chatFile)], [true, false], 'the box chunk when idle, not the chat chunk');
      assert.equal(await page.evaluate(`document.querySelector('bot-answer').shadowRoot.adoptedStyleSheets.length`), 1, 'the box not drawn');
      // A pointer on the closed launcher brings the box alone; the chat comes once the dialog is open.
      await page.locator('bot-answer [part=launcher]').hover();
      await page.locator('bot-answer [part=launcher]').click();
      await page.waitForFunction(`document.querySelector('bot-answer').shadowRoot.adoptedStyleSheets.length == 3`);
      assert.deepEqual([fetched(boxFile), fetched(chatFile)], [true, true], 'both chunks once the dialog is open');
      const answer = await page.evaluate(`(async () => {
        const el = document.querySelector('bot-answer');
        const done = new Promise((resolve) => el.addEventListener('bot-answer-done', resolve, { once: true }));
        el.ask('Split?');
        await done;
        await el.updateComplete;
        return el.shadowRoot.querySelector('[part~=answer] strong').textContent;
      })()`);
      assert.equal(answer, 'well');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
      site.close();
    }
  });
}
