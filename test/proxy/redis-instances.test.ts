import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StoreFailureMode } from '../../packages/bot-answer-proxy/src/proxy/stores/types.js';
import { createRedisStores, type RedisStores } from '../../packages/bot-answer-proxy/src/proxy/stores/redis.js';
import { ANSWER, cacheUpstream } from './cache-upstream.js';
import { ask, assertNoKeyLeak, newKey, parseStream, replay, sleep, startTestProxy, type RawUpstream, type TestProxy } from './helpers.js';
import { startTestRedis, type TestRedis } from './redis-server.js';

let redis: TestRedis;
let upstream: RawUpstream;
const key = newKey();

before(async () => {
  redis = await startTestRedis();
  upstream = await cacheUpstream();
});
after(async () => {
  await upstream.close();
  await redis.close();
  assertNoKeyLeak();
});

/** Two proxy instances of one deployment: their own handler, server and Redis client, one Redis. */
async function twoInstances(options: { rateLimitPerMinute?: number; failure?: StoreFailureMode; cacheTtlSeconds?: number } = {}) {
  const prefix = `t${Math.random().toString(36).slice(2)}`;
  const outageLogs: string[][] = [[], []];
  const stores: RedisStores[] = [];
  const proxies: TestProxy[] = [];
  for (const i of [0, 1]) {
    const s = createRedisStores({ url: redis.url, keyPrefix: prefix, rateLimitPerMinute: options.rateLimitPerMinute ?? 0, failure: options.failure, log: (line) => outageLogs[i]!.push(line) });
    assert.equal(await s.ready(), true);
    stores.push(s);
    proxies.push(
      await startTestProxy({
        apiKey: key,
        baseUrl: upstream.url,
        rateLimitPerMinute: options.rateLimitPerMinute ?? 0,
        rateLimiter: s.rateLimiter,
        cacheTtlSeconds: options.cacheTtlSeconds ?? 60,
        cacheStore: s.cache,
        storeFailure: options.failure,
      }),
    );
  }
  return {
    proxies: proxies as [TestProxy, TestProxy],
    stores,
    outageLogs,
    async close() {
      for (const p of proxies) await p.close();
      for (const s of stores) await s.close();
    },
  };
}

describe('two proxy instances sharing one Redis', () => {
  it('count one rate limit across both: RATE_LIMIT_PER_MINUTE=6 lets 6 of 12 through', async () => {
    const pair = await twoInstances({ rateLimitPerMinute: 6 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await ask(pair.proxies[i % 2]!.url, { message: `limit ${i}`, bot_id: 'demo' })).status);
      assert.equal(statuses.filter((s) => s === 200).length, 6);
      assert.equal(statuses.filter((s) => s === 429).length, 6);
      // Both instances refused some: the count is shared, not per instance.
      assert.ok(statuses.slice(6).every((s) => s === 429));
    } finally {
      await pair.close();
    }
  });

  it('serve a cache hit on one instance for an answer the other asked (the upstream sees one request)', async () => {
    const pair = await twoInstances();
    try {
      const before = upstream.requests.length;
      const first = await ask(pair.proxies[0].url, { message: 'Shared cache?', bot_id: 'demo', stream: true });
      assert.equal(first.headers.get('x-cache'), 'MISS');
      await sleep(50);
      const second = await ask(pair.proxies[1].url, { message: 'shared  CACHE?', bot_id: 'demo', stream: true });
      assert.equal(second.headers.get('x-cache'), 'HIT');
      assert.deepEqual(replay(parseStream(second.text).events), replay(parseStream(first.text).events));
      const json = await ask(pair.proxies[1].url, { message: 'Shared cache?', bot_id: 'demo' });
      assert.equal(json.json().answer, ANSWER);
      assert.equal(upstream.requests.length - before, 1);
    } finally {
      await pair.close();
    }
  });

  it('send a question asked on both at once upstream once (a Redis lock, the other waits for the answer)', async () => {
    const pair = await twoInstances();
    try {
      const before = upstream.requests.length;
      const got = await Promise.all([
        ask(pair.proxies[0].url, { message: 'Both at once?', bot_id: 'demo', stream: true }),
        ask(pair.proxies[1].url, { message: 'both at once?', bot_id: 'demo', stream: true }),
        ask(pair.proxies[1].url, { message: 'BOTH AT ONCE?', bot_id: 'demo' }),
      ]);
      assert.equal(upstream.requests.length - before, 1);
      assert.deepEqual(got.map((g) => g.headers.get('x-cache')).sort(), ['HIT', 'HIT', 'MISS']);
      for (const g of got.slice(0, 2)) assert.equal(replay(parseStream(g.text).events).text, ANSWER);
      assert.equal(got[2]!.json().answer, ANSWER);
    } finally {
      await pair.close();
    }
  });

  it('keep answering while Redis is stopped (fallback), log the outage once, and use Redis again after it restarts', async () => {
    const pair = await twoInstances({ rateLimitPerMinute: 100 });
    try {
      await ask(pair.proxies[0].url, { message: 'before the outage', bot_id: 'demo' });
      await redis.stop();
      const before = upstream.requests.length;
      for (let i = 0; i < 6; i++) {
        const started = Date.now();
        const got = await ask(pair.proxies[i % 2]!.url, { message: 'during the outage', bot_id: 'demo', stream: i % 3 === 0 });
        assert.equal(got.status, 200);
        assert.ok(Date.now() - started < 5_000, `answered within 5 s (took ${Date.now() - started} ms)`);
      }
      // The cache is skipped, but each instance still coalesces nothing here (asked one by one).
      assert.equal(upstream.requests.length - before, 6);
      for (const logs of pair.outageLogs) assert.equal(logs.filter((l) => l.includes('redis unavailable')).length, 1, logs.join('\n'));

      await redis.start();
      for (const s of pair.stores) assert.equal(await s.ready(30_000), true);
      for (const logs of pair.outageLogs) {
        assert.equal(logs.filter((l) => l.includes('redis unavailable')).length, 1);
        assert.equal(logs.filter((l) => l.includes('redis available again')).length, 1);
      }
      const afterRestart = upstream.requests.length;
      assert.equal((await ask(pair.proxies[0].url, { message: 'after the outage', bot_id: 'demo' })).headers.get('x-cache'), 'MISS');
      await sleep(50);
      assert.equal((await ask(pair.proxies[1].url, { message: 'after the outage', bot_id: 'demo' })).headers.get('x-cache'), 'HIT');
      assert.equal(upstream.requests.length - afterRestart, 1);
    } finally {
      await redis.start().catch(() => {});
      await pair.close();
    }
  });

  it('refuse with a clear 503 within 5 s while Redis is stopped when REDIS_FAILURE_MODE=refuse', async () => {
    const pair = await twoInstances({ rateLimitPerMinute: 100, failure: 'refuse' });
    try {
      await redis.stop();
      const before = upstream.requests.length;
      const started = Date.now();
      const got = await ask(pair.proxies[0].url, { message: 'refused?', bot_id: 'demo' });
      assert.ok(Date.now() - started < 5_000);
      assert.equal(got.status, 503);
      assert.equal(got.json().error.code, 'unavailable');
      assert.equal(got.headers.get('retry-after'), '5');
      assert.equal(upstream.requests.length, before);
      await redis.start();
      for (const s of pair.stores) assert.equal(await s.ready(30_000), true);
      assert.equal((await ask(pair.proxies[1].url, { message: 'refused?', bot_id: 'demo' })).status, 200);
    } finally {
      await redis.start().catch(() => {});
      await pair.close();
    }
  });
});
