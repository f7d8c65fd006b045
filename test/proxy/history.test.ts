import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { optionsFrom } from '../../packages/bot-answer-proxy/src/proxy/cli-options.js';
import { foldHistory } from '../../packages/bot-answer-proxy/src/proxy/history.js';
import { createProxyHandler, startProxy } from '../../packages/bot-answer-proxy/src/proxy/node.js';
import { startAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { FIXTURE_KB } from '../upstream/helpers.js';
import { frames, startFakeModel } from '../upstream/written/fake-model.js';
import { ask, assertNoKeyLeak, newKey, parseStream, rawUpstream, remember, replay, startTestProxy, type RawUpstream, type TestProxy } from './helpers.js';

const ANSWER = { answer: 'An answer.', answer_found: true, sources: [] };
const HISTORY = [
  { role: 'user', content: 'How many vacation days do I get?' },
  { role: 'assistant', content: 'Full-time employees get 25 days [[1]](https://wiki.example.com/pto).' },
];
const key = newKey();
let upstream: RawUpstream;
after(() => assertNoKeyLeak());

before(async () => {
  upstream = await rawUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ANSWER));
  });
});
after(() => upstream.close());

/** The body the upstream received for the last request. */
const lastBody = () => JSON.parse(upstream.requests.at(-1)!.body) as Record<string, unknown>;

function assertError(got: { status: number; text: string }, status: number, code: string, message: RegExp) {
  assert.equal(got.status, status, got.text);
  const { error } = JSON.parse(got.text);
  assert.equal(error.code, code);
  assert.match(error.message, message);
}

describe('history: checked by the proxy', () => {
  let proxy: TestProxy;
  before(async () => {
    proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, maxHistoryMessages: 4, maxHistoryChars: 200 });
  });
  after(() => proxy.close());

  it('answers 400 to a history of the wrong shape, saying what it must be', async () => {
    for (const history of ['earlier', { role: 'user', content: 'x' }, [{ role: 'system', content: 'x' }], [{ role: 'user' }], [{ role: 'user', content: 5 }], [null], ['x']]) {
      const asked = upstream.requests.length;
      assertError(await ask(proxy.url, { message: 'hi', bot_id: 'demo', history }), 400, 'bad_request', /"history" must be a list of \{role: "user" \| "assistant", content: string\}/);
      assert.equal(upstream.requests.length, asked, 'nothing forwarded');
    }
  });

  it('answers 413 to a history over the limits', async () => {
    const many = Array.from({ length: 5 }, () => ({ role: 'user', content: 'x' }));
    assertError(await ask(proxy.url, { message: 'hi', bot_id: 'demo', history: many }), 413, 'payload_too_large', /conversation .* too long\. The limit is 4 messages and 200 characters\./);
    assertError(await ask(proxy.url, { message: 'hi', bot_id: 'demo', history: [{ role: 'user', content: 'é'.repeat(201) }] }), 413, 'payload_too_large', /too long/);
    assert.equal((await ask(proxy.url, { message: 'hi', bot_id: 'demo', history: [{ role: 'user', content: 'é'.repeat(200) }] })).status, 200);
  });

  it('takes an absent, null or empty history as none', async () => {
    for (const history of [undefined, null, []]) {
      assert.equal((await ask(proxy.url, { message: 'hi', bot_id: 'demo', history })).status, 200);
      assert.equal('history' in lastBody(), false);
    }
  });
});

