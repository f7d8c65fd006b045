import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createProxyHandler, PROTOCOL_HEADER, type ProxyConfig } from '../../packages/bot-answer-proxy/src/proxy/index.js';
import { ask, assertNoKeyLeak, newKey, observe, okUpstream, send, startTestProxy, type RawUpstream } from './helpers.js';

let upstream: RawUpstream;
const key = newKey();

before(async () => {
  upstream = await okUpstream();
});
after(async () => {
  await upstream.close();
  assertNoKeyLeak();
});

/** The handler called directly, as an edge runtime or a route handler calls it. */
function direct(config: Partial<ProxyConfig> = {}) {
  const logs: string[] = [];
  const handler = createProxyHandler({
    apiKey: key,
    baseUrl: upstream.url,
    log: (line) => {
      logs.push(line);
      observe(line);
    },
    ...config,
  });
  const call = async (body: unknown, headers: Record<string, string> = {}, host: { clientAddress?: string } = {}, path = '/api/answer') => {
    const response = await handler(
      new Request(`https://site.example${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
      host,
    );
    const text = await response.text();
    observe(text);
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
  };
  return { handler, logs, call };
}

const question = { message: 'hi', bot_id: 'demo' };

describe('client address: never one shared bucket', () => {
  it('a rate limit with no way to tell visitors apart refuses (500) and says why in the log, once', async () => {
    const before = upstream.requests.length;
    const { call, logs } = direct({ rateLimitPerMinute: 5 });
    for (let i = 0; i < 3; i++) {
      const got = await call(question);
      assert.equal(got.status, 500);
      assert.equal(got.json().error.code, 'internal');
    }
    assert.equal(upstream.requests.length, before, 'nothing was forwarded');
    const loud = logs.filter((line) => /no client address/.test(line));
    assert.equal(loud.length, 1);
    assert.equal(JSON.parse(loud[0]!).level, 'error');
    assert.match(loud[0]!, /clientAddress/);
  });

  it('with the rate limit off, no address is needed', async () => {
    const { call } = direct({ rateLimitPerMinute: 0 });
    assert.equal((await call(question)).status, 200);
  });

  it('the clientAddress option tells visitors apart: each address has its own bucket', async () => {
    const { call } = direct({ rateLimitPerMinute: 2, clientAddress: (request) => request.headers.get('x-visitor') ?? undefined });
    for (let i = 0; i < 2; i++) assert.equal((await call(question, { 'x-visitor': 'a' })).status, 200);
    const third = await call(question, { 'x-visitor': 'a' });
    assert.equal(third.status, 429);
    assert.ok(Number(third.headers.get('retry-after')) >= 1);
    assert.equal((await call(question, { 'x-visitor': 'b' })).status, 200, 'another visitor is not limited');
    assert.equal((await call(question)).status, 500, 'a request the option gives no address for is refused, not shared');
  });

  it('the host context address (the Node adapter: the socket) is the default', async () => {
    const { call } = direct({ rateLimitPerMinute: 1 });
    assert.equal((await call(question, {}, { clientAddress: '203.0.113.1' })).status, 200);
    assert.equal((await call(question, {}, { clientAddress: '203.0.113.1' })).status, 429);
    assert.equal((await call(question, {}, { clientAddress: '203.0.113.2' })).status, 200);
  });

  it('CF-Connecting-IP is read on Cloudflare Workers only (elsewhere a client could write it)', async () => {
    const { call } = direct({ rateLimitPerMinute: 1 });
    assert.equal((await call(question, { 'cf-connecting-ip': '198.51.100.7' })).status, 500, 'not trusted off Workers');
    const had = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    Object.defineProperty(globalThis, 'navigator', { value: { userAgent: 'Cloudflare-Workers' }, configurable: true });
    try {
      assert.equal((await call(question, { 'cf-connecting-ip': '198.51.100.7' })).status, 200);
      assert.equal((await call(question, { 'cf-connecting-ip': '198.51.100.7' })).status, 429);
      assert.equal((await call(question, { 'cf-connecting-ip': '198.51.100.8' })).status, 200);
    } finally {
      if (had) Object.defineProperty(globalThis, 'navigator', had);
      else delete (globalThis as { navigator?: unknown }).navigator;
    }
  });
});

describe('authorize and per-user limits', () => {
  const authorize: ProxyConfig['authorize'] = (request) => {
    const token = request.headers.get('authorization');
    if (token === null) return 'unauthenticated';
    if (token === 'Bearer banned') return false;
    if (token === 'Bearer broken') throw new Error('bad signature');
    return { user: token.slice('Bearer '.length) };
  };

  it('a refusal is 401 or 403 through the error table, and nothing is forwarded', async () => {
    const before = upstream.requests.length;
    const { call, logs } = direct({ authorize, rateLimitPerMinute: 0 });
    const none = await call(question);
    assert.equal(none.status, 401);
    assert.equal(none.json().error.code, 'unauthorized');
    const banned = await call(question, { authorization: 'Bearer banned' });
    assert.equal(banned.status, 403);
    assert.equal(banned.json().error.code, 'forbidden');
    const broken = await call(question, { authorization: 'Bearer broken' });
    assert.equal(broken.status, 401, 'a hook that throws refuses');
    assert.doesNotMatch(broken.text, /bad signature/, 'the hook error text stays on the server');
    assert.equal(upstream.requests.length, before);
    assert.deepEqual(logs.map((line) => JSON.parse(line).outcome), ['unauthorized', 'forbidden', 'unauthorized']);
    assert.equal((await call(question, { authorization: 'Bearer dana' })).status, 200);
  });

  it('limits per user when the hook names one: a user on two addresses shares a bucket, two users on one do not', async () => {
    const { call } = direct({ authorize, rateLimitPerMinute: 1 });
    assert.equal((await call(question, { authorization: 'Bearer dana' }, { clientAddress: '203.0.113.1' })).status, 200);
    assert.equal((await call(question, { authorization: 'Bearer dana' }, { clientAddress: '203.0.113.2' })).status, 429);
    assert.equal((await call(question, { authorization: 'Bearer lee' }, { clientAddress: '203.0.113.1' })).status, 200);
  });

  it('a rateLimitKey function chooses the key', async () => {
    const { call } = direct({ rateLimitPerMinute: 1, rateLimitKey: (request) => request.headers.get('x-team') ?? undefined });
    assert.equal((await call(question, { 'x-team': 'red' })).status, 200);
    assert.equal((await call(question, { 'x-team': 'red' })).status, 429);
    assert.equal((await call(question, { 'x-team': 'blue' })).status, 200);
  });
});

describe('CORS with credentials', () => {
  const site = 'https://docs.example.com';
  const preflight = (handler: (r: Request) => Promise<Response>, origin: string) =>
    handler(new Request('https://proxy.example/api/answer', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } }));

  it('off by default: no Allow-Credentials, and Authorization is not an allowed header', async () => {
    const { handler } = direct({ allowedOrigins: [site], rateLimitPerMinute: 0 });
    const response = await preflight(handler, site);
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-credentials'), null);
    assert.doesNotMatch(response.headers.get('access-control-allow-headers')!, /authorization/i);
  });

  it('when configured: credentials and Authorization allowed, for the exact origin only', async () => {
    const { handler, call } = direct({ allowedOrigins: [site], allowCredentials: true, rateLimitPerMinute: 0 });
    const response = await preflight(handler, site);
    assert.equal(response.headers.get('access-control-allow-origin'), site);
    assert.equal(response.headers.get('access-control-allow-credentials'), 'true');
    assert.match(response.headers.get('access-control-allow-headers')!, /Authorization/);
    const got = await call(question, { origin: site });
    assert.equal(got.headers.get('access-control-allow-origin'), site);
    assert.equal(got.headers.get('access-control-allow-credentials'), 'true');
    const other = await preflight(handler, 'https://evil.example');
    assert.equal(other.status, 403);
    assert.equal(other.headers.get('access-control-allow-credentials'), null);
  });

  it('a wildcard origin is refused at start', () => {
    assert.throws(() => createProxyHandler({ apiKey: key, baseUrl: upstream.url, allowedOrigins: ['*'], allowCredentials: true }), /"\*" is not allowed/);
    assert.throws(() => createProxyHandler({ apiKey: key, baseUrl: upstream.url, allowedOrigins: ['*'] }), /"\*" is not allowed/);
  });
});

describe('protocol version', () => {
  it(`every answer response says ${PROTOCOL_HEADER}: 1 (JSON, stream, error), exposed to allowed origins`, async () => {
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, allowedOrigins: ['https://docs.example.com'] });
    try {
      const json = await ask(proxy.url, question, { origin: 'https://docs.example.com' });
      assert.equal(json.headers.get(PROTOCOL_HEADER), '1');
      assert.match(json.headers.get('access-control-expose-headers')!, new RegExp(PROTOCOL_HEADER));
      assert.match(json.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
      const stream = await ask(proxy.url, { ...question, stream: true });
      assert.equal(stream.headers.get(PROTOCOL_HEADER), '1');
      const error = await ask(proxy.url, { message: '', bot_id: 'demo' });
      assert.equal(error.status, 400);
      assert.equal(error.headers.get(PROTOCOL_HEADER), '1');
    } finally {
      await proxy.close();
    }
  });
});

describe('feedback: POST /api/answer/feedback', () => {
  const feedback = { request_id: '3f8b0e2c-1111-4222-8333-944445555666', bot_id: 'demo', rating: 'down', comment: 'Wrong about refunds' };

  it('answers 204 and writes one feedback log line, the comment redacted', async () => {
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url });
    const logs = proxy.logs;
    try {
      const before = upstream.requests.length;
      const got = await send(`${proxy.url}/api/answer/feedback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...feedback, comment: `my key is ${key}, answer was wrong` }) });
      assert.equal(got.status, 204);
      assert.equal(got.text, '');
      assert.equal(upstream.requests.length, before, 'feedback is not forwarded');
      const lines = logs.map((line) => JSON.parse(line)).filter((line) => line.msg === 'feedback');
      assert.equal(lines.length, 1);
      assert.equal(lines[0].id, feedback.request_id);
      assert.equal(lines[0].rating, 'down');
      assert.equal(lines[0].bot, 'demo');
      assert.match(lines[0].comment, /answer was wrong/);
      assert.ok(!lines[0].comment.includes(key), 'the key is redacted from the comment');
    } finally {
      await proxy.close();
    }
  });

  it('bad input is a 400 with the usual JSON error; a large body 413; another origin 403', async () => {
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, allowedOrigins: ['https://docs.example.com'] });
    try {
      const post = (body: string, headers: Record<string, string> = {}) => send(`${proxy.url}/api/answer/feedback`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      const bad = [
        '{"bot_id":"demo","rating":"up"}',
        '{"request_id":"x","rating":"up"}',
        '{"request_id":"x","bot_id":"demo","rating":"meh"}',
        '{"request_id":"x","bot_id":"demo","rating":"up","comment":7}',
        JSON.stringify({ ...feedback, comment: 'x'.repeat(1001) }),
        '[1,2]',
        'not json',
      ];
      for (const body of bad) {
        const got = await post(body);
        assert.equal(got.status, 400, body);
        assert.equal(got.json().error.code, 'bad_request');
      }
      assert.equal((await post(JSON.stringify({ ...feedback, comment: 'é'.repeat(1000) }))).status, 204, '1000 characters pass');
      assert.equal((await post(JSON.stringify(feedback), { 'content-type': 'text/plain' })).status, 415);
      assert.equal((await post(JSON.stringify({ ...feedback, pad: 'x'.repeat(5000) }))).status, 413);
      const forbidden = await post(JSON.stringify(feedback), { origin: 'https://evil.example' });
      assert.equal(forbidden.status, 403);
      const allowed = await post(JSON.stringify(feedback), { origin: 'https://docs.example.com' });
      assert.equal(allowed.status, 204);
      assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://docs.example.com');
      const pre = await send(`${proxy.url}/api/answer/feedback`, { method: 'OPTIONS', headers: { origin: 'https://docs.example.com', 'access-control-request-method': 'POST' } });
      assert.equal(pre.status, 204);
      assert.equal((await send(`${proxy.url}/api/answer/feedback`)).status, 405);
    } finally {
      await proxy.close();
    }
  });

  it('is rate-limited per visitor, in its own bucket', async () => {
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, rateLimitPerMinute: 2 });
    try {
      const post = () => send(`${proxy.url}/api/answer/feedback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(feedback) });
      assert.equal((await post()).status, 204);
      assert.equal((await post()).status, 204);
      const third = await post();
      assert.equal(third.status, 429);
      assert.equal(third.json().error.code, 'rate_limited');
      assert.equal((await ask(proxy.url, question)).status, 200, 'answers keep their own budget');
    } finally {
      await proxy.close();
    }
  });
});
