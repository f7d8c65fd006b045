import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Miniflare } from 'miniflare';
import { bundleWorker } from './bundle-worker.js';
import { ANSWER, cacheUpstream, SOURCES } from '../cache-upstream.js';
import { newKey, parseStream, replay, sleep, type RawUpstream } from '../helpers.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

let upstream: RawUpstream;
let mf: Miniflare;
const key = newKey();

before(async () => {
  upstream = await cacheUpstream();
  const script = await bundleWorker(here('./cache-worker.ts'));
  mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2025-07-01',
    bindings: { ANSWER_API_KEY: key, ANSWER_BASE_URL: upstream.url },
  });
  await mf.ready;
});
after(async () => {
  await mf?.dispose();
  await upstream?.close();
});

async function askWorker(body: unknown) {
  const response = await mf.dispatchFetch('http://localhost/api/answer', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.7' },
    body: JSON.stringify(body),
  });
  return { status: response.status, xCache: response.headers.get('x-cache'), text: await response.text() };
}

describe('the answer cache on Cloudflare Workers (workerd, Cache API)', () => {
  it('streams a MISS from the upstream, then replays it as a HIT from caches.default in either mode', async () => {
    const before = upstream.requests.length;
    const first = await askWorker({ message: 'Workers cache?', bot_id: 'demo', stream: true });
    assert.equal(first.status, 200);
    assert.equal(first.xCache, 'MISS');
    const live = replay(parseStream(first.text).events);
    assert.equal(live.text, ANSWER);
    await sleep(50);
    const json = await askWorker({ message: 'workers   CACHE?', bot_id: 'demo' });
    assert.equal(json.xCache, 'HIT');
    assert.deepEqual(JSON.parse(json.text), { answer: ANSWER, answer_found: true, sources: SOURCES, outcome: 'answered' });
    const stream = await askWorker({ message: 'Workers cache?', bot_id: 'demo', stream: true });
    assert.equal(stream.xCache, 'HIT');
    assert.deepEqual(replay(parseStream(stream.text).events), live);
    assert.equal(upstream.requests.length - before, 1);
  });

  it('never keeps an upstream error', async () => {
    const before = upstream.requests.length;
    for (let i = 0; i < 2; i++) assert.equal((await askWorker({ message: 'please fail', bot_id: 'demo' })).status, 502);
    assert.equal(upstream.requests.length - before, 2);
  });
});
