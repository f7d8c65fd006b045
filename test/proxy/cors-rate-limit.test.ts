import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ask, assertNoKeyLeak, newKey, okUpstream, send, startTestProxy, type RawUpstream, type TestProxy } from './helpers.js';

let upstream: RawUpstream;
const key = newKey();

before(async () => {
  upstream = await okUpstream();
});
after(async () => {
  await upstream.close();
  assertNoKeyLeak();
});

describe('CORS', () => {
  let proxy: TestProxy;
  const allowed = 'https://docs.example.com';
  before(async () => (proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, allowedOrigins: [allowed, 'http://localhost:3000'] })));
  after(() => proxy.close());

  it('answers a preflight from an allowed origin with exactly that origin', async () => {
    const got = await send(`${proxy.url}/api/answer`, { method: 'OPTIONS', headers: { origin: allowed, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    assert.equal(got.status, 204);
    assert.equal(got.headers.get('access-control-allow-origin'), allowed);
    assert.match(got.headers.get('access-control-allow-methods')!, /POST/);
    assert.match(got.headers.get('access-control-allow-headers')!, /Content-Type/i);
    assert.match(got.headers.get('vary')!, /Origin/);
  });

  it('refuses a preflight and a request from any other origin with 403 forbidden_origin', async () => {
    const before = upstream.requests.length;
    for (const origin of ['https://evil.example', 'https://docs.example.com.evil.example', 'http://docs.example.com', 'https://docs.example.com:8443', 'null', 'https://DOCS.example.com/']) {
      const pre = await send(`${proxy.url}/api/answer`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      assert.equal(pre.status, 403, origin);
      assert.equal(pre.headers.get('access-control-allow-origin'), null);
      assert.equal(pre.json().error.code, 'forbidden_origin');
      const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' }, { origin });
      assert.equal(got.status, 403, origin);
      assert.equal(got.json().error.code, 'forbidden_origin');
      assert.equal(got.headers.get('access-control-allow-origin'), null);
      assert.match(got.headers.get('vary')!, /Origin/);
    }
    assert.equal(upstream.requests.length, before);
  });

  it('allows an allowed origin, with Vary: Origin and the origin echoed', async () => {
    const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' }, { origin: 'http://localhost:3000' });
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('access-control-allow-origin'), 'http://localhost:3000');
    assert.match(got.headers.get('vary')!, /Origin/);
    assert.match(got.headers.get('access-control-expose-headers')!, /Retry-After/);
  });

  it('errors for an allowed origin carry CORS headers so the page can read them', async () => {
    const got = await ask(proxy.url, { message: '', bot_id: 'demo' }, { origin: allowed });
    assert.equal(got.status, 400);
    assert.equal(got.headers.get('access-control-allow-origin'), allowed);
  });

  it('always allows same-origin requests, without CORS headers', async () => {
    const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' }, { origin: proxy.url });
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('access-control-allow-origin'), null);
    const noOrigin = await ask(proxy.url, { message: 'hi', bot_id: 'demo' });
    assert.equal(noOrigin.status, 200);
  });

  it('with no ALLOWED_ORIGINS, refuses every cross-origin caller', async () => {
    const strict = await startTestProxy({ apiKey: key, baseUrl: upstream.url });
    try {
      assert.equal((await ask(strict.url, { message: 'hi', bot_id: 'demo' }, { origin: allowed })).status, 403);
      assert.equal((await ask(strict.url, { message: 'hi', bot_id: 'demo' }, { origin: strict.url })).status, 200);
    } finally {
      await strict.close();
    }
  });
});

describe('rate limit', () => {
  it('allows RATE_LIMIT_PER_MINUTE answer requests per client, then 429 with Retry-After', async () => {
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, rateLimitPerMinute: 3 });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await ask(proxy.url, { message: 'hi', bot_id: 'demo' })).status, 200);
      const before = upstream.requests.length;
      const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' });
      assert.equal(got.status, 429);
      assert.equal(got.json().error.code, 'rate_limited');
      const retry = Number(got.headers.get('retry-after'));
      assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After ${retry}`);
      assert.equal(got.json().error.retry_after, retry);
      assert.equal(upstream.requests.length, before, 'a limited request never reaches the upstream');
      // The health check and preflights are not answer requests.
      assert.equal((await send(`${proxy.url}/healthz`)).status, 200);
    } finally {
      await proxy.close();
    }
  });

  it('ignores X-Forwarded-For unless trustProxy is set', async () => {
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, rateLimitPerMinute: 1 });
    try {
      assert.equal((await ask(proxy.url, { message: 'hi', bot_id: 'demo' }, { 'x-forwarded-for': '203.0.113.1' })).status, 200);
      assert.equal((await ask(proxy.url, { message: 'hi', bot_id: 'demo' }, { 'x-forwarded-for': '203.0.113.2' })).status, 429);
    } finally {
      await proxy.close();
    }
  });

  it('with trustProxy, counts the address the trusted proxy appended (not one the client wrote)', async () => {
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, rateLimitPerMinute: 1, trustProxy: 1 });
    try {
      assert.equal((await ask(proxy.url, { message: 'hi', bot_id: 'demo' }, { 'x-forwarded-for': '203.0.113.1' })).status, 200);
      assert.equal((await ask(proxy.url, { message: 'hi', bot_id: 'demo' }, { 'x-forwarded-for': '203.0.113.2' })).status, 200);
      assert.equal((await ask(proxy.url, { message: 'hi', bot_id: 'demo' }, { 'x-forwarded-for': '203.0.113.2' })).status, 429);
      // A client cannot dodge the limit by prepending addresses of its own.
      assert.equal((await ask(proxy.url, { message: 'hi', bot_id: 'demo' }, { 'x-forwarded-for': '198.51.100.9, 203.0.113.2' })).status, 429);
    } finally {
      await proxy.close();
    }
  });
});
