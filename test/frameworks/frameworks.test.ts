/**
 * The README's framework recipes, run: a tiny app per framework (React 19, Vue 3, Svelte 5), each
 * type-checked with its own tooling, built with its own Vite plugin (a client bundle and a
 * server-rendering bundle), served server-rendered and client-rendered next to the real proxy
 * (demo mode), and driven in headless Chromium. Needs the built package (`npm run build`): the
 * apps import `bot-answer` through its exports, as any app does.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { launchChromium } from '../e2e/harness.js';
import { startSite } from '../package/site.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const run = promisify(execFile);

interface App {
  name: string;
  /** Its server-rendering entry, relative to the app's folder. */
  serverEntry: string;
  /** The type check its framework's documentation recommends (command and arguments, run in the app's folder). */
  typecheck: [string, ...string[]];
  /**
   * Pages also tried with the element defined only after the app has hydrated or mounted (a CDN
   * script, a lazy import). React's client-only page is not: React 19 turns a JSX prop into an
   * attribute on an element that is not defined yet, and an array into the string "a,b".
   */
  late: string[];
}

const APPS: App[] = [
  { name: 'react', serverEntry: 'src/entry-server.tsx', typecheck: [join(BIN, 'tsc'), '-p', 'tsconfig.json'], late: ['/'] },
  { name: 'vue', serverEntry: 'src/entry-server.ts', typecheck: [join(BIN, 'vue-tsc'), '-p', 'tsconfig.json'], late: ['/', '/client'] },
  { name: 'svelte', serverEntry: 'src/entry-server.ts', typecheck: [join(BIN, 'svelte-check'), '--tsconfig', './tsconfig.json', '--fail-on-warnings'], late: ['/', '/client'] },
];

let browser: Browser;
let work: string;

before(async () => {
  // Inside the repository, so the server bundles find their externals (react-dom/server, vue, lit) as an app's would.
  await mkdir(join(import.meta.dirname, '.build'), { recursive: true });
  work = await mkdtemp(join(import.meta.dirname, '.build', 'run-'));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await rm(work, { recursive: true, force: true });
});

/** Builds the app's client bundle and its server-rendering module: the client folder, and the server's render(). */
async function buildApp(app: App): Promise<{ client: string; render: () => string | Promise<string> }> {
  const root = join(import.meta.dirname, app.name);
  const client = join(work, app.name, 'client');
  const server = join(work, app.name, 'server');
  const quiet = { configFile: join(root, 'vite.config.ts'), root, logLevel: 'error' as const };
  await build({ ...quiet, build: { outDir: client, emptyOutDir: true } });
  await build({ ...quiet, build: { ssr: app.serverEntry, outDir: server, emptyOutDir: true } });
  const entry = app.serverEntry.replace(/^.*\//, '').replace(/\.[^.]+$/, '.js');
  const { render } = (await import(pathToFileURL(join(server, entry)).href)) as { render: () => string | Promise<string> };
  return { client, render };
}

/** The page-side checks, as strings: this Node-typed file has no DOM types. */
const SUGGESTIONS = `[...document.querySelector('bot-answer').shadowRoot.querySelectorAll('[part="suggestion"]')].map((b) => b.textContent)`;

/**
 * Holds back the definition of bot-answer until the page calls `defineBotAnswer()`: as when the
 * element's script (a CDN script tag, a lazy import) arrives after the framework has hydrated.
 */
const DEFER_DEFINITION = `{
  const define = customElements.define.bind(customElements);
  customElements.define = (name, cls, options) => {
    if (name !== 'bot-answer') return define(name, cls, options);
    window.defineBotAnswer = () => define(name, cls, options);
  };
}`;

async function drive(page: Page, url: string, errors: string[], late = false) {
  if (late) await page.addInitScript(DEFER_DEFINITION);
  await page.goto(url);
  await page.locator('main[data-hydrated]').waitFor();
  if (late) {
    assert.equal(await page.evaluate<boolean>(`!customElements.get('bot-answer') && typeof defineBotAnswer == 'function'`), true);
    await page.evaluate(`defineBotAnswer()`);
  }
  // Upgraded: the element's shadow root rendered its form (bot-id set), and the suggestions property (an array) reached it.
  await page.locator('bot-answer [part="input"]').waitFor();
  assert.equal(await page.locator('bot-answer').getAttribute('bot-id'), 'demo');
  assert.deepEqual(await page.evaluate<string[]>(SUGGESTIONS), ['How do I verify a webhook signature?', 'What are the API rate limits for each plan?']);
  // The framework's own button calls ask() through its ref; its bot-answer-done handler writes the result.
  await page.locator('#ask').click();
  await page.locator('#done', { hasText: /^found, [1-9]\d* sources$/ }).waitFor({ timeout: 15_000 });
  const answer = (await page.locator('bot-answer [part="answer"]').last().textContent()) ?? '';
  assert.match(answer, /signature/i);
  assert.deepEqual(errors, []);
}

for (const app of APPS) {
  describe(app.name, () => {
    test('its typings check, and reject wrong types', async () => {
      const [command, ...args] = app.typecheck;
      await run(command, args, { cwd: join(import.meta.dirname, app.name) }).catch((error: { stdout?: string; stderr?: string }) => {
        assert.fail(`type check failed:\n${error.stdout}${error.stderr}`);
      });
    });

    test('server-rendered then hydrated, and rendered on the client alone, the element works, also when defined late', async (t) => {
      const { client, render } = await buildApp(app);
      const template = await readFile(join(client, 'index.html'), 'utf8');
      const ssr = await render();
      // The server rendered the element with its attributes, and did not crash importing it.
      assert.match(ssr, /<bot-answer[^>]*bot-id="demo"/);
      const site = await startSite({ dir: client, pages: { '/': () => template.replace('<!--app-->', ssr), '/client': () => template.replace('<!--app-->', '') } });
      t.after(() => site.close());
      const runs: Array<[string, boolean]> = [['/', false], ['/client', false], ...app.late.map((path): [string, boolean] => [path, true])];
      for (const [path, late] of runs) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        page.setDefaultTimeout(10_000);
        try {
          await drive(page, site.url + path, errors, late);
        } catch (error) {
          throw new Error(`${app.name} ${path}${late ? ' (defined late)' : ''}: ${(error as Error).message}`, { cause: error });
        } finally {
          await context.close();
        }
      }
    });
  });
}
