import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnswerCache, type AnswerCacheSettings, type CacheOutcome, type CacheReply } from '../../src/proxy/answer-cache.js';
import { cacheKey, normaliseQuestion } from '../../src/proxy/cache-key.js';
import { ProxyError } from '../../src/proxy/errors.js';
import { memoryAnswerCache } from '../../src/proxy/stores/memory-cache.js';
import type { AnswerCacheStore, CachedAnswer } from '../../src/proxy/stores/types.js';
import type { AnswerRequest } from '../../src/protocol/types.js';
import { parseStream, replay, sleep } from './helpers.js';

const ANSWER: CachedAnswer = { answer: 'Book through the portal [[1]](https://a.example/x).', answer_found: true, sources: [{ url: 'https://a.example/x', title: 'Travel' }] };
const PIECES = ['Book through ', 'the portal ', '[[1]](https://a.example/x).'];
const encoder = new TextEncoder();
const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** A fake upstream side of the handler: counts calls, answers as told. */
function producer(kind: 'json' | 'sse' | 'error' | 'stream-error' | 'slow-sse' = 'json', pauseMs = 0) {
  const state = { calls: 0 };
  const produce = async (): Promise<Response> => {
    state.calls++;
    if (kind === 'json') {
      if (pauseMs) await sleep(pauseMs);
      return new Response(JSON.stringify(ANSWER), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
    }
    if (kind === 'error') return new Response(JSON.stringify({ error: { code: 'upstream_error', message: 'The answer service failed.' } }), { status: 502, headers: { 'content-type': 'application/json; charset=utf-8' } });
    const frames =
      kind === 'stream-error'
        ? [sse('delta', { text: PIECES[0] }), sse('error', { code: 'stream_interrupted', message: 'The answer was interrupted.' })]
        : [...PIECES.map((text) => sse('delta', { text })), sse('sources', { sources: ANSWER.sources }), sse('done', { answer_found: true })];
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (kind === 'slow-sse' || pauseMs) await sleep(pauseMs || 30);
        if (i < frames.length) controller.enqueue(encoder.encode(frames[i++]!));
        else controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
  };
  return { state, produce };
}

const reply: CacheReply = (status, body, kind, headers) =>
  new Response(body, { status, headers: { 'content-type': kind === 'json' ? 'application/json; charset=utf-8' : 'text/event-stream; charset=utf-8', ...headers } });

function cache(overrides: Partial<AnswerCacheSettings> = {}) {
  return new AnswerCache({ store: memoryAnswerCache(), ttlSeconds: 60, maxEntryBytes: 256 * 1024, lockWaitMs: 2_000, lockTtlMs: 10_000, failure: 'fallback', heartbeatMs: 15_000, ...overrides });
}

const question = (message: string, stream = false, extra: Partial<AnswerRequest> = {}): AnswerRequest => ({ message, bot_id: 'demo', inline_sources: true, stream, ...extra });

async function ask(c: AnswerCache, body: AnswerRequest, produce: () => Promise<Response>, signal = new AbortController().signal) {
  const outcomes: CacheOutcome[] = [];
  const response = await c.serve(body, signal, produce, reply, (o) => outcomes.push(o));
  const text = await response.text();
  return { status: response.status, xCache: response.headers.get('x-cache'), text, outcomes };
}

describe('the cache key', () => {
  it('trims, collapses white space and folds case; bot id and inline_sources count', async () => {
    assert.equal(normaliseQuestion('  How do\n I   BOOK a\thotel?  '), 'how do i book a hotel?');
    assert.equal(normaliseQuestion('STRASSE'), normaliseQuestion('straße'));
    const a = await cacheKey(question('How do I book a hotel?'));
    assert.equal(a, await cacheKey(question('  how DO i   book a HOTEL? ')));
    assert.match(a, /^[0-9a-f]{64}$/);
    assert.notEqual(a, await cacheKey(question('How do I book a hotel?', false, { bot_id: 'other' })));
    assert.notEqual(a, await cacheKey(question('How do I book a hotel?', false, { inline_sources: false })));
    assert.notEqual(a, await cacheKey(question('How do I book a car?')));
  });
});

describe('the answer cache', () => {
  it('misses, keeps the complete answer, then replays it as JSON and as the stream protocol', async () => {
    const c = cache();
    const up = producer('sse');
    const first = await ask(c, question('Hotels?', true), up.produce);
    assert.equal(first.xCache, 'MISS');
    assert.deepEqual(first.outcomes, ['miss']);
    await sleep(10);
    const json = await ask(c, question('  hotels? '), up.produce);
    assert.equal(json.xCache, 'HIT');
    assert.deepEqual(JSON.parse(json.text), ANSWER);
    const stream = await ask(c, question('HOTELS?', true), up.produce);
    assert.equal(stream.xCache, 'HIT');
    const { events } = parseStream(stream.text);
    assert.deepEqual(events.map((e) => e.event), ['delta', 'sources', 'done']);
    const shown = replay(events);
    assert.equal(shown.text, replay(parseStream(first.text).events).text);
    assert.deepEqual(shown.sources, ANSWER.sources);
    assert.deepEqual(shown.end, { event: 'done', data: { answer_found: true } });
    assert.equal(up.state.calls, 1);
  });

  it('never keeps an error, an error event or a stopped stream', async () => {
    const c = cache();
    const failing = producer('error');
    for (let i = 0; i < 2; i++) assert.equal((await ask(c, question('a'), failing.produce)).status, 502);
    assert.equal(failing.state.calls, 2);

    const broken = producer('stream-error');
    for (let i = 0; i < 2; i++) {
      const got = await ask(c, question('b', true), broken.produce);
      assert.equal(replay(parseStream(got.text).events).end?.data.code, 'stream_interrupted');
      await sleep(5);
    }
    assert.equal(broken.state.calls, 2);

    const slow = producer('slow-sse');
    const response = await c.serve(question('c', true), new AbortController().signal, slow.produce, reply, () => {});
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await sleep(10);
    await ask(c, question('c', true), slow.produce);
    assert.equal(slow.state.calls, 2);
  });

  it('keeps no answer over the size cap', async () => {
    const c = cache({ maxEntryBytes: 20 });
    const up = producer('json');
    await ask(c, question('big'), up.produce);
    await sleep(5);
    assert.equal((await ask(c, question('big'), up.produce)).xCache, 'MISS');
    assert.equal(up.state.calls, 2);
  });

  it('sends concurrent identical questions upstream once: JSON askers wait, stream askers follow live', async () => {
    const c = cache();
    const up = producer('slow-sse');
    const asks = [ask(c, question('same', true), up.produce)];
    await sleep(40); // the first is streaming now
    asks.push(ask(c, question('SAME', true), up.produce), ask(c, question('same '), up.produce), ask(c, question('same', true), up.produce));
    const got = await Promise.all(asks);
    assert.equal(up.state.calls, 1);
    assert.deepEqual(got.map((g) => g.xCache), ['MISS', 'HIT', 'HIT', 'HIT']);
    assert.deepEqual(got.map((g) => g.outcomes[0]), ['miss', 'shared', 'shared', 'shared']);
    const live = replay(parseStream(got[0]!.text).events);
    for (const g of [got[1]!, got[3]!]) assert.deepEqual(replay(parseStream(g.text).events), live);
    assert.deepEqual(JSON.parse(got[2]!.text), { ...ANSWER, answer: live.text });
  });

  it('shares the first asker\'s error with those waiting on it', async () => {
    const c = cache();
    let calls = 0;
    const produce = async () => {
      calls++;
      await sleep(30);
      return producer('error').produce();
    };
    const got = await Promise.all([ask(c, question('x'), produce), ask(c, question('x', true), produce)]);
    assert.equal(calls, 1);
    assert.deepEqual(got.map((g) => g.status), [502, 502]);
    assert.equal(JSON.parse(got[1]!.text).error.code, 'upstream_error');
  });

  it('lets a waiting asker ask again when the first asker left before any answer', async () => {
    const c = cache();
    const up = producer('slow-sse', 50);
    const again = producer('json');
    const leader = c.serve(question('q', true), new AbortController().signal, up.produce, reply, () => {});
    const follower = ask(c, question('q'), again.produce);
    (await leader).body!.cancel();
    const got = await follower;
    assert.equal(got.status, 200);
    assert.deepEqual(JSON.parse(got.text), ANSWER);
    assert.equal(up.state.calls + again.state.calls, 2);
  });

  it('skips a failing store by default, and refuses with 503 unavailable when told to', async () => {
    const broken: AnswerCacheStore = {
      get: () => Promise.reject(new Error('down')),
      set: () => Promise.reject(new Error('down')),
      clear: () => Promise.reject(new Error('down')),
      lock: () => Promise.reject(new Error('down')),
      unlock: () => Promise.reject(new Error('down')),
    };
    const up = producer('json');
    const open = await ask(cache({ store: broken }), question('z'), up.produce);
    assert.equal(open.status, 200);
    assert.equal(open.xCache, 'MISS');
    await assert.rejects(ask(cache({ store: broken, failure: 'refuse' }), question('z'), up.produce), (error: ProxyError) => error.failure === 'store_unavailable' && error.info.status === 503);
    assert.equal(up.state.calls, 1);
  });

  it('times out a store that hangs, within the 5 s bound', async () => {
    const hanging: AnswerCacheStore = { get: () => new Promise(() => {}), set: () => new Promise(() => {}), clear: async () => 0 };
    const up = producer('json');
    const started = Date.now();
    const got = await ask(cache({ store: hanging }), question('h'), up.produce);
    assert.equal(got.status, 200);
    assert.ok(Date.now() - started < 5_000);
  });
});

describe('the memory store', () => {
  it('expires entries by their TTL and evicts the least recently used beyond its byte cap', async () => {
    const size = JSON.stringify(ANSWER).length;
    const store = memoryAnswerCache({ maxBytes: size * 2 + 10 });
    await store.set('a', ANSWER, 60);
    await store.set('b', ANSWER, 60);
    await store.get('a');
    await store.set('c', ANSWER, 60);
    assert.deepEqual(await store.get('a'), ANSWER);
    assert.equal(await store.get('b'), undefined);
    assert.equal(await store.clear(), 2);
    assert.equal(await store.get('a'), undefined);
    await store.set('short', ANSWER, 0.05);
    assert.deepEqual(await store.get('short'), ANSWER);
    await sleep(80);
    assert.equal(await store.get('short'), undefined);
  });
});
