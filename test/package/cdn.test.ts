/**
 * The packed package served as unpkg and jsdelivr serve it, from another origin than the page: the
 * loader's box and chat come from the same version's `dist/` folder, whether the page names a file's path,
 * a version range, or only the package (`https://unpkg.com/bot-answer`, which redirects to the file its
 * `unpkg` field names). Needs the build (`npm run build`), which `npm run test:package` runs first.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../e2e/harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ELEMENT = join(ROOT, 'packages', 'bot-answer');
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const { version } = JSON.parse(await readFile(join(ELEMENT, 'package.json'), 'utf8')) as { version: string };

let work: string;
let browser: Browser;
const servers: Server[] = [];
let cdn: string;
let site: string;
/** Paths the CDN served (redirects included), in order. */
const served: string[] = [];

/** Listens on a free loopback port and returns the origin. */
async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'bot-answer-cdn-'));
  const { stdout } = await run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: ELEMENT });
  const [{ filename }] = JSON.parse(stdout) as Array<{ filename: string }>;
  await run('tar', ['-xzf', join(work, filename!), '-C', work]);
  const pkg = join(work, 'package');
  const fields = JSON.parse(await readFile(join(pkg, 'package.json'), 'utf8')) as { unpkg: string; jsdelivr: string };

  // The two CDNs' URL schemes: unpkg redirects a package, a range or a tag to the exact version's file;
  // jsdelivr answers a package URL with the file its field names, at that URL.
  cdn = await listen(
    createServer(async (req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      served.push(path);
      const cors = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };
      const file = async (relative: string) => {
        const body = await readFile(normalize(join(pkg, relative))).catch(() => undefined);
        if (!body) return res.writeHead(404, cors).end();
        res.writeHead(200, { ...cors, 'content-type': 'text/javascript; charset=utf-8' }).end(body);
      };
      let m: RegExpExecArray | null;
      if ((m = /^\/bot-answer(?:@([^/]*))?(\/.*)?$/.exec(path))) {
        if (m[1] === version && m[2]) return file(m[2]);
        return res.writeHead(302, { ...cors, location: `/bot-answer@${version}${m[2] ?? fields.unpkg.slice(1)}` }).end();
      }
      if ((m = /^\/npm\/bot-answer(?:@([^/]*))?(\/.*)?$/.exec(path))) return file(m[2] ?? fields.jsdelivr);
      res.writeHead(404, cors).end();
    }),
  );
  site = await listen(
    createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'POST' && url.pathname === '/answer') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ answer: 'From the **CDN**.', answer_found: true, sources: [] }));
      }
      const src = url.searchParams.get('src')!;
      const module = url.searchParams.has('module');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><meta charset="utf-8"><link rel="icon" href="data:,"><title>Site</title>` +
          `<script ${module ? 'type="module"' : 'defer'} src="${cdn}${src}"></script>` +
          `<bot-answer bot-id="demo" endpoint="/answer" stream="false" mode="floating"></bot-answer>`,
      );
    }),
  );
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  for (const server of servers) server.close();
  await rm(work, { recursive: true, force: true });
});

const CASES: Array<[string, string, boolean, string]> = [
  ['unpkg, the package alone (its unpkg field, by a redirect)', '/bot-answer', false, `/bot-answer@${version}/dist/`],
  ['unpkg, a version range (redirected)', `/bot-answer@${version.split('.').slice(0, 2).join('.')}/dist/bot-answer.iife.js`, false, `/bot-answer@${version}/dist/`],
  ['unpkg, the exact file', `/bot-answer@${version}/dist/bot-answer.iife.js`, false, `/bot-answer@${version}/dist/`],
  ['jsdelivr, the package and version alone (its jsdelivr field, served at that URL)', `/npm/bot-answer@${version}`, false, `/npm/bot-answer@${version}/dist/`],
  ['jsdelivr, the ES module by its path', `/npm/bot-answer@${version}/dist/bot-answer.js`, true, `/npm/bot-answer@${version}/dist/`],
  ['unpkg, the ES module, tag latest (redirected)', '/bot-answer@latest/dist/bot-answer.js', true, `/bot-answer@${version}/dist/`],
];

for (const [name, src, module, folder] of CASES) {
  test(`${name}: the box and the chat come from this version's folder`, async () => {
    served.length = 0;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    try {
      await page.goto(`${site}/?src=${encodeURIComponent(src)}${module ? '&module' : ''}`);
      // Page-side code as strings: this Node-typed file has no DOM types.
      await page.waitForFunction(`customElements.get('bot-answer')`);
      const answer = await page.evaluate(`(async () => {
        const el = document.querySelector('bot-answer');
        const done = new Promise((resolve) => el.addEventListener('bot-answer-done', resolve, { once: true }));
        el.ask('Where from?');
        await done;
        await el.updateComplete;
        return el.shadowRoot.querySelector('[part~=answer] strong').textContent;
      })()`);
      assert.equal(answer, 'CDN');
      const stages = served.filter((p) => /bot-answer-(box|chat)\.js$/.test(p));
      assert.deepEqual(stages.sort(), [`${folder}bot-answer-box.js`, `${folder}bot-answer-chat.js`]);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
}
