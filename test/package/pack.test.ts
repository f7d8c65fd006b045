/**
 * The three packages as users get them: `npm pack` of each workspace (the current build), each
 * installed into a fresh folder with npm, and what the install pulled in checked: the element
 * brings no native module and no server dependency; the proxy alone brings none of its optional
 * peers (Redis, PostgreSQL, SQLite, the engine) and names the one to install when a setting needs
 * it; the proxy and the engine together answer, through their commands, as `npm start` does.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchChromium, within } from '../e2e/harness.js';
import { startSite } from './site.js';

const ROOT = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const QUESTION = 'How do I verify a webhook signature?';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const PACKAGES = ['bot-answer', 'bot-answer-proxy', 'bot-answer-engine'] as const;
type PackageName = (typeof PACKAGES)[number];
/**
 * On `npm test`'s other Node.js lines (it sets BOT_ANSWER_OTHER_LINE): what the TypeScript compiler and
 * Chromium check here does not depend on the Node.js running this file, and ran on its first line
 * (about 10 s of CPU a line: a type check of two apps, Chromium and two pages).
 */
const ONCE = process.env.BOT_ANSWER_OTHER_LINE ? "checked on npm test's first Node.js line" : false;
/** What the server side brings; none of it may come with the element. */
const SERVER_PACKAGES = ['hono', '@hono/node-server', 'undici', 'ioredis', 'pg', 'better-sqlite3', 'rate-limiter-flexible', 'bot-answer-proxy', 'bot-answer-engine'];

let work: string;
/** One consumer app per install: the element alone, the proxy alone, the proxy with the engine. */
const apps = { element: '', proxy: '', server: '' };
let installed: string;
const packed = {} as Record<PackageName, { filename: string; size: number; files: Array<{ path: string }> }>;

/** A fresh app folder with the given tarballs installed by npm, as a user installs them. */
async function app(name: string, packages: PackageName[]): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${name}`, private: true, type: 'module' }));
  // The npm cache usually has every dependency; CI with a registry fetches what it lacks.
  await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', ...packages.map((p) => join(work, packed[p].filename))], { cwd: dir });
  return dir;
}

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'bot-answer-pack-'));
  // The build is the test script's first step; packing again here would build a second time.
  const { stdout } = await run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work, ...PACKAGES.flatMap((p) => ['-w', p])], { cwd: ROOT });
  for (const entry of JSON.parse(stdout) as Array<(typeof packed)[PackageName] & { name: PackageName }>) packed[entry.name] = entry;
  [apps.element, apps.proxy, apps.server] = await Promise.all([app('element', ['bot-answer']), app('proxy', ['bot-answer-proxy']), app('server', ['bot-answer-proxy', 'bot-answer-engine'])]);
  installed = join(apps.element, 'node_modules', 'bot-answer');
});

after(() => rm(work, { recursive: true, force: true }));

/** Every package installed in an app's node_modules (nested ones too), by name. */
function installedPackages(dir: string): string[] {
  const names: string[] = [];
  const walk = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const folders = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((name) => `${entry}/${name}`) : [entry];
      for (const name of folders) {
        names.push(name);
        walk(join(modules, name, 'node_modules'));
      }
    }
  };
  walk(join(dir, 'node_modules'));
  return [...new Set(names)].sort();
}

/** Native code in an app's node_modules: compiled addons and the build files that make them. */
function nativeFiles(dir: string): string[] {
  return readdirSync(join(dir, 'node_modules'), { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.node') || path.endsWith('binding.gyp'));
}

/** Runs an ES module script with plain Node in a consumer's folder. */
async function inApp(dir: string, script: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir });
  return stdout.trim();
}

/** Starts an installed command; resolves once a line of its output matches `ready`, with that match. */
async function command(dir: string, name: string, env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(join(dir, 'node_modules', '.bin', name), [], { cwd: dir, env: { PATH: process.env.PATH!, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        lines.push(line);
        const found = ready.exec(line);
        if (found) resolve(found);
      });
    }
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready:\n${lines.join('\n')}`)));
  });
  return { child, match };
}

