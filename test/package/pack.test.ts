/**
 * The package as a user gets it: `npm pack` (of the current build), installed into a fresh
 * folder with npm, and used from there: the proxy and the element imported in Node, the
 * manifest found through package.json, and both bundles loaded in Chromium from the install.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchChromium, within } from '../e2e/harness.js';
import { startSite } from './site.js';

const ROOT = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const QUESTION = 'How do I verify a webhook signature?';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let work: string;
let app: string;
let installed: string;
let packed: { filename: string; size: number; files: Array<{ path: string }> };

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'bot-answer-pack-'));
  // The build is the test script's first step; packing again here would build a second time.
  const { stdout } = await run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT });
  packed = (JSON.parse(stdout) as Array<typeof packed>)[0]!;
  app = join(work, 'app');
  await run('mkdir', [app]);
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // The npm cache usually has every dependency; CI with a registry fetches what it lacks.
  await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)], { cwd: app });
  installed = join(app, 'node_modules', 'bot-answer');
});

after(() => rm(work, { recursive: true, force: true }));

/** Runs an ES module script with plain Node in the consumer's folder. */
async function inApp(script: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: app });
  return stdout.trim();
}

test('the tarball holds the bundles, types, manifest, licence and changelog, and no screenshots', () => {
  const paths = packed.files.map((f) => f.path);
  for (const path of ['dist/bot-answer.js', 'dist/bot-answer.iife.js', 'dist/custom-elements.json', 'dist/types/widget/index.d.ts', 'dist/ssr/widget/index.js', 'dist/node/proxy/index.js', 'LICENSE', 'CHANGELOG.md', 'README.md']) {
    assert.ok(paths.includes(path), `${path} is in the tarball`);
  }
  assert.deepEqual(paths.filter((p) => /\.(png|jpe?g|gif|webp)$/.test(p)), []);
});

test('bot-answer/proxy works from the install', async () => {
  const out = await inApp(`
    import { createProxyHandler } from 'bot-answer/proxy';
    const handler = createProxyHandler({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', log: false });
    const response = await handler(new Request('http://localhost/healthz'));
    console.log(response.status, await response.text());
  `);
  assert.equal(out, '200 {"ok":true}');
});

test('the bot-answer-proxy command is installed and runs', async () => {
  const { stdout } = await run(join(app, 'node_modules', '.bin', 'bot-answer-proxy'), ['--help'], { cwd: app });
  assert.match(stdout, /ANSWER_API_KEY/);
});

test('bot-answer imports in Node (no DOM) from the install', async () => {
  const out = await inApp(`
    const { BotAnswer } = await import('bot-answer');
    console.log(typeof BotAnswer, customElements.get('bot-answer') === BotAnswer, import.meta.resolve('bot-answer').includes('/dist/ssr/'));
  `);
  assert.equal(out, 'function true true');
});

test('the installed types check in a TypeScript app', async () => {
  await writeFile(
    join(app, 'main.ts'),
    `import 'bot-answer';
import type { BotAnswer, BotAnswerDoneDetail } from 'bot-answer';
import { createProxyHandler } from 'bot-answer/proxy';
const box: BotAnswer = document.createElement('bot-answer');
box.suggestions = ['How?'];
box.addEventListener('bot-answer-done', (event) => {
  const detail: BotAnswerDoneDetail = event.detail;
  console.log(detail.answer_found);
});
export const handler = createProxyHandler({ apiKey: 'k', baseUrl: 'https://answers.example.com' });
`,
  );
  const tsconfig = { compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], strict: true, noEmit: true, types: [] }, files: ['main.ts'] };
  await writeFile(join(app, 'tsconfig.json'), JSON.stringify(tsconfig));
  await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: app }).catch((error: { stdout?: string }) => {
    assert.fail(`tsc in the consumer app:\n${error.stdout}`);
  });
});

test('the manifest is found through package.json and describes <bot-answer>', async () => {
  const pkg = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { customElements: string; unpkg: string; jsdelivr: string };
  const manifest = JSON.parse(await readFile(join(installed, pkg.customElements), 'utf8')) as { modules: Array<{ declarations?: Array<{ tagName?: string; attributes?: Array<{ name: string }> }> }> };
  const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'bot-answer');
  assert.ok(element?.attributes?.some((a) => a.name === 'bot-id'));
  // The CDN fields and the ./iife export name the same classic script.
  assert.equal(pkg.unpkg, './dist/bot-answer.iife.js');
  assert.equal(pkg.jsdelivr, pkg.unpkg);
  assert.equal(await inApp(`console.log(import.meta.resolve('bot-answer/iife').endsWith('/dist/bot-answer.iife.js'))`), 'true');
  // Translations are their own files, named by language.
  const german = await inApp(`console.log(import.meta.resolve('bot-answer/locales/de'))`);
  assert.ok(german.endsWith('/dist/locales/de.js'), german);
  assert.ok(existsSync(new URL(german)), 'the translation is in the tarball');
});

test('the installed bundles define and upgrade <bot-answer> in Chromium, and it answers', async (t) => {
  const site = await startSite({
    dir: join(installed, 'dist'),
    pages: {
      '/classic': () => '<!doctype html><meta charset="utf-8"><script src="/bot-answer.iife.js"></script><bot-answer bot-id="demo"></bot-answer>',
      '/module': () => '<!doctype html><meta charset="utf-8"><script type="module" src="/bot-answer.js"></script><bot-answer bot-id="demo"></bot-answer>',
    },
  });
  let browser: Browser | undefined;
  t.after(async () => {
    await browser?.close();
    await site.close();
  });
  browser = await launchChromium();
  for (const path of ['/classic', '/module']) {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(site.url + path);
    await page.locator('bot-answer [part="input"]').waitFor({ timeout: 10_000 });
    // Page-side code as strings: this Node-typed file has no DOM types.
    const done = page.evaluate<boolean>(`new Promise((resolve) => document.addEventListener('bot-answer-done', (e) => resolve(e.detail.answer_found), { once: true }))`);
    assert.equal(await page.evaluate<boolean>(`document.querySelector('bot-answer').ask(${JSON.stringify(QUESTION)})`), true, path);
    assert.equal(await within(15_000, `${path}: bot-answer-done`, done), true, `${path}: an answer was found`);
    assert.ok(((await page.locator('bot-answer [part="answer"]').last().textContent()) ?? '').length > 20, `${path}: the answer rendered`);
    assert.deepEqual(errors, [], path);
    await page.close();
  }
});
