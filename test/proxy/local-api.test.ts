import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startAnswerApi, STREAM_DIALECTS, type AnswerApiOptions, type RunningAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { ask, assertNoKeyLeak, parseStream, remember, replay, startTestProxy, type TestProxy } from './helpers.js';

const QUESTION = { message: 'How do I book a hotel for a business trip?', bot_id: 'demo' };
after(() => assertNoKeyLeak());

/** A local Answer API with `options` and a proxy in front of it. */
async function pair(options: AnswerApiOptions, proxyOptions: Parameters<typeof startTestProxy>[0] extends infer C ? Partial<C> : never = {}): Promise<{ upstream: RunningAnswerApi; proxy: TestProxy; close(): Promise<void> }> {
  const upstream = await startAnswerApi({ port: 0, paceMs: 0, ...options });
  const proxy = await startTestProxy({ apiKey: remember(upstream.keys[0]!), baseUrl: upstream.url, ...proxyOptions });
  return { upstream, proxy, close: async () => (await proxy.close(), await upstream.close()) };
}

// A timeout turns an unexpected hang into a failure.
describe('against the local Answer API', { timeout: 90_000 }, () => {
  it('the JSON answer passes through unchanged in shape', async () => {
    const { proxy, upstream, close } = await pair({});
    try {
      const got = await ask(proxy.url, QUESTION);
      assert.equal(got.status, 200);
      const body = got.json();
      assert.equal(typeof body.answer, 'string');
      assert.ok(body.answer.length > 20);
      assert.equal(body.answer_found, true);
      assert.equal(body.outcome, 'answered');
      assert.ok(Array.isArray(body.sources) && body.sources.length > 0);
      assert.equal(upstream.requests.length, 1);
      assert.equal(upstream.requests[0]!.headers.authorization, `Bearer ${upstream.keys[0]}`);
    } finally {
      await close();
    }
  });

  for (const dialect of STREAM_DIALECTS) {
    for (const endMarker of [true, false]) {
      it(`streams the same answer in the ${dialect} dialect (end marker: ${endMarker})`, async () => {
        const { proxy, close } = await pair({ dialect, endMarker, wordsPerChunk: 2 });
        try {
          const json = (await ask(proxy.url, { ...QUESTION, stream: false })).json();
          const got = await ask(proxy.url, { ...QUESTION, stream: true });
          assert.equal(got.status, 200);
          const result = replay(parseStream(got.text).events);
          assert.equal(result.text, json.answer);
          assert.deepEqual(result.sources, json.sources);
          assert.deepEqual(result.end, { event: 'done', data: { answer_found: json.answer_found, outcome: json.outcome } });
        } finally {
          await close();
        }
      });
    }
  }

  it('an off-topic question ends with answer_found false in every dialect', async () => {
    for (const dialect of STREAM_DIALECTS) {
      const { proxy, close } = await pair({ dialect });
      try {
        const got = await ask(proxy.url, { message: 'zxqv plorb wibble', bot_id: 'demo', stream: true });
        const result = replay(parseStream(got.text).events);
        assert.equal(result.end?.event, 'done', dialect);
        assert.equal(result.end?.data.answer_found, false, dialect);
        assert.equal(result.end?.data.outcome, result.sources.length > 0 ? 'not_sure' : 'refused', dialect);
      } finally {
        await close();
      }
    }
  });

  it('multi-byte characters split across socket writes arrive intact', async () => {
    for (const dialect of ['named', 'plain', 'openai'] as const) {
      const { proxy, close } = await pair({ dialect, faults: { splitMultibyte: true } });
      try {
        const reference = await pair({ dialect });
        const expected = replay(parseStream((await ask(reference.proxy.url, { ...QUESTION, stream: true })).text).events).text;
        await reference.close();
        const got = replay(parseStream((await ask(proxy.url, { ...QUESTION, stream: true })).text).events);
        assert.equal(got.text, expected);
        assert.ok(!got.text.includes('\uFFFD'));
      } finally {
        await close();
      }
    }
  });

  it('a malformed event is skipped: the answer is still exact', async () => {
    for (const dialect of ['named', 'typed', 'openai', 'cumulative', 'final', 'plain'] as const) {
      const { proxy, close } = await pair({ dialect, faults: { malformedEvent: true } });
      try {
        const json = (await ask(proxy.url, QUESTION)).json();
        const got = replay(parseStream((await ask(proxy.url, { ...QUESTION, stream: true })).text).events);
        assert.equal(got.text, json.answer, dialect);
        assert.equal(got.end?.event, 'done');
      } finally {
        await close();
      }
    }
  });

  it('an oversized event is passed when within the limit and refused beyond it', async () => {
    const { proxy, close } = await pair({ dialect: 'named', faults: { oversizedEventBytes: 200_000 } });
    try {
      const got = replay(parseStream((await ask(proxy.url, { ...QUESTION, stream: true })).text).events);
      assert.equal(got.end?.event, 'done');
      assert.ok(got.text.includes('x'.repeat(1000)));
    } finally {
      await close();
    }
    const limited = await pair({ dialect: 'named', faults: { oversizedEventBytes: 200_000 } }, { maxEventChars: 64 * 1024 });
    try {
      const got = replay(parseStream((await ask(limited.proxy.url, { ...QUESTION, stream: true })).text).events);
      assert.equal(got.end?.event, 'error');
      assert.equal(got.end?.data.code, 'upstream_error');
    } finally {
      await limited.close();
    }
  });

  it('a connection closed mid-stream ends with a stream_interrupted error event', async () => {
    for (const dialect of ['named', 'plain', 'cumulative'] as const) {
      // Paced, so the pieces before the cut are on the wire when the upstream destroys its socket.
      const { proxy, close } = await pair({ dialect, paceMs: 10, faults: { closeAfterChunks: 3 } });
      try {
        const raw = (await ask(proxy.url, { ...QUESTION, stream: true })).text;
        const got = replay(parseStream(raw).events);
        assert.ok(got.text.length > 0, `${dialect}: ${raw}`);
        assert.equal(got.end?.event, 'error', dialect);
        assert.equal(got.end?.data.code, 'stream_interrupted');
      } finally {
        await close();
      }
    }
  });

  it('a stalled stream ends with upstream_timeout after the idle timeout', async () => {
    const { proxy, upstream, close } = await pair({ dialect: 'named', faults: { stallAfterChunks: 2 } }, { idleTimeoutMs: 200 });
    try {
      const got = replay(parseStream((await ask(proxy.url, { ...QUESTION, stream: true })).text).events);
      assert.equal(got.end?.data.code, 'upstream_timeout');
      const aborted = await upstream.waitForAbort();
      assert.ok(aborted.abortedAt, 'the stalled upstream request was aborted');
    } finally {
      await close();
    }
  });

  it('slow upstream headers give 504', async () => {
    const { proxy, close } = await pair({ faults: { headerDelayMs: 1000 } }, { headersTimeoutMs: 150 });
    try {
      const got = await ask(proxy.url, { ...QUESTION, stream: true });
      assert.equal(got.status, 504);
      assert.equal(got.json().error.code, 'upstream_timeout');
    } finally {
      await close();
    }
  });

  it('fault statuses map to 502; a revoked key to upstream_auth; an unknown bot to 404', async () => {
    for (const status of [500, 502, 503]) {
      const { proxy, close } = await pair({ faults: { status } });
      try {
        const got = await ask(proxy.url, QUESTION);
        assert.equal(got.status, 502);
        assert.equal(got.json().error.code, 'upstream_error');
      } finally {
        await close();
      }
    }
    const upstream = await startAnswerApi({ port: 0, keys: [remember('sk-good-key-0123456789')], revokedKeys: [remember('sk-revoked-key-0123456789')] });
    const proxy = await startTestProxy({ apiKey: 'sk-revoked-key-0123456789', baseUrl: upstream.url });
    try {
      const got = await ask(proxy.url, QUESTION);
      assert.equal(got.status, 502);
      assert.equal(got.json().error.code, 'upstream_auth');
    } finally {
      await proxy.close();
    }
    const good = await startTestProxy({ apiKey: 'sk-good-key-0123456789', baseUrl: upstream.url });
    try {
      const got = await ask(good.url, { message: 'hi', bot_id: 'no-such-bot' });
      assert.equal(got.status, 404);
      assert.equal(got.json().error.code, 'unknown_bot');
    } finally {
      await good.close();
      await upstream.close();
    }
  });

  it('the upstream rate limit becomes 429 with Retry-After', async () => {
    const { proxy, close } = await pair({ rateLimitPerMinute: 1 });
    try {
      assert.equal((await ask(proxy.url, QUESTION)).status, 200);
      const got = await ask(proxy.url, QUESTION);
      assert.equal(got.status, 429);
      assert.ok(Number(got.headers.get('retry-after')) >= 1);
    } finally {
      await close();
    }
  });

  it('a client that disconnects mid-stream has its upstream request aborted before it ends', async () => {
    const { proxy, upstream, close } = await pair({ dialect: 'named', paceMs: 50, wordsPerChunk: 1 });
    try {
      const controller = new AbortController();
      const response = await fetch(`${proxy.url}/api/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...QUESTION, stream: true }), signal: controller.signal });
      const reader = response.body!.getReader();
      await reader.read();
      const aborted = upstream.waitForAbort();
      const at = Date.now();
      controller.abort();
      const record = await aborted;
      // Paced over seconds, the answer had most of its words to go: the abort cut it short. How soon is
      // the proxy-streams benchmark's to measure.
      assert.ok(record.abortedAt! >= at, 'the upstream saw the abort after the client left');
      assert.equal(record.finishedAt, undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(proxy.handler.activeStreams, 0);
      assert.equal(JSON.parse(proxy.logs.at(-1)!).outcome, 'aborted');
    } finally {
      await close();
    }
  });

  it('a client that disconnects before the upstream answered has the upstream request aborted', async () => {
    // The delay outlasts the test: only the abort can end the upstream request.
    const { proxy, upstream, close } = await pair({ faults: { headerDelayMs: 60_000 } });
    try {
      const controller = new AbortController();
      const pending = fetch(`${proxy.url}/api/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...QUESTION, stream: true }), signal: controller.signal }).catch(() => undefined);
      while (upstream.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const aborted = upstream.waitForAbort();
      const at = Date.now();
      controller.abort();
      const record = await aborted;
      assert.ok(record.abortedAt! >= at, 'the upstream saw the abort after the client left');
      assert.equal(record.finishedAt, undefined);
      await pending;
    } finally {
      await close();
    }
  });
});