/** Asks a proxy a question (JSON, no stream) and returns its answer. */
async function ask(url: string): Promise<{ answer: string; answer_found: boolean }> {
  const response = await fetch(`${url}/api/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: QUESTION, bot_id: 'demo', stream: false }) });
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()) as { answer: string; answer_found: boolean };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

test('each tarball holds its build, licence and README, and no screenshots', () => {
  const expected: Record<PackageName, string[]> = {
    'bot-answer': ['dist/bot-answer.js', 'dist/bot-answer.iife.js', 'dist/custom-elements.json', 'dist/types/widget/index.d.ts', 'dist/ssr/widget/index.js'],
    'bot-answer-proxy': ['dist/bot-answer-proxy/src/proxy/index.js', 'dist/bot-answer-proxy/src/proxy/node.d.ts', 'dist/bot-answer-proxy/src/proxy/cli.js', 'dist/bot-answer/src/protocol/stream-events.js'],
    'bot-answer-engine': ['dist/bot-answer-engine/src/upstream/index.js', 'dist/bot-answer-engine/src/upstream/cli.js', 'src/upstream/sample-kb/api-rate-limits.md'],
  };
  for (const name of PACKAGES) {
    const paths = packed[name].files.map((f) => f.path);
    for (const path of [...expected[name], 'LICENSE', 'README.md', 'package.json']) assert.ok(paths.includes(path), `${path} is in ${name}'s tarball`);
    assert.deepEqual(paths.filter((p) => /\.(png|jpe?g|gif|webp)$/.test(p)), [], name);
  }
  // The element ships no server code.
  assert.deepEqual(packed['bot-answer'].files.map((f) => f.path).filter((p) => /proxy|upstream|insights/.test(p)), []);
});

test('installing the element adds no native module and no server dependency', () => {
  const names = installedPackages(apps.element);
  assert.deepEqual(names.filter((name) => SERVER_PACKAGES.includes(name)), []);
  assert.deepEqual(nativeFiles(apps.element), []);
  // Exactly its libraries and theirs: lit's packages, marked, DOMPurify (and its Trusted Types typings), eventsource-parser.
  assert.deepEqual(names, ['@lit-labs/ssr-dom-shim', '@lit/reactive-element', '@types/trusted-types', 'bot-answer', 'dompurify', 'eventsource-parser', 'lit', 'lit-element', 'lit-html', 'marked']);
});

test('installing the proxy alone adds none of its optional peers, and no native module', () => {
  const names = installedPackages(apps.proxy);
  for (const name of ['bot-answer-proxy', 'hono', '@hono/node-server', 'undici', 'rate-limiter-flexible']) assert.ok(names.includes(name), `${name} is installed`);
  assert.deepEqual(names.filter((name) => ['ioredis', 'pg', 'better-sqlite3', 'bot-answer-engine', 'bot-answer', 'lit'].includes(name)), []);
  assert.deepEqual(nativeFiles(apps.proxy), []);
});

test('bot-answer-proxy works from the install', async () => {
  const out = await inApp(apps.proxy, `
    import { createProxyHandler } from 'bot-answer-proxy';
    import { startProxy } from 'bot-answer-proxy/node';
    const handler = createProxyHandler({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', log: false });
    const response = await handler(new Request('http://localhost/healthz'));
    console.log(typeof startProxy, response.status, await response.text());
  `);
  assert.equal(out, 'function 200 {"ok":true}');
});

test('the proxy alone names the package a setting needs: the engine for demo mode, the drivers for Redis and insights', async () => {
  const bin = join(apps.proxy, 'node_modules', '.bin', 'bot-answer-proxy');
  const { stdout } = await run(bin, ['--help'], { cwd: apps.proxy });
  assert.match(stdout, /ANSWER_API_KEY/);
  const failure = (env: Record<string, string>) =>
    run(bin, ['--port', '0'], { cwd: apps.proxy, env: { PATH: process.env.PATH!, ...env } }).then(
      () => assert.fail('the command started'),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
  const demo = await failure({});
  assert.equal(demo.code, 1);
  assert.match(demo.stderr, /Demo mode \(ANSWER_API_KEY unset\).*needs the bot-answer-engine package.*npm install bot-answer-engine/);
  const upstream = { ANSWER_API_KEY: 'k', ANSWER_BASE_URL: 'http://127.0.0.1:9' };
  assert.match((await failure({ ...upstream, REDIS_URL: 'redis://127.0.0.1:9' })).stderr, /REDIS_URL.*needs the ioredis package.*npm install ioredis/);
  assert.match((await failure({ ...upstream, INSIGHTS_DB: 'postgres://127.0.0.1:9/x' })).stderr, /PostgreSQL INSIGHTS_DB needs the pg package.*npm install pg/);
  assert.match((await failure({ ...upstream, INSIGHTS_DB: join(work, 'insights.sqlite') })).stderr, /SQLite INSIGHTS_DB needs the better-sqlite3 package.*npm install better-sqlite3/);
});

test('the engine command answers, and the proxy command forwards to it', async (t) => {
  const engine = await command(apps.server, 'bot-answer-engine', { ANSWER_API_KEYS: 'engine-key' }, /listening on (http:\/\/[^\s/]+:\d+)/);
  t.after(() => stop(engine.child));
  // The command's first line caps V8's young generation and its worker threads (`env -S`, through npm's bin link).
  const { stdout: args } = await run('ps', ['-o', 'args=', '-p', String(engine.child.pid)]);
  assert.match(args, /^node --max-semi-space-size=4 --v8-pool-size=1 \S+bot-answer-engine\n?$/);
  const proxy = await command(apps.server, 'bot-answer-proxy', { ANSWER_API_KEY: 'engine-key', ANSWER_BASE_URL: engine.match[1]! }, /"url":"(http:\/\/[^"]+)"/);
  t.after(() => stop(proxy.child));
  const got = await ask(proxy.match[1]!);
  assert.equal(got.answer_found, true);
  assert.doesNotMatch(JSON.stringify(got), /engine-key/);
});

