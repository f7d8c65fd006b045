import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Answer, AnswerResult } from '../../packages/bot-answer-proxy/src/proxy/answer.js';
import { AnswerCache, cacheKey, normaliseQuestion, type AnswerCacheSettings, type CacheOutcome } from '../../packages/bot-answer-proxy/src/proxy/answer-cache.js';
import { ProxyError, type Failure } from '../../packages/bot-answer-proxy/src/proxy/errors.js';
import type { NormalisedEvent } from '../../packages/bot-answer-proxy/src/proxy/normalise.js';
import { memoryAnswerCache } from '../../packages/bot-answer-proxy/src/proxy/stores/memory-cache.js';
import type { AnswerCacheStore, CachedAnswer } from '../../packages/bot-answer-proxy/src/proxy/stores/types.js';
import type { AnswerRequest } from '../../packages/bot-answer/src/protocol/types.js';
import { sleep } from './helpers.js';

const ANSWER: AnswerResult = {
  answer: 'Book through the portal [[1]](https://a.example/x).',
  answer_found: true,
  sources: [{ url: 'https://a.example/x', title: 'Travel' }],
  outcome: 'answered',
};
const PIECES = ['Book through ', 'the portal ', '[[1]](https://a.example/x).'];

/** A fake upstream side of the handler (`fetchAnswer`): counts calls, answers as told. */
function producer(kind: 'result' | 'events' | 'error' | 'event-error' = 'result', pauseMs = 20) {
  const state = { calls: 0, stopped: 0 };
  const fetch = async (): Promise<Answer> => {
    state.calls++;
    await sleep(pauseMs);
    if (kind === 'result') return { result: ANSWER };
    if (kind === 'error') throw new ProxyError('upstream_failed');
    const script: NormalisedEvent[] =
      kind === 'event-error'
        ? [{ type: 'delta', text: PIECES[0]! }, { type: 'error', failure: 'stream_broken' }]
        : [...PIECES.map((text): NormalisedEvent => ({ type: 'delta', text })), { type: 'sources', sources: ANSWER.sources }, { type: 'done', answer_found: true, outcome: 'answered' }];
    let i = 0;
    let stopped: Failure | undefined;
    return {
      events: {
        malformed: 0,
        async next() {
          if (i >= script.length) return [];
          if (stopped) {
            i = script.length;
            return [{ type: 'error', failure: stopped }];
          }
          await sleep(pauseMs);
          return [script[i++]!];
        },
        stop(failure?: Failure) {
          state.stopped++;
          stopped = failure ?? 'stream_broken';
        },
      },
    };
  };
  return { state, fetch };
}

function cache(overrides: Partial<AnswerCacheSettings> = {}) {
  return new AnswerCache({ store: memoryAnswerCache(), ttlSeconds: 60, maxEntryBytes: 256 * 1024, lockWaitMs: 2_000, lockTtlMs: 10_000, failure: 'fallback', ...overrides });
}

const question = (message: string, stream = false, extra: Partial<AnswerRequest> = {}): AnswerRequest => ({ message, bot_id: 'demo', inline_sources: true, stream, ...extra });

/** Asks through the cache and reads the answer whole, as the handler would send it. */
async function ask(c: AnswerCache, body: AnswerRequest, fetch: () => Promise<Answer>, signal = new AbortController().signal) {
  const outcomes: CacheOutcome[] = [];
  const answer = await c.answer(body, signal, fetch, (o) => outcomes.push(o));
  if (answer.result) return { outcomes, result: answer.result, events: undefined };
  const events: NormalisedEvent[] = [];
  for (let batch = await answer.events.next(); batch.length > 0; batch = await answer.events.next()) events.push(...batch);
  return { outcomes, result: undefined, events };
}

