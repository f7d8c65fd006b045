import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROTOCOL_HEADER } from '../../packages/bot-answer/src/protocol/stream-events.js';
import { startAnswerApi, type RunningAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { createRedisStores } from '../../packages/bot-answer-proxy/src/proxy/stores/redis.js';
import { FIXTURE_KB, KEY } from '../upstream/helpers.js';
import { startTestRedis } from './redis-server.js';
import { ask, assertNoKeyLeak, newKey, rawUpstream, remember, send, startTestProxy, type RawUpstream, type TestProxy } from './helpers.js';

const ALLOWED = 'https://docs.example.com';
let api: RunningAnswerApi;
let index: string;
const searches = (): number => api.requests.filter((r) => r.path === '/v1/search').length;

before(async () => {
  remember(KEY);
  index = await mkdtemp(join(tmpdir(), 'proxy-search-index-'));
  api = await startAnswerApi({ kb: FIXTURE_KB, keys: [KEY], kbIndex: index, watch: false, paceMs: 0 });
});
after(async () => {
  await api.close();
  await rm(index, { recursive: true, force: true });
  assertNoKeyLeak();
});

describe('GET /api/search through the local Answer API', () => {
  let proxy: TestProxy;
  before(async () => (proxy = await startTestProxy({ apiKey: KEY, baseUrl: api.url, allowedOrigins: [ALLOWED], allowedBotIds: ['demo'] })));
  after(() => proxy.close());

  it('forwards to /v1/search with the key and gives the results, cached briefly', async () => {
    const asked = searches();
    const first = await send(`${proxy.url}/api/search?bot_id=demo&q=stag`);
    assert.equal(first.status, 200);
    const { results } = first.json() as { results: Array<{ title: string; url: string; snippet: string; highlights: Array<[number, number]> }> };
    assert.equal(results[0]!.title, 'Deploying the billing service › Deploy to staging');
    assert.equal(results[0]!.url, 'https://git.example.com/platform/billing/blob/main/docs/deploy.md');
    for (const [start, end] of results[0]!.highlights) assert.match(results[0]!.snippet.slice(start, end), /^stag/i);
    assert.equal(first.headers.get('cache-control'), 'private, max-age=60');
    assert.equal(first.headers.get('x-cache'), 'MISS');
    assert.match(first.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
    assert.equal(first.headers.get(PROTOCOL_HEADER), '1');
    assert.equal(searches(), asked + 1);
    const upstreamRequest = api.requests.at(-1)!;
    assert.equal(upstreamRequest.headers.authorization, `Bearer ${KEY}`);
    // The same search again (case and spacing aside) comes from the cache.
    const again = await send(`${proxy.url}/api/search?bot_id=demo&q=${encodeURIComponent('  STAG')}`);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('x-cache'), 'HIT');
    assert.deepEqual(again.json(), first.json());
    assert.equal(searches(), asked + 1, 'the upstream was not asked again');
    // A word no longer being typed is another search.
    assert.equal((await send(`${proxy.url}/api/search?bot_id=demo&q=stag%20`)).headers.get('x-cache'), 'MISS');
  });

  it('passes limit on, at most 20', async () => {
    const got = await send(`${proxy.url}/api/search?bot_id=demo&q=deploy&limit=1`);
    assert.equal(got.status, 200);
    assert.equal(got.json().results.length, 1);
    assert.match(api.requests.at(-1)!.path, /search/);
  });

  for (const [name, query] of [
    ['an empty q', 'bot_id=demo&q='],
    ['no q', 'bot_id=demo'],
    ['a q of 201 characters', `bot_id=demo&q=${'x'.repeat(201)}`],
    ['no bot_id', 'q=deploy'],
    ['limit 0', 'bot_id=demo&q=deploy&limit=0'],
    ['limit 21', 'bot_id=demo&q=deploy&limit=21'],
  ]) {
    it(`400 bad_request for ${name}, before the upstream`, async () => {
      const asked = searches();
      const got = await send(`${proxy.url}/api/search?${query}`);
      assert.equal(got.status, 400);
      assert.equal(got.json().error.code, 'bad_request');
      assert.equal(searches(), asked);
    });
  }

  it('403 for a bot not allowed, and for an origin not allowed', async () => {
    const bot = await send(`${proxy.url}/api/search?bot_id=other&q=deploy`);
    assert.equal(bot.status, 403);
    assert.equal(bot.json().error.code, 'forbidden_bot');
    const origin = await send(`${proxy.url}/api/search?bot_id=demo&q=deploy`, { headers: { origin: 'https://evil.example' } });
    assert.equal(origin.status, 403);
    assert.equal(origin.json().error.code, 'forbidden_origin');
    assert.equal(origin.headers.get('access-control-allow-origin'), null);
  });

  it('answers an allowed origin with CORS headers, and its preflight', async () => {
    const pre = await send(`${proxy.url}/api/search?bot_id=demo&q=deploy`, { method: 'OPTIONS', headers: { origin: ALLOWED, 'access-control-request-method': 'GET' } });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), ALLOWED);
    assert.equal(pre.headers.get('access-control-allow-methods'), 'GET, OPTIONS');
    const got = await send(`${proxy.url}/api/search?bot_id=demo&q=deploy`, { headers: { origin: ALLOWED } });
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('access-control-allow-origin'), ALLOWED);
    assert.match(got.headers.get('access-control-expose-headers')!, /X-Cache/);
  });

  it('405 for another method, naming the allowed ones', async () => {
    const got = await send(`${proxy.url}/api/search?bot_id=demo&q=deploy`, { method: 'POST' });
    assert.equal(got.status, 405);
    assert.equal(got.headers.get('allow'), 'GET, OPTIONS');
  });

  it('404 unknown_bot for a bot the upstream lacks: its search exists', async () => {
    const open = await startTestProxy({ apiKey: KEY, baseUrl: api.url });
    try {
      const got = await send(`${open.url}/api/search?bot_id=nobody&q=deploy`);
      assert.equal(got.status, 404);
      assert.equal(got.json().error.code, 'unknown_bot');
      assert.equal((await send(`${open.url}/api/search?bot_id=demo&q=deploy`)).status, 200);
    } finally {
      await open.close();
    }
  });
});

