import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Miniflare } from 'miniflare';
import { bundleWorker } from './bundle-worker.js';
import { startAnswerApi, type RunningAnswerApi } from '../../../packages/bot-answer-engine/src/upstream/index.js';
import { assertNoKeyLeak, observe, parseStream, remember, replay } from '../helpers.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

let api: RunningAnswerApi;
let mf: Miniflare;
let url: URL;

before(async () => {
  api = await startAnswerApi({ port: 0, host: '127.0.0.1', paceMs: 20 });
  remember(api.keys[0]!);
  const script = await bundleWorker(here('./worker.ts'));
  mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2024-09-23',
    bindings: { ANSWER_API_KEY: api.keys[0]!, ANSWER_BASE_URL: api.url, ALLOWED_ORIGINS: 'https://docs.example.com' },
    // The worker's log lines (console.log there) are checked for the key like everything else.
    handleRuntimeStdio(stdout, stderr) {
      stdout.on('data', (chunk: Buffer) => observe(String(chunk)));
      stderr.on('data', (chunk: Buffer) => observe(String(chunk)));
    },
  });
  url = await mf.ready;
});
after(async () => {
  await mf?.dispose();
  await api?.close();
  assertNoKeyLeak();
});

const ask = async (body: unknown, headers: Record<string, string> = {}) => {
  // Through workerd's own HTTP server, as a visitor's request arrives.
  const response = await fetch(new URL('/api/answer', url), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  observe(text);
  for (const [name, value] of response.headers) observe(`${name}: ${value}`);
  return { status: response.status, headers: response.headers, text };
};

describe('Cloudflare Workers (workerd, through miniflare)', { timeout: 120_000 }, () => {
  it('streams an answer from the local Answer API in the project protocol', async () => {
    const got = await ask({ message: 'How do I reset my password?', bot_id: 'demo', stream: true }, { 'cf-connecting-ip': '198.51.100.1' });
    assert.equal(got.status, 200);
    assert.match(got.headers.get('content-type')!, /^text\/event-stream/);
    assert.equal(got.headers.get('x-bot-answer-protocol'), '1');
    const { events } = parseStream(got.text);
    assert.ok(events.filter((e) => e.event === 'delta').length > 1, 'the answer came in several deltas');
    const shown = replay(events);
    assert.equal(shown.end?.event, 'done');
    assert.ok(shown.text.length > 20);
    const whole = await ask({ message: 'How do I reset my password?', bot_id: 'demo' }, { 'cf-connecting-ip': '198.51.100.1' });
    assert.equal(JSON.parse(whole.text).answer, shown.text, 'the stream rebuilds the JSON answer');
  });

  it('counts the rate limit per CF-Connecting-IP: one visitor limited, the next still served', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await ask({ message: 'hi', bot_id: 'demo' }, { 'cf-connecting-ip': '198.51.100.9' })).status);
    assert.deepEqual(statuses.slice(0, 20), Array(20).fill(200));
    assert.equal(statuses[20], 429);
    assert.equal((await ask({ message: 'hi', bot_id: 'demo' }, { 'cf-connecting-ip': '198.51.100.10' })).status, 200);
  });

  it('checks the origin and answers the health check there too', async () => {
    assert.equal((await ask({ message: 'hi', bot_id: 'demo' }, { origin: 'https://evil.example', 'cf-connecting-ip': '198.51.100.11' })).status, 403);
    const health = await fetch(new URL('/healthz', url));
    assert.deepEqual(await health.json(), { ok: true });
  });
});
