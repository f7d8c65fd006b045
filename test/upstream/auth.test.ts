import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startAnswerApi, type RunningAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { ask, FIXTURE_KB, KEY } from './helpers.js';

const OTHER_KEY = 'second-key-abcdef';
const REVOKED_KEY = 'deleted-key-123456';
const BODY = { message: 'How do I book a flight?', bot_id: 'demo' };

describe('authentication', () => {
  let api: RunningAnswerApi;
  before(async () => {
    api = await startAnswerApi({ kb: FIXTURE_KB, keys: [KEY, OTHER_KEY], revokedKeys: [REVOKED_KEY] });
  });
  after(() => api.close());

  const badForms: Array<[string, string | undefined]> = [
    ['missing header', undefined],
    ['empty header', ''],
    ['wrong scheme (Basic)', `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}`],
    ['wrong scheme (Token)', `Token ${KEY}`],
    ['no scheme, key alone', KEY],
    ['empty key', 'Bearer '],
    ['Bearer with spaces only', 'Bearer    '],
    ['unknown key', 'Bearer not-a-key'],
    ['key with a suffix', `Bearer ${KEY}x`],
    ['revoked (deleted) key', `Bearer ${REVOKED_KEY}`],
  ];
  for (const [name, header] of badForms) {
    it(`401 with a JSON body for a ${name}`, async () => {
      const response = await ask(api, BODY, { authorization: header });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), 'Bearer');
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const body = (await response.json()) as { detail: string };
      assert.equal(typeof body.detail, 'string');
      for (const key of [KEY, OTHER_KEY, REVOKED_KEY]) assert.ok(!JSON.stringify(body).includes(key), 'the error never repeats a key');
    });
  }

  it('accepts every configured key, with the scheme in any case', async () => {
    for (const header of [`Bearer ${KEY}`, `Bearer ${OTHER_KEY}`, `bearer ${KEY}`, `BEARER ${OTHER_KEY}`]) {
      const response = await ask(api, BODY, { authorization: header });
      assert.equal(response.status, 200, header);
      await response.arrayBuffer();
    }
  });

  it('checks the key before the body: a bad body with a bad key gets 401', async () => {
    const response = await ask(api, '{not json', { authorization: 'Bearer nope' });
    assert.equal(response.status, 401);
    await response.arrayBuffer();
  });

  it('rejects a revoked key even when it is also listed as accepted', async () => {
    const both = await startAnswerApi({ kb: FIXTURE_KB, keys: [KEY], revokedKeys: [KEY] });
    try {
      const response = await ask(both, BODY);
      assert.equal(response.status, 401);
      await response.arrayBuffer();
    } finally {
      await both.close();
    }
  });

  it('generates one random key when none is configured, and accepts only it', async () => {
    const generated = await startAnswerApi({ kb: FIXTURE_KB });
    const another = await startAnswerApi({ kb: FIXTURE_KB, keys: [] });
    try {
      assert.equal(generated.keys.length, 1);
      assert.ok(generated.keys[0]!.length >= 24);
      assert.notEqual(generated.keys[0], another.keys[0]);
      const ok = await ask(generated, BODY, { authorization: `Bearer ${generated.keys[0]}` });
      assert.equal(ok.status, 200);
      const body = await ok.text();
      assert.ok(!body.includes(generated.keys[0]!));
      const wrong = await ask(generated, BODY, { authorization: `Bearer ${another.keys[0]}` });
      assert.equal(wrong.status, 401);
      await wrong.arrayBuffer();
    } finally {
      await Promise.all([generated.close(), another.close()]);
    }
  });
});
