import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkRateLimit } from '../../packages/bot-answer-proxy/src/proxy/rate-limit.js';
import { createRedisStores, type RedisStores } from '../../packages/bot-answer-proxy/src/proxy/stores/redis.js';
import { sleep } from './helpers.js';
import { startTestRedis, type TestRedis } from './redis-server.js';

const ANSWER = { answer: 'Yes [[1]](https://a.example/x).', answer_found: true, sources: [{ url: 'https://a.example/x' }] };

let redis: TestRedis;
before(async () => (redis = await startTestRedis()));
after(() => redis.close());

async function pair(options: Partial<Parameters<typeof createRedisStores>[0]> = {}) {
  const logs: string[][] = [[], []];
  // One prefix for both (two instances of one deployment), a new one per test.
  const prefix = `t${Math.random().toString(36).slice(2)}`;
  const shared = [0, 1].map((i) => createRedisStores({ url: redis.url, rateLimitPerMinute: 6, keyPrefix: prefix, log: (line) => logs[i]!.push(line), ...options }));
  for (const s of shared) assert.equal(await s.ready(), true);
  return { stores: shared as [RedisStores, RedisStores], logs };
}

describe('Redis stores shared by two instances', () => {
  it('count one rate limit across both: 6 of 12 pass', async () => {
    const { stores } = await pair();
    let passed = 0;
    for (let i = 0; i < 12; i++) if ((await checkRateLimit(stores[i % 2]!.rateLimiter!, '203.0.113.9')) === undefined) passed++;
    assert.equal(passed, 6);
    const wait = await checkRateLimit(stores[0].rateLimiter!, '203.0.113.9');
    assert.ok(wait !== undefined && wait >= 1 && wait <= 60);
    assert.equal(await checkRateLimit(stores[1].rateLimiter!, '198.51.100.1'), undefined, 'another client has its own budget');
    await Promise.all(stores.map((s) => s.close()));
  });

  it('share cached answers and a lock per question; clear removes every answer', async () => {
    const { stores } = await pair();
    const [a, b] = stores.map((s) => s.cache);
    await a!.set('k1', ANSWER, 60);
    await a!.set('k2', ANSWER, 60);
    assert.deepEqual(await b!.get('k1'), ANSWER);
    assert.equal(await b!.get('missing'), undefined);
    assert.equal(await a!.lock!('k3', 5_000), true);
    assert.equal(await b!.lock!('k3', 5_000), false);
    await b!.unlock!('k3'); // not b's lock: nothing happens
    assert.equal(await b!.lock!('k3', 5_000), false);
    await a!.unlock!('k3');
    assert.equal(await b!.lock!('k3', 5_000), true);
    assert.equal(await b!.clear(), 2);
    assert.equal(await a!.get('k1'), undefined);
    await a!.set('short', ANSWER, 1);
    const ttl = await stores[0].client.pttl((await stores[0].client.keys('*:cache:short'))[0]!);
    assert.ok(ttl > 0 && ttl <= 1_000);
    await Promise.all(stores.map((s) => s.close()));
  });
});

describe('a Redis outage', () => {
  it('fails fast, falls back to per-instance limits, logs once, and recovers on its own', async () => {
    const { stores, logs } = await pair();
    const [a] = stores;
    await redis.stop();
    const started = Date.now();
    const results: (number | undefined)[] = [];
    for (let i = 0; i < 8; i++) results.push(await checkRateLimit(a.rateLimiter!, '192.0.2.1'));
    await assert.rejects(a.cache.get('k'));
    assert.ok(Date.now() - started < 5_000, 'every call answered within 5 s');
    assert.deepEqual(results.slice(0, 6), [undefined, undefined, undefined, undefined, undefined, undefined], 'the in-memory insurance limiter counts');
    assert.notEqual(results[7], undefined, 'and still limits');
    await sleep(500);
    const outage = logs[0]!.filter((line) => line.includes('redis unavailable'));
    assert.equal(outage.length, 1, logs[0]!.join('\n'));
    await redis.start();
    assert.equal(await a.ready(30_000), true);
    await a.cache.set('k', ANSWER, 60);
    assert.deepEqual(await a.cache.get('k'), ANSWER);
    assert.equal(logs[0]!.filter((line) => line.includes('redis available again')).length, 1);
    assert.equal(logs[0]!.filter((line) => line.includes('redis unavailable')).length, 1);
    await Promise.all(stores.map((s) => s.close()));
  });

  it('refuses limits while Redis is away when told to', async () => {
    const { stores } = await pair({ failure: 'refuse' });
    await redis.stop();
    try {
      await assert.rejects(stores[0].rateLimiter!.consume('x'));
    } finally {
      await redis.start();
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});
