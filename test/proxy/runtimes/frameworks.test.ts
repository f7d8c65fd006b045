import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startAnswerApi, type RunningAnswerApi } from '../../../packages/bot-answer-engine/src/upstream/index.js';
import { assertNoKeyLeak, observe, parseStream, remember, replay, send } from '../helpers.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

let api: RunningAnswerApi;
let env: { ANSWER_API_KEY: string; ANSWER_BASE_URL: string };

before(async () => {
  api = await startAnswerApi({ port: 0, host: '127.0.0.1', paceMs: 10 });
  env = { ANSWER_API_KEY: remember(api.keys[0]!), ANSWER_BASE_URL: api.url };
});
after(async () => {
  await api.close();
  assertNoKeyLeak();
});

/** Asks for a stream and a JSON answer, sends feedback: what every site needs to work. */
async function checkServes(base: string, headers: Record<string, string> = {}): Promise<void> {
  const post = (path: string, body: unknown) => send(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const stream = await post('/api/answer', { message: 'How do I reset my password?', bot_id: 'demo', stream: true });
  assert.equal(stream.status, 200, stream.text);
  assert.equal(stream.headers.get('x-bot-answer-protocol'), '1');
  const shown = replay(parseStream(stream.text).events);
  assert.equal(shown.end?.event, 'done');
  const json = await post('/api/answer', { message: 'How do I reset my password?', bot_id: 'demo' });
  assert.equal(json.json().answer, shown.text);
  const id = json.headers.get('x-request-id')!;
  assert.ok(id);
  const feedback = await post('/api/answer/feedback', { request_id: id, bot_id: 'demo', rating: 'up' });
  assert.equal(feedback.status, 204);
  const bad = await post('/api/answer', { message: '', bot_id: 'demo' });
  assert.equal(bad.status, 400);
  assert.equal(bad.json().error.code, 'bad_request');
}

/** Starts a fixture app in its own Node process (no loader: the built package, as a site loads it). */
async function startApp(file: string): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [here(file)], { cwd: root, env: { ...process.env, ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  for (let i = 0; i < 200 && !/listening on \d+/.test(output) && child.exitCode === null; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const port = /listening on (\d+)/.exec(output)?.[1];
  assert.ok(port, `the app did not start: ${output}`);
  return { url: `http://127.0.0.1:${port}`, child, output: () => output };
}

describe('Express 5, CommonJS and ES modules, on the built package', { timeout: 120_000 }, () => {
  before(() => {
    // What `npm run build` makes of the server side (the engine first: the proxy reads its types); the apps load it through the package's exports.
    // Under `npm test` the build has just run (BOT_ANSWER_BUILT), and rewriting its files here would race the suites reading them beside this one.
    if (process.env.BOT_ANSWER_BUILT) return;
    for (const dir of ['packages/bot-answer-engine', 'packages/bot-answer-proxy']) {
      const built = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], { cwd: root + dir, encoding: 'utf8' });
      assert.equal(built.status, 0, built.stdout + built.stderr);
    }
  });

  for (const file of ['./express-app.cjs', './express-app.mjs']) {
    it(`${file.slice(2)} serves the proxy beside its own routes`, async () => {
      const app = await startApp(file);
      try {
        assert.equal((await send(`${app.url}/`)).text, 'my site');
        await checkServes(app.url);
        assert.doesNotMatch(app.output(), /Warning|Error/);
        observe(app.output());
      } finally {
        app.child.kill();
        await once(app.child, 'exit');
      }
    });
  }

  it('require() loads both entries from CommonJS', () => {
    const loaded = spawnSync(process.execPath, ['-e', "const a = require('bot-answer-proxy'); const b = require('bot-answer-proxy/node'); console.log(typeof a.createProxyHandler, typeof b.startProxy, typeof b.createNodeListener)"], { cwd: root, encoding: 'utf8' });
    assert.equal(loaded.stderr, '');
    assert.equal(loaded.stdout.trim(), 'function function function');
  });
});

describe('Hono on Node', () => {
  it('serves the proxy from a Hono route with the socket address', async () => {
    const { startHonoApp } = await import('./hono-app.js');
    const server = startHonoApp({ ...env, PORT: '0' });
    try {
      if (!server.listening) await once(server, 'listening');
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      assert.equal((await send(`${url}/`)).text, 'my site');
      await checkServes(url);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('Next.js-style route handler', () => {
  it('POST(request) and OPTIONS(request) are the proxy; the address comes from X-Forwarded-For', async () => {
    Object.assign(process.env, env);
    const route = await import('./next-route.js');
    const ask = (headers: Record<string, string>) =>
      route.POST(new Request('https://site.example/api/answer', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ message: 'How do I reset my password?', bot_id: 'demo', stream: true }) }));
    const response = await ask({ 'x-forwarded-for': '198.51.100.20' });
    assert.equal(response.status, 200);
    const text = await response.text();
    observe(text);
    assert.equal(replay(parseStream(text).events).end?.event, 'done');
    const preflight = await route.OPTIONS(new Request('https://site.example/api/answer', { method: 'OPTIONS', headers: { origin: 'https://site.example', 'access-control-request-method': 'POST' } }));
    assert.equal(preflight.status, 204);
    // No address at all: refused rather than counted with everyone else.
    const anonymous = await ask({});
    assert.equal(anonymous.status, 500);
    observe(await anonymous.text());
  });
});