describe('history: what the upstream receives', () => {
  it('drop (the default): the question alone, exactly the fields of the spec', async () => {
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url });
    try {
      await ask(proxy.url, { message: 'And for contractors?', bot_id: 'demo', history: HISTORY, extra: 1 });
      assert.deepEqual(lastBody(), { message: 'And for contractors?', bot_id: 'demo', inline_sources: true, stream: false });
    } finally {
      await proxy.close();
    }
  });

  it('fold: the conversation appended to the message as text', async () => {
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, upstreamHistory: 'fold' });
    try {
      await ask(proxy.url, { message: 'And for contractors?', bot_id: 'demo', history: HISTORY });
      assert.deepEqual(lastBody(), {
        message: 'And for contractors?\n\nEarlier in this conversation:\nQ: How many vacation days do I get?\nA: Full-time employees get 25 days.',
        bot_id: 'demo',
        inline_sources: true,
        stream: false,
      });
    } finally {
      await proxy.close();
    }
  });

  it('fold keeps the newest turns within its size', () => {
    const long = Array.from({ length: 12 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `${i} ${'word '.repeat(200)}` }) as const);
    const folded = foldHistory('Q?', long);
    assert.ok(folded.length < 2200, `${folded.length} characters`);
    assert.match(folded, /\nA: 11 word/);
    assert.doesNotMatch(folded, /\nQ: 0 word/);
  });

  it('send: the history as it came', async () => {
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, upstreamHistory: 'send' });
    try {
      await ask(proxy.url, { message: 'And for contractors?', bot_id: 'demo', history: HISTORY, stream: false });
      assert.deepEqual(lastBody(), { message: 'And for contractors?', bot_id: 'demo', inline_sources: true, stream: false, history: HISTORY });
      assert.match(proxy.logs.at(-1)!, /"history":2/);
    } finally {
      await proxy.close();
    }
  });

  it('the setting is checked at start and read from UPSTREAM_HISTORY', async () => {
    assert.throws(() => createProxyHandler({ apiKey: key, baseUrl: upstream.url, upstreamHistory: 'keep' as never }), /upstreamHistory must be "drop", "fold" or "send"/);
    await assert.rejects(optionsFrom([], { UPSTREAM_HISTORY: 'keep' }), /UPSTREAM_HISTORY\) must be drop, fold or send/);
    const options = await optionsFrom(['--max-history-chars', '900'], { UPSTREAM_HISTORY: 'fold', MAX_HISTORY_MESSAGES: '6' });
    assert.ok(options !== 'help');
    assert.equal(options.upstreamHistory, 'fold');
    assert.equal(options.maxHistoryMessages, 6);
    assert.equal(options.maxHistoryChars, 900);
  });
});

describe('history and the answer cache', () => {
  it('a follow-up is cached apart from the same words after another conversation', async () => {
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, upstreamHistory: 'send', cacheTtlSeconds: 60 });
    try {
      const question = { message: 'And for contractors?', bot_id: 'demo' };
      const cache = async (body: object) => (await ask(proxy.url, body)).headers.get('x-cache');
      assert.equal(await cache({ ...question, history: HISTORY }), 'MISS');
      assert.equal(await cache({ ...question, history: HISTORY }), 'HIT');
      assert.equal(await cache({ ...question, history: [{ role: 'user', content: 'How do I file expenses?' }] }), 'MISS');
      assert.equal(await cache(question), 'MISS');
      assert.equal(await cache({ ...question, history: [{ role: 'user', content: '  how MANY vacation days do i get? ' }, HISTORY[1]] }), 'HIT', 'normalised like the question');
    } finally {
      await proxy.close();
    }
  });

  it('with the history dropped, the upstream answer does not depend on it: one cache entry', async () => {
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, cacheTtlSeconds: 60 });
    try {
      const question = { message: 'And for contractors, really?', bot_id: 'demo' };
      assert.equal((await ask(proxy.url, { ...question, history: HISTORY })).headers.get('x-cache'), 'MISS');
      assert.equal((await ask(proxy.url, question)).headers.get('x-cache'), 'HIT');
    } finally {
      await proxy.close();
    }
  });
});

describe('history end to end, with the local Answer API', { timeout: 30_000 }, () => {
  it('demo mode sends the conversation, so a follow-up is found', async () => {
    const proxy = await startProxy({ port: 0, log: false, rateLimitPerMinute: 0, localAnswerApi: { kb: FIXTURE_KB, watch: false, paceMs: 0 } });
    try {
      const followUp = { message: 'And for longer ones?', bot_id: 'demo' };
      assert.equal((await ask(proxy.url, followUp)).json().answer_found, false, 'the control: alone it is not found');
      const got = await ask(proxy.url, { ...followUp, history: [{ role: 'user', content: 'How do I book a flight?' }] });
      assert.equal(got.json().answer_found, true);
      assert.equal(got.json().sources[0].title, 'Travel and expense policy');
    } finally {
      await proxy.close();
    }
  });

  it('a written answer broken off mid-answer ends the stream with an error event through the proxy', async () => {
    const model = await startFakeModel();
    const api = await startAnswerApi({ port: 0, kb: FIXTURE_KB, watch: false, llmBaseUrl: model.url, llmModel: 'test-model' });
    const proxy = await startTestProxy({ apiKey: remember(api.keys[0]!), baseUrl: api.url });
    try {
      model.answer({ steps: [...frames(['Roll back [1] now', ' and [2']).slice(0, 3), { destroy: true }] });
      const got = await ask(proxy.url, { message: 'How do I roll back a release or book a flight?', bot_id: 'demo', stream: true });
      const result = replay(parseStream(got.text).events);
      assert.equal(result.text, 'Roll back [[1]](https://git.example.com/platform/billing/blob/main/docs/deploy.md) now and');
      assert.deepEqual(result.end, { event: 'error', data: { code: 'upstream_error', message: 'The answer service failed.' } });
    } finally {
      await proxy.close();
      await api.close();
      await model.close();
    }
  });
});
