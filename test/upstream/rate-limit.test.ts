import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { join } from 'node:path';
import { ask, FIXTURES, startFixtureApi } from './helpers.js';

const QUESTION = { message: 'How do I book a flight?', bot_id: 'demo' };

describe('rate limit per workspace', () => {
  it('is off by default', async () => {
    const api = await startFixtureApi();
    try {
      for (let i = 0; i < 15; i++) assert.equal((await ask(api, QUESTION).then(async (r) => (await r.arrayBuffer(), r))).status, 200);
    } finally {
      await api.close();
    }
  });

  it('answers 429 with Retry-After and a JSON body beyond N answer requests a minute, across keys and bots', async () => {
    const api = await startFixtureApi({ rateLimitPerMinute: 2, keys: ['key-a', 'key-b'], botsFile: join(FIXTURES, 'bots.json') });
    try {
      const first = await ask(api, QUESTION, { authorization: 'Bearer key-a' });
      assert.equal(first.status, 200);
      await first.arrayBuffer();
      const second = await ask(api, { message: 'What should I do in my first week?', bot_id: 'onboarding', stream: true }, { authorization: 'Bearer key-b' });
      assert.equal(second.status, 200);
      await second.arrayBuffer();
      const third = await ask(api, QUESTION, { authorization: 'Bearer key-a' });
      assert.equal(third.status, 429);
      const retryAfter = Number(third.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.match(((await third.json()) as { detail: string }).detail, /rate limit/i);
    } finally {
      await api.close();
    }
  });

  it('still answers 401 and 422 first: only valid, authenticated requests are counted', async () => {
    const api = await startFixtureApi({ rateLimitPerMinute: 1 });
    try {
      const unauthenticated = await ask(api, QUESTION, { authorization: 'Bearer wrong' });
      assert.equal(unauthenticated.status, 401);
      await unauthenticated.arrayBuffer();
      const invalid = await ask(api, { bot_id: 'demo' });
      assert.equal(invalid.status, 422);
      await invalid.arrayBuffer();
      const ok = await ask(api, QUESTION);
      assert.equal(ok.status, 200);
      await ok.arrayBuffer();
      const limited = await ask(api, QUESTION);
      assert.equal(limited.status, 429);
      await limited.arrayBuffer();
      const stillUnauthenticated = await ask(api, QUESTION, { authorization: 'Bearer wrong' });
      assert.equal(stillUnauthenticated.status, 401);
      await stillUnauthenticated.arrayBuffer();
    } finally {
      await api.close();
    }
  });
});
