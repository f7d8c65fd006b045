/**
 * The demo server's own routes, through real loopback HTTP: the page with its strict policy,
 * the bundles loadable from other sites, a clear error before the first build, and everything
 * else handed to the proxy unchanged.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { serveNode, type NodeServer } from '../../packages/bot-answer-proxy/src/proxy/node.js';
import { createDemoRoutes, DEMO_CSP } from '../../demo/static-routes.js';

let dist: string;
let server: NodeServer;
const delegated: string[] = [];

before(async () => {
  dist = await mkdtemp(join(tmpdir(), 'bot-answer-routes-'));
  await writeFile(join(dist, 'bot-answer.js'), 'export const built = true;\n');
  await mkdir(join(dist, 'locales'));
  await writeFile(join(dist, 'locales', 'de.js'), '!function(){}();\n');
  const routes = createDemoRoutes({
    mode: 'demo',
    distDir: dist,
    next: async (request) => {
      delegated.push(`${request.method} ${new URL(request.url).pathname}`);
      return Response.json({ from: 'proxy' }, { status: 418 });
    },
  });
  server = await serveNode(routes, { port: 0, log: false });
});

after(async () => {
  await server?.close();
  await rm(dist, { recursive: true, force: true });
});

describe('demo routes', () => {
  test('the page is served with a strict Content-Security-Policy', async () => {
    const response = await fetch(`${server.url}/`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(response.headers.get('content-security-policy'), DEMO_CSP);
    assert.match(DEMO_CSP, /script-src 'self';/);
    assert.doesNotMatch(DEMO_CSP, /unsafe-inline|unsafe-eval/);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    const html = await response.text();
    assert.match(html, /<bot-answer[^>]+bot-id="demo"/);
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
  });

  test('the page scripts and styles are served with their types', async () => {
    for (const [path, type] of [['/demo.js', 'text/javascript'], ['/demo.css', 'text/css'], ['/restyled.css', 'text/css']] as const) {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', new RegExp(`^${type}`), path);
      assert.ok((await response.text()).length > 100, path);
    }
    assert.deepEqual(await (await fetch(`${server.url}/demo-info.json`)).json(), { mode: 'demo', answers: 'extractive' });
  });

  test('a built bundle can be loaded by pages on any site (module scripts are fetched with CORS)', async () => {
    const response = await fetch(`${server.url}/bot-answer.js`, { headers: { origin: 'https://www.example.com' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.match(response.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(await response.text(), 'export const built = true;\n');
    const head = await fetch(`${server.url}/bot-answer.js`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });

  test('the translation scripts are served beside the bundles, and only they', async () => {
    const response = await fetch(`${server.url}/locales/de.js`, { headers: { origin: 'https://www.example.com' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(await response.text(), '!function(){}();\n');
    assert.equal((await fetch(`${server.url}/locales/fr.js`)).status, 404);
    assert.equal((await fetch(`${server.url}/locales/../bot-answer.js`)).status, 200, 'normalised by the URL parser to the bundle');
    await fetch(`${server.url}/locales/de.js.map`);
    assert.equal(delegated.at(-1), 'GET /locales/de.js.map');
  });

  test('a bundle not built yet is a clear JSON error', async () => {
    const response = await fetch(`${server.url}/bot-answer.iife.js`);
    assert.equal(response.status, 404);
    const body = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'not_found');
    assert.match(body.error.message, /npm run build/);
  });

  test('everything else, and any other method, goes to the proxy unchanged', async () => {
    delegated.length = 0;
    for (const [method, path] of [['POST', '/api/answer'], ['GET', '/healthz'], ['POST', '/'], ['GET', '/index.html/..%2f..%2fpackage.json'], ['GET', '/../package.json'], ['GET', '/dist/bot-answer.js']] as const) {
      const response = await fetch(`${server.url}${path}`, { method, body: method === 'POST' ? '{}' : undefined });
      assert.equal(response.status, 418, `${method} ${path}`);
    }
    assert.deepEqual(delegated, ['POST /api/answer', 'GET /healthz', 'POST /', 'GET /index.html/..%2f..%2fpackage.json', 'GET /package.json', 'GET /dist/bot-answer.js']);
  });
});
