import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ANSWER, cacheUpstream, SOURCES } from './cache-upstream.js';
import { until } from '../upstream/written/helpers.js';
import { ask, assertNoKeyLeak, newKey, parseStream, received, replay, send, sleep, startTestProxy, type TestProxy } from './helpers.js';

let upstream: Awaited<ReturnType<typeof cacheUpstream>>;
let proxy: TestProxy;
const key = newKey();
const origin = 'https://docs.example.com';

before(async () => {
  upstream = await cacheUpstream();
  proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, cacheTtlSeconds: 60, allowedOrigins: [origin] });
});
after(async () => {
  await proxy.close();
  await upstream.close();
  assertNoKeyLeak();
});

const upstreamCount = () => upstream.requests.length;

/** Asks for a stream, resolving at its response's headers (the body not read yet). */
const post = (body: unknown) => fetch(`${proxy.url}/api/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the answer cache through the proxy', () => {
  it('answers MISS, then HIT for the same question however it is spaced and cased, in either mode', async () => {
    const before = upstreamCount();
    const first = await ask(proxy.url, { message: 'How do I book a hotel?', bot_id: 'demo', stream: true }, { origin });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-cache'), 'MISS');
    assert.match(first.headers.get('access-control-expose-headers')!, /X-Cache/);
    const live = replay(parseStream(first.text).events);
    assert.equal(live.text, ANSWER);

    const json = await ask(proxy.url, { message: '  how do i   BOOK a hotel? ', bot_id: 'demo' }, { origin });
    assert.equal(json.headers.get('x-cache'), 'HIT');
    assert.equal(json.headers.get('access-control-allow-origin'), origin);
    assert.deepEqual(json.json(), { answer: ANSWER, answer_found: true, sources: SOURCES, outcome: 'answered' });

    const stream = await ask(proxy.url, { message: 'How do I book a hotel?', bot_id: 'demo', stream: true });
    assert.equal(stream.headers.get('x-cache'), 'HIT');
    assert.match(stream.headers.get('content-type')!, /text\/event-stream/);
    assert.ok(stream.headers.get('x-request-id'));
    const replayed = replay(parseStream(stream.text).events);
    assert.deepEqual(replayed, live);
    assert.equal(upstreamCount() - before, 1);
  });

  it('keys on the bot and inline_sources too', async () => {
    const before = upstreamCount();
    await ask(proxy.url, { message: 'Key question', bot_id: 'demo' });
    assert.equal((await ask(proxy.url, { message: 'Key question', bot_id: 'other' })).headers.get('x-cache'), 'MISS');
    assert.equal((await ask(proxy.url, { message: 'Key question', bot_id: 'demo', inline_sources: false })).headers.get('x-cache'), 'MISS');
    assert.equal((await ask(proxy.url, { message: 'key QUESTION', bot_id: 'demo', inline_sources: true })).headers.get('x-cache'), 'HIT');
    assert.equal(upstreamCount() - before, 3);
  });

  it('never keeps an upstream error or a broken stream', async () => {
    const before = upstreamCount();
    for (let i = 0; i < 2; i++) {
      const failed = await ask(proxy.url, { message: 'please fail', bot_id: 'demo' });
      assert.equal(failed.status, 502);
      assert.equal(failed.headers.get('x-cache'), 'MISS');
      const broken = await ask(proxy.url, { message: 'please break', bot_id: 'demo', stream: true });
      assert.equal(replay(parseStream(broken.text).events).end?.data.code, 'stream_interrupted');
    }
    assert.equal(upstreamCount() - before, 4);
  });

  it('never keeps a stream the visitor stopped', async () => {
    const before = upstreamCount();
    const controller = new AbortController();
    const response = await fetch(`${proxy.url}/api/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'stop me', bot_id: 'demo', stream: true }), signal: controller.signal });
    await response.body!.getReader().read();
    controller.abort();
    await sleep(100);
    const again = await ask(proxy.url, { message: 'stop me', bot_id: 'demo' });
    assert.equal(again.headers.get('x-cache'), 'MISS');
    assert.equal(upstreamCount() - before, 2);
  });

  it('sends concurrent identical questions upstream once, streaming to the later askers as it arrives', async () => {
    const before = upstreamCount();
    // The first answer stays open after its first piece until the streaming askers have joined it.
    const release = upstream.holdAfterFirstPiece();
    const first = ask(proxy.url, { message: 'Concurrent?', bot_id: 'demo', stream: true });
    await until(() => upstreamCount() - before === 1);
    const joining = [
      post({ message: 'concurrent?', bot_id: 'demo', stream: true }),
      ask(proxy.url, { message: 'CONCURRENT?', bot_id: 'demo' }),
      post({ message: 'Concurrent? ', bot_id: 'demo', stream: true }),
    ] as const;
    // Followers of a stream get their headers while the first answer is still held open (else they were not streamed to).
    const [streamA, streamB] = await Promise.race([
      Promise.all([joining[0], joining[2]]),
      sleep(10_000).then(() => assert.fail('the later askers got nothing while the first answer was open')),
    ]);
    release();
    const rest = [await received(streamA), await joining[1], await received(streamB)];
    const lead = await first;
    assert.equal(upstreamCount() - before, 1);
    assert.equal(lead.headers.get('x-cache'), 'MISS');
    for (const got of rest) assert.equal(got.headers.get('x-cache'), 'HIT');
    const live = replay(parseStream(lead.text).events);
    assert.deepEqual(replay(parseStream(rest[0]!.text).events), live);
    assert.deepEqual(rest[1]!.json(), { answer: ANSWER, answer_found: true, sources: SOURCES, outcome: 'answered' });
    // The follower's stream came in pieces, as the first one's did: more than one delta.
    assert.ok(parseStream(rest[2]!.text).events.filter((e) => e.event === 'delta').length > 1);
  });

  it('logs the cache outcome, never the question or its key', async () => {
    await ask(proxy.url, { message: 'Secret question 42', bot_id: 'demo' });
    await ask(proxy.url, { message: 'Secret question 42', bot_id: 'demo' });
    await sleep(20);
    const lines = proxy.logs.slice(-2).map((line) => JSON.parse(line));
    assert.deepEqual(lines.map((l) => l.cache), ['miss', 'hit']);
    assert.ok(!proxy.logs.some((line) => /secret question/i.test(line)));
  });

  it('clears the cache on request', async () => {
    await ask(proxy.url, { message: 'clear me', bot_id: 'demo' });
    assert.equal((await ask(proxy.url, { message: 'clear me', bot_id: 'demo' })).headers.get('x-cache'), 'HIT');
    assert.ok(((await proxy.handler.clearCache()) ?? 0) > 0);
    assert.equal((await ask(proxy.url, { message: 'clear me', bot_id: 'demo' })).headers.get('x-cache'), 'MISS');
  });

  it('leaves requests refused before the cache without X-Cache', async () => {
    const got = await send(`${proxy.url}/api/answer`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    assert.equal(got.status, 415);
    assert.equal(got.headers.get('x-cache'), null);
  });
});

describe('without CACHE_TTL_SECONDS', () => {
  it('has no cache and no X-Cache header', async () => {
    const plain = await startTestProxy({ apiKey: key, baseUrl: upstream.url });
    try {
      const before = upstreamCount();
      for (let i = 0; i < 2; i++) assert.equal((await ask(plain.url, { message: 'no cache', bot_id: 'demo' })).headers.get('x-cache'), null);
      assert.equal(upstreamCount() - before, 2);
      assert.equal(await plain.handler.clearCache(), 0);
    } finally {
      await plain.close();
    }
  });
});