const text = (events: NormalisedEvent[]) => events.map((e) => (e.type === 'delta' ? e.text : '')).join('');

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
  it('misses, keeps the complete answer of a stream, then gives it whole', async () => {
    const c = cache();
    const up = producer('events', 5);
    const first = await ask(c, question('Hotels?', true), up.fetch);
    assert.deepEqual(first.outcomes, ['miss']);
    assert.equal(text(first.events!), ANSWER.answer);
    await sleep(10);
    const again = await ask(c, question('  HOTELS? '), up.fetch);
    assert.deepEqual(again.outcomes, ['hit']);
    assert.deepEqual(again.result, ANSWER);
    assert.equal(up.state.calls, 1);
  });

  it('never keeps an error, an error event or a stopped stream', async () => {
    const c = cache();
    const failing = producer('error');
    for (let i = 0; i < 2; i++) await assert.rejects(ask(c, question('a'), failing.fetch), (e: ProxyError) => e.failure === 'upstream_failed');
    assert.equal(failing.state.calls, 2);

    const broken = producer('event-error', 5);
    for (let i = 0; i < 2; i++) assert.deepEqual((await ask(c, question('b', true), broken.fetch)).events!.at(-1), { type: 'error', failure: 'stream_broken' });
    assert.equal(broken.state.calls, 2);

    const stopped = producer('events', 5);
    const answer = await c.answer(question('c', true), new AbortController().signal, stopped.fetch, () => {});
    await answer.events!.next();
    answer.events!.stop();
    await sleep(10);
    assert.deepEqual((await ask(c, question('c', true), stopped.fetch)).outcomes, ['miss']);
    assert.equal(stopped.state.calls, 2);
  });

  it('keeps no answer over the size cap', async () => {
    const c = cache({ maxEntryBytes: 20 });
    const up = producer('result', 0);
    await ask(c, question('big'), up.fetch);
    await sleep(5);
    assert.deepEqual((await ask(c, question('big'), up.fetch)).outcomes, ['miss']);
    assert.equal(up.state.calls, 2);
  });

  it('asks the upstream once for concurrent identical questions: JSON askers wait, stream askers follow live', async () => {
    const c = cache();
    const up = producer('events', 20);
    const asks = [ask(c, question('same', true), up.fetch)];
    await sleep(50);
    asks.push(ask(c, question('SAME', true), up.fetch), ask(c, question('same '), up.fetch));
    const got = await Promise.all(asks);
    assert.equal(up.state.calls, 1);
    assert.deepEqual(got.map((g) => g.outcomes[0]), ['miss', 'shared', 'shared']);
    assert.deepEqual(got[1]!.events, got[0]!.events);
    assert.deepEqual(got[2]!.result, ANSWER);
  });

  it("shares the first asker's error with those waiting on it", async () => {
    const c = cache();
    const up = producer('error', 30);
    const got = await Promise.allSettled([ask(c, question('x'), up.fetch), ask(c, question('x', true), up.fetch)]);
    assert.equal(up.state.calls, 1);
    for (const g of got) assert.equal(g.status === 'rejected' && (g.reason as ProxyError).failure, 'upstream_failed');
  });

  it('lets a waiting asker ask again when the first asker left before any answer', async () => {
    const c = cache();
    const up = producer('events', 30);
    const again = producer('result', 0);
    const leader = c.answer(question('q', true), new AbortController().signal, up.fetch, () => {});
    // The follower asks once the first asker holds the question (its fetch has begun), not in a race for it.
    while (up.state.calls === 0) await sleep(1);
    const follower = ask(c, question('q'), again.fetch);
    (await leader).events!.stop();
    const got = await follower;
    assert.deepEqual(got.result, ANSWER);
    assert.deepEqual(got.outcomes, ['miss']);
    assert.equal(again.state.calls, 1);
  });

  it('skips a failing store by default, and refuses with 503 unavailable when told to', async () => {
    const broken: AnswerCacheStore = {
      get: () => Promise.reject(new Error('down')),
      set: () => Promise.reject(new Error('down')),
      clear: () => Promise.reject(new Error('down')),
      lock: () => Promise.reject(new Error('down')),
      unlock: () => Promise.reject(new Error('down')),
    };
    const up = producer('result', 0);
    assert.deepEqual((await ask(cache({ store: broken }), question('z'), up.fetch)).result, ANSWER);
    await assert.rejects(ask(cache({ store: broken, failure: 'refuse' }), question('z'), up.fetch), (error: ProxyError) => error.failure === 'store_unavailable' && error.info.status === 503);
    assert.equal(up.state.calls, 1);
  });

  it('times out a store that hangs, within the 5 s bound', async () => {
    const hanging: AnswerCacheStore = { get: () => new Promise(() => {}), set: () => new Promise(() => {}), clear: async () => 0 };
    const up = producer('result', 0);
    const started = Date.now();
    assert.deepEqual((await ask(cache({ store: hanging }), question('h'), up.fetch)).result, ANSWER);
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