describe('the search rate limit', () => {
  it('429 with Retry-After past its own limit, apart from the answers limit', async () => {
    const proxy = await startTestProxy({ apiKey: KEY, baseUrl: api.url, searchRateLimitPerMinute: 2, rateLimitPerMinute: 1, searchCacheTtlSeconds: 0 });
    try {
      assert.equal((await ask(proxy.url, { message: 'How do I deploy?', bot_id: 'demo' })).status, 200);
      assert.equal((await ask(proxy.url, { message: 'How do I deploy?', bot_id: 'demo' })).status, 429, 'the answers limit is spent');
      for (let i = 0; i < 2; i++) {
        const got = await send(`${proxy.url}/api/search?bot_id=demo&q=deploy`);
        assert.equal(got.status, 200, 'searches have a budget of their own');
        assert.equal(got.headers.get('cache-control'), 'no-store');
        assert.equal(got.headers.get('x-cache'), null, 'no cache, no X-Cache');
      }
      const limited = await send(`${proxy.url}/api/search?bot_id=demo&q=deploy`);
      assert.equal(limited.status, 429);
      assert.equal(limited.json().error.code, 'rate_limited');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    } finally {
      await proxy.close();
    }
  });
});

describe('two instances sharing one Redis', () => {
  it('count one search limit across both, apart from answers, and share the search cache', async () => {
    const redis = await startTestRedis();
    const prefix = `s${Math.random().toString(36).slice(2)}`;
    const stores = [0, 1].map(() => createRedisStores({ url: redis.url, keyPrefix: prefix, rateLimitPerMinute: 1, searchRateLimitPerMinute: 3, log: () => {} }));
    const proxies: TestProxy[] = [];
    try {
      for (const s of stores) {
        assert.equal(await s.ready(), true);
        proxies.push(await startTestProxy({ apiKey: KEY, baseUrl: api.url, searchRateLimitPerMinute: 3, searchRateLimiter: s.searchRateLimiter, searchCacheStore: s.searchCache }));
      }
      const [a, b] = proxies as [TestProxy, TestProxy];
      const first = await send(`${a.url}/api/search?bot_id=demo&q=stag`);
      assert.equal(first.headers.get('x-cache'), 'MISS');
      const other = await send(`${b.url}/api/search?bot_id=demo&q=stag`);
      assert.equal(other.headers.get('x-cache'), 'HIT', 'the other instance finds it in Redis');
      assert.deepEqual(other.json(), first.json());
      assert.equal((await send(`${a.url}/api/search?bot_id=demo&q=deploy`)).status, 200);
      const limited = await send(`${b.url}/api/search?bot_id=demo&q=deploy`);
      assert.equal(limited.status, 429, 'three searches in all, whichever instance');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    } finally {
      for (const p of proxies) await p.close();
      for (const s of stores) await s.close();
      await redis.close();
    }
  });
});