test('the proxy command in demo mode runs the installed engine in-process, as npm start does', async (t) => {
  const proxy = await command(apps.server, 'bot-answer-proxy', {}, /"url":"(http:\/\/[^"]+)"/);
  t.after(() => stop(proxy.child));
  const got = await ask(proxy.match[1]!);
  assert.equal(got.answer_found, true);
  assert.ok(got.answer.length > 20);
});

test('bot-answer imports in Node (no DOM) from the install', async () => {
  const out = await inApp(apps.element, `
    const { BotAnswer } = await import('bot-answer');
    console.log(typeof BotAnswer, customElements.get('bot-answer') === BotAnswer, import.meta.resolve('bot-answer').includes('/dist/ssr/'));
  `);
  assert.equal(out, 'function true true');
});

test('the installed types check in TypeScript apps: the element, and the proxy', { skip: ONCE }, async () => {
  const check = async (dir: string, source: string) => {
    await writeFile(join(dir, 'main.ts'), source);
    const tsconfig = { compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], strict: true, noEmit: true, types: [], skipLibCheck: true }, files: ['main.ts'] };
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: dir }).catch((error: { stdout?: string }) => {
      assert.fail(`tsc in the consumer app:\n${error.stdout}`);
    });
  };
  await check(
    apps.element,
    `import 'bot-answer';
import type { BotAnswer, BotAnswerDoneDetail } from 'bot-answer';
const box: BotAnswer = document.createElement('bot-answer');
box.suggestions = ['How?'];
box.addEventListener('bot-answer-done', (event) => {
  const detail: BotAnswerDoneDetail = event.detail;
  console.log(detail.answer_found);
});
`,
  );
  await check(
    apps.proxy,
    `import { createProxyHandler } from 'bot-answer-proxy';
import { startProxy } from 'bot-answer-proxy/node';
export const handler = createProxyHandler({ apiKey: 'k', baseUrl: 'https://answers.example.com' });
export const start = () => startProxy({ apiKey: 'k', baseUrl: 'https://answers.example.com', port: 0 });
`,
  );
});

test('the manifest is found through package.json and describes <bot-answer>', async () => {
  const pkg = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { customElements: string; unpkg: string; jsdelivr: string };
  const manifest = JSON.parse(await readFile(join(installed, pkg.customElements), 'utf8')) as { modules: Array<{ declarations?: Array<{ tagName?: string; attributes?: Array<{ name: string }> }> }> };
  const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'bot-answer');
  assert.ok(element?.attributes?.some((a) => a.name === 'bot-id'));
  // The CDN fields and the ./iife export name the same classic script.
  assert.equal(pkg.unpkg, './dist/bot-answer.iife.js');
  assert.equal(pkg.jsdelivr, pkg.unpkg);
  assert.equal(await inApp(apps.element, `console.log(import.meta.resolve('bot-answer/iife').endsWith('/dist/bot-answer.iife.js'))`), 'true');
  // Translations are their own files, named by language.
  const german = await inApp(apps.element, `console.log(import.meta.resolve('bot-answer/locales/de'))`);
  assert.ok(german.endsWith('/dist/locales/de.js'), german);
  assert.ok(existsSync(new URL(german)), 'the translation is in the tarball');
});

test('the installed bundles define and upgrade <bot-answer> in Chromium, and it answers', { skip: ONCE }, async (t) => {
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
