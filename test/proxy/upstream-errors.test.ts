import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ask, assertNoKeyLeak, newKey, rawUpstream, sleep, startTestProxy, type RawUpstream, type TestProxy } from './helpers.js';

const key = newKey();
/** What the fake upstream answers next: status, headers, body. */
let next: { status: number; headers?: Record<string, string>; body?: string; delayMs?: number; destroy?: boolean } = { status: 200 };
let upstream: RawUpstream;
let proxy: TestProxy;

// Upstream error bodies that must never reach a client: internals, a stack trace, the key itself.
const NASTY = JSON.stringify({ detail: [{ loc: ['body'], msg: `Traceback (most recent call last): key=${key} at /srv/app/main.py line 42`, type: 'value_error' }] });

before(async () => {
  upstream = await rawUpstream(async (_req, res) => {
    const plan = next;
    if (plan.delayMs) await sleep(plan.delayMs);
    if (plan.destroy) return void res.socket?.destroy();
    res.writeHead(plan.status, { 'content-type': 'application/json', ...plan.headers });
    res.end(plan.body ?? NASTY);
  });
  proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, headersTimeoutMs: 1500 });
});
after(async () => {
  await proxy.close();
  await upstream.close();
  assertNoKeyLeak();
});

const CASES: [upstreamStatus: number, status: number, code: string][] = [
  [401, 502, 'upstream_auth'],
  [403, 502, 'upstream_auth'],
  [404, 404, 'unknown_bot'],
  [422, 400, 'bad_request'],
  [402, 502, 'upstream_error'],
  [500, 502, 'upstream_error'],
  [502, 502, 'upstream_error'],
  [503, 502, 'upstream_error'],
  [418, 502, 'upstream_error'],
];

describe('upstream errors are mapped, never passed raw', () => {
  for (const [upstreamStatus, status, code] of CASES) {
    for (const stream of [false, true]) {
      it(`upstream ${upstreamStatus} -> ${status} ${code} (stream: ${stream})`, async () => {
        next = { status: upstreamStatus };
        const before = upstream.requests.length;
        const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo', stream });
        assert.equal(got.status, status);
        assert.match(got.headers.get('content-type')!, /^application\/json/);
        assert.equal(got.json().error.code, code);
        assert.ok(!got.text.includes('Traceback') && !got.text.includes('/srv/app') && !got.text.includes('value_error'), got.text);
        assert.equal(upstream.requests.length, before + 1, 'exactly one upstream request: a POST is never retried');
      });
    }
  }

  it('logs an upstream 401 as a key problem on the server side (without the key)', async () => {
    next = { status: 401 };
    const before = proxy.logs.length;
    await ask(proxy.url, { message: 'hi', bot_id: 'demo' });
    const lines = proxy.logs.slice(before).map((l) => JSON.parse(l));
    assert.ok(lines.some((l) => l.level === 'error' && /API key/.test(l.msg)), JSON.stringify(lines));
    assert.equal(lines.at(-1).outcome, 'upstream_auth');
  });

  it('upstream 429 -> 429 rate_limited with the upstream Retry-After (or 60)', async () => {
    next = { status: 429, headers: { 'retry-after': '17' } };
    let got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' });
    assert.equal(got.status, 429);
    assert.equal(got.headers.get('retry-after'), '17');
    assert.equal(got.json().error.code, 'rate_limited');
    next = { status: 429 };
    got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' });
    assert.equal(got.headers.get('retry-after'), '60');
    next = { status: 429, headers: { 'retry-after': 'soon, maybe' } };
    got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' });
    assert.equal(got.headers.get('retry-after'), '60');
  });

  it('does not follow redirects: 3xx -> 502, and the Location is never requested', async () => {
    for (const status of [301, 302, 307, 308]) {
      next = { status, headers: { location: `${upstream.url}/elsewhere` } };
      const before = upstream.requests.length;
      const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' });
      assert.equal(got.status, 502);
      assert.equal(got.json().error.code, 'upstream_error');
      assert.equal(upstream.requests.length, before + 1);
      assert.ok(!got.text.includes('elsewhere'));
    }
  });

  it('a 200 with an unreadable body -> 502', async () => {
    for (const body of ['<html>oops</html>', '{"answer":', '{"nothing":"useful"}', '']) {
      next = { status: 200, body };
      const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' });
      assert.equal(got.status, 502, body);
      assert.equal(got.json().error.code, 'upstream_error');
    }
  });

  it('a 200 carrying an error object -> 502 without its text', async () => {
    next = { status: 200, body: JSON.stringify({ error: { message: `internal: ${key}` } }) };
    const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' });
    assert.equal(got.status, 502);
    assert.ok(!got.text.includes('internal'));
  });

  it('a connection dropped before headers -> 502, not retried', async () => {
    next = { status: 200, destroy: true };
    const before = upstream.requests.length;
    const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' });
    assert.equal(got.status, 502);
    assert.equal(got.json().error.code, 'upstream_error');
    assert.equal(upstream.requests.length, before + 1);
  });

  it('an unreachable upstream -> 502', async () => {
    const closed = await rawUpstream(() => {});
    const url = closed.url;
    await closed.close();
    const lonely = await startTestProxy({ apiKey: key, baseUrl: url });
    try {
      const got = await ask(lonely.url, { message: 'hi', bot_id: 'demo' });
      assert.equal(got.status, 502);
      assert.equal(got.json().error.code, 'upstream_error');
    } finally {
      await lonely.close();
    }
  });

  it('upstream headers slower than the headers timeout -> 504 upstream_timeout', async () => {
    next = { status: 200, delayMs: 3000, body: '{"answer":"late","answer_found":true}' };
    const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo', stream: true });
    assert.equal(got.status, 504);
    assert.equal(got.json().error.code, 'upstream_timeout');
    assert.equal(JSON.parse(proxy.logs.at(-1)!).outcome, 'timeout');
  });

  it('sends only Authorization, Content-Type and Accept upstream; no client header passes', async () => {
    next = { status: 200, body: '{"answer":"ok","answer_found":true,"sources":[]}' };
    const before = upstream.requests.length;
    const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' }, { authorization: 'Bearer client-token', cookie: 'session=abc', 'x-api-key': 'client', 'x-forwarded-for': '1.2.3.4', 'user-agent': 'client-agent' });
    assert.equal(got.status, 200);
    const seen = upstream.requests[before]!;
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, '/v1/answer');
    assert.equal(seen.headers.authorization, `Bearer ${key}`);
    assert.equal(seen.headers.cookie, undefined);
    assert.equal(seen.headers['x-api-key'], undefined);
    assert.equal(seen.headers['x-forwarded-for'], undefined);
    assert.notEqual(seen.headers['user-agent'], 'client-agent');
    assert.match(seen.headers['content-type']!, /application\/json/);
  });

  it('uses the configured base path: `${baseUrl}/v1/answer`', async () => {
    const prefixed = await startTestProxy({ apiKey: key, baseUrl: `${upstream.url}/tenant-a/` });
    try {
      next = { status: 200, body: '{"answer":"ok","answer_found":true}' };
      const before = upstream.requests.length;
      await ask(prefixed.url, { message: 'hi', bot_id: 'demo' });
      assert.equal(upstream.requests[before]!.url, '/tenant-a/v1/answer');
    } finally {
      await prefixed.close();
    }
  });
});