describe('an upstream without search, or a hostile one', () => {
  let upstream: RawUpstream;
  let reply: (url: string) => { status: number; body: string };
  let proxy: TestProxy;
  const key = newKey();
  before(async () => {
    upstream = await rawUpstream((req, res) => {
      const { status, body } = reply(req.url!);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
    proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url });
  });
  after(async () => {
    await proxy.close();
    await upstream.close();
  });

  for (const [name, status, body] of [
    ['404 for the route', 404, '{"detail":"Not Found"}'],
    ['an HTML 404 page', 404, '<html>Not found</html>'],
    ['405', 405, '{"detail":"Method Not Allowed"}'],
    ['501', 501, ''],
  ] as const) {
    it(`404 search_unavailable for ${name}, and the verdict is kept`, async () => {
      const fresh = await startTestProxy({ apiKey: key, baseUrl: upstream.url });
      try {
        reply = () => ({ status, body });
        const before = upstream.requests.length;
        const got = await send(`${fresh.url}/api/search?bot_id=demo&q=deploy`);
        assert.equal(got.status, 404);
        assert.equal(got.json().error.code, 'search_unavailable');
        assert.match(got.headers.get('cache-control')!, /max-age=300/);
        const again = await send(`${fresh.url}/api/search?bot_id=demo&q=other`);
        assert.equal(again.json().error.code, 'search_unavailable');
        assert.equal(upstream.requests.length, before + 1, 'asked once');
      } finally {
        await fresh.close();
      }
    });
  }

  it('checks the results again: junk is dropped, ranges kept in the snippet, at most limit', async () => {
    const good = { title: 'Deploy › Staging', url: 'https://docs.example.com/deploy#staging', snippet: 'Run the deploy script.', highlights: [[8, 14]] };
    reply = () => ({
      status: 200,
      body: JSON.stringify({
        results: [
          { title: '<img src=x onerror=alert(1)>', url: 'javascript:alert(1)', snippet: 'x', highlights: [] },
          { title: 42, url: 'https://docs.example.com/a', snippet: 'x' },
          { title: '   ', url: 'https://docs.example.com/b' },
          { title: 'No URL', snippet: 'x' },
          { title: 'Relative', url: '/deploy' },
          { ...good, highlights: [[8, 14], [10, 12], [-1, 2], [3, 3], [15, 99], [1.5, 4], 'x', [16, 22]] },
          { title: '<b>Bold</b> title', url: 'http://docs.example.com/c', snippet: { html: '<b>' }, highlights: [[0, 1]] },
          good,
          good,
        ],
      }),
    });
    const got = await send(`${proxy.url}/api/search?bot_id=demo&q=deploy&limit=3`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.json().results, [
      { ...good, highlights: [[8, 14], [16, 22]] },
      { title: '<b>Bold</b> title', url: 'http://docs.example.com/c', snippet: '', highlights: [] },
      good,
    ]);
    assert.ok(upstream.requests.at(-1)!.url.startsWith('/v1/search?'));
    assert.equal(upstream.requests.at(-1)!.method, 'GET');
    assert.equal(new URL(upstream.requests.at(-1)!.url, 'http://x').searchParams.get('limit'), '3');
  });

  it('502 upstream_error for a body that is not results', async () => {
    for (const body of ['not json', '[]', '{"results": "none"}']) {
      reply = () => ({ status: 200, body });
      const got = await send(`${proxy.url}/api/search?bot_id=demo&q=${encodeURIComponent(body)}`);
      assert.equal(got.status, 502, body);
      assert.equal(got.json().error.code, 'upstream_error');
    }
  });
});
