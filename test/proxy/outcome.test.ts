import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { cacheKey } from '../../packages/bot-answer-proxy/src/proxy/answer-cache.js';
import { memoryAnswerCache } from '../../packages/bot-answer-proxy/src/proxy/stores/memory-cache.js';
import { RAW_SOURCES, SOURCES } from './fixtures.js';
import { ask, assertNoKeyLeak, chunk, newKey, parseStream, rawUpstream, replay, startTestProxy, writePieces } from './helpers.js';

const key = newKey();
const encoder = new TextEncoder();
after(() => assertNoKeyLeak());

const NOT_SURE = "I'm not sure the docs answer this. These pages look closest.";
const REFUSED = "I couldn't find anything about this in the docs.";

/** The three outcomes as the seed API's fields say them (no `outcome` field), and what the proxy derives. */
const CASES = [
  { name: 'answered', upstream: { answer: 'Book through the portal [[1]](https://a.example/x).', answer_found: true, sources: RAW_SOURCES }, sources: SOURCES, outcome: 'answered' },
  { name: 'not sure', upstream: { answer: NOT_SURE, answer_found: false, sources: RAW_SOURCES }, sources: SOURCES, outcome: 'not_sure' },
  { name: 'refused', upstream: { answer: REFUSED, answer_found: false, sources: [] }, sources: [], outcome: 'refused' },
] as const;

type Case = (typeof CASES)[number];

/** Upstream bodies speaking each case in several dialects: JSON, named SSE events, typed SSE objects. */
const DIALECTS: Record<string, (c: Case) => { type: string; body: string }> = {
  json: (c) => ({ type: 'application/json', body: JSON.stringify(c.upstream) }),
  named: (c) => ({
    type: 'text/event-stream',
    body:
      `event: delta\ndata: ${JSON.stringify({ text: c.upstream.answer.slice(0, 9) })}\n\n` +
      `event: delta\ndata: ${JSON.stringify({ text: c.upstream.answer.slice(9) })}\n\n` +
      (c.upstream.sources.length ? `event: sources\ndata: ${JSON.stringify({ sources: c.upstream.sources })}\n\n` : '') +
      `event: done\ndata: ${JSON.stringify({ answer_found: c.upstream.answer_found })}\n\n`,
  }),
  typed: (c) => ({
    type: 'text/event-stream',
    body:
      `data: ${JSON.stringify({ type: 'answer', text: c.upstream.answer })}\n\n` +
      `data: ${JSON.stringify({ type: 'sources', sources: c.upstream.sources })}\n\n` +
      `data: ${JSON.stringify({ type: 'end', answer_found: c.upstream.answer_found })}\n\n`,
  }),
};

/** A stand-in upstream answering every request with `body`, one byte per socket write (streams) or whole (JSON). */
async function upstreamOf(answer: { type: string; body: string }) {
  return rawUpstream(async (_req, res) => {
    res.writeHead(200, { 'content-type': answer.type });
    const bytes = encoder.encode(answer.body);
    await writePieces(res, answer.type.includes('json') ? [bytes] : chunk(bytes, 'random', 5));
    res.end();
  });
}

async function withProxy(answer: { type: string; body: string }, run: (url: string) => Promise<void>, config: Parameters<typeof startTestProxy>[0] extends infer C ? Partial<C> : never = {}) {
  const upstream = await upstreamOf(answer);
  const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, ...config });
  try {
    await run(proxy.url);
  } finally {
    await proxy.close();
    await upstream.close();
  }
}

describe('the outcome of an answer, derived when the upstream does not say it', () => {
  for (const [dialect, wire] of Object.entries(DIALECTS)) {
    for (const c of CASES) {
      it(`${c.name}, from the ${dialect} dialect, in JSON and in the stream's done event`, async () => {
        await withProxy(wire(c), async (url) => {
          const json = await ask(url, { message: 'q', bot_id: 'demo' });
          assert.deepEqual(json.json(), { answer: c.upstream.answer, answer_found: c.upstream.answer_found, sources: c.sources, outcome: c.outcome });
          const stream = await ask(url, { message: 'q', bot_id: 'demo', stream: true });
          const result = replay(parseStream(stream.text).events);
          assert.equal(result.text, c.upstream.answer);
          assert.deepEqual(result.sources, c.sources);
          assert.deepEqual(result.end, { event: 'done', data: { answer_found: c.upstream.answer_found, outcome: c.outcome } });
        });
      });
    }
  }
});

describe('an outcome the upstream says', () => {
  it('passes through, in JSON and in the stream, and sets answer_found when that is missing', async () => {
    const body = `event: delta\ndata: {"text":"${NOT_SURE}"}\n\nevent: done\ndata: {"outcome":"not_sure"}\n\n`;
    await withProxy({ type: 'text/event-stream', body }, async (url) => {
      const result = replay(parseStream((await ask(url, { message: 'q', bot_id: 'demo', stream: true })).text).events);
      // Without sources the derivation would say `refused`: the upstream's word wins.
      assert.deepEqual(result.end?.data, { answer_found: false, outcome: 'not_sure' });
      assert.deepEqual((await ask(url, { message: 'q', bot_id: 'demo' })).json(), { answer: NOT_SURE, answer_found: false, sources: [], outcome: 'not_sure' });
    });
  });

  it('is ignored when it names none of the three (the proxy derives it)', async () => {
    const body = JSON.stringify({ answer: 'Yes.', answer_found: true, sources: [], outcome: 'maybe' });
    await withProxy({ type: 'application/json', body }, async (url) => {
      assert.equal((await ask(url, { message: 'q', bot_id: 'demo' })).json().outcome, 'answered');
    });
  });
});

describe('cache hits keep the outcome', () => {
  for (const c of CASES) {
    it(`${c.name}: MISS then HIT, in both modes, say the same outcome`, async () => {
      await withProxy(
        DIALECTS.named!(c),
        async (url) => {
          const first = await ask(url, { message: 'Cached?', bot_id: 'demo', stream: true });
          assert.equal(first.headers.get('x-cache'), 'MISS');
          const json = await ask(url, { message: 'cached?', bot_id: 'demo' });
          assert.equal(json.headers.get('x-cache'), 'HIT');
          assert.equal(json.json().outcome, c.outcome);
          const stream = await ask(url, { message: 'CACHED?', bot_id: 'demo', stream: true });
          assert.equal(stream.headers.get('x-cache'), 'HIT');
          assert.deepEqual(replay(parseStream(stream.text).events).end?.data, { answer_found: c.upstream.answer_found, outcome: c.outcome });
        },
        { cacheTtlSeconds: 60 },
      );
    });
  }

  it('an answer cached before the field gets its outcome derived on a hit', async () => {
    const store = memoryAnswerCache();
    const body = { message: 'Old?', bot_id: 'demo', inline_sources: true };
    await store.set(await cacheKey(body), { answer: NOT_SURE, answer_found: false, sources: SOURCES }, 60);
    await withProxy(
      DIALECTS.json!(CASES[0]),
      async (url) => {
        const json = await ask(url, body);
        assert.equal(json.headers.get('x-cache'), 'HIT');
        assert.deepEqual(json.json(), { answer: NOT_SURE, answer_found: false, sources: SOURCES, outcome: 'not_sure' });
        const stream = await ask(url, { ...body, stream: true });
        assert.deepEqual(replay(parseStream(stream.text).events).end?.data, { answer_found: false, outcome: 'not_sure' });
      },
      { cacheTtlSeconds: 60, cacheStore: store },
    );
  });
});
