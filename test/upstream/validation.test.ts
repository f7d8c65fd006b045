import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { RunningAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { ask, KEY, startFixtureApi } from './helpers.js';

interface Detail {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

describe('request validation and routing', () => {
  let api: RunningAnswerApi;
  before(async () => {
    api = await startFixtureApi({ maxBodyBytes: 4096 });
  });
  after(() => api.close());

  async function expect422(body: unknown, headers: Record<string, string | undefined> = {}): Promise<Detail[]> {
    const response = await ask(api, body, headers);
    assert.equal(response.status, 422, JSON.stringify(body));
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const json = (await response.json()) as { detail: Detail[] };
    assert.ok(Array.isArray(json.detail) && json.detail.length > 0);
    for (const issue of json.detail) {
      assert.ok(Array.isArray(issue.loc) && typeof issue.msg === 'string' && typeof issue.type === 'string');
    }
    return json.detail;
  }

  const cases: Array<[string, unknown, Array<[Array<string | number>, string]>]> = [
    ['missing message', { bot_id: 'demo' }, [[['body', 'message'], 'missing']]],
    ['missing bot_id', { message: 'hi' }, [[['body', 'bot_id'], 'missing']]],
    ['both missing', {}, [[['body', 'message'], 'missing'], [['body', 'bot_id'], 'missing']]],
    ['numeric message', { message: 42, bot_id: 'demo' }, [[['body', 'message'], 'string_type']]],
    ['null message', { message: null, bot_id: 'demo' }, [[['body', 'message'], 'string_type']]],
    ['array bot_id', { message: 'hi', bot_id: ['demo'] }, [[['body', 'bot_id'], 'string_type']]],
    ['blank message', { message: '   ', bot_id: 'demo' }, [[['body', 'message'], 'string_too_short']]],
    ['empty bot_id', { message: 'hi', bot_id: '' }, [[['body', 'bot_id'], 'string_too_short']]],
    ['string inline_sources', { message: 'hi', bot_id: 'demo', inline_sources: 'false' }, [[['body', 'inline_sources'], 'bool_type']]],
    ['numeric stream', { message: 'hi', bot_id: 'demo', stream: 1 }, [[['body', 'stream'], 'bool_type']]],
    ['null stream', { message: 'hi', bot_id: 'demo', stream: null }, [[['body', 'stream'], 'bool_type']]],
    ['a JSON array', [{ message: 'hi', bot_id: 'demo' }], [[['body'], 'model_attributes_type']]],
    ['a JSON string', '"hello"', [[['body'], 'model_attributes_type']]],
    ['JSON null', 'null', [[['body'], 'model_attributes_type']]],
    ['malformed JSON', '{"message": "hi", "bot_id": ', [[['body'], 'json_invalid']]],
    ['an empty body', '', [[['body'], 'json_invalid']]],
  ];
  for (const [name, body, expected] of cases) {
    it(`422 for ${name}`, async () => {
      const detail = await expect422(body);
      assert.deepEqual(detail.map((d) => [d.loc, d.type]), expected);
    });
  }

  it('422 for a wrong or missing content type', async () => {
    const body = { message: 'hi', bot_id: 'demo' };
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const detail = await expect422(JSON.stringify(body), { 'content-type': type });
      assert.deepEqual(detail.map((d) => d.type), ['content_type'], String(type));
    }
  });

  it('accepts application/json with parameters', async () => {
    const response = await ask(api, { message: 'How do I book a flight?', bot_id: 'demo' }, { 'content-type': 'Application/JSON; charset=utf-8' });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
  });

  it('422 for a body that is not UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from('{"message": "'), Buffer.from([0xff, 0xfe]), Buffer.from('", "bot_id": "demo"}')]);
    const response = await fetch(`${api.url}/v1/answer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: bytes,
    });
    assert.equal(response.status, 422);
    assert.equal(((await response.json()) as { detail: Detail[] }).detail[0]!.type, 'json_invalid');
  });

  it('404 for an unknown bot_id', async () => {
    const response = await ask(api, { message: 'How do I book a flight?', bot_id: 'nope' });
    assert.equal(response.status, 404);
    assert.equal(typeof ((await response.json()) as { detail: string }).detail, 'string');
  });

  it('413 for a body over the limit, counted while reading, and the connection stays usable', async () => {
    const big = JSON.stringify({ message: 'x'.repeat(5000), bot_id: 'demo' });
    const response = await ask(api, big);
    assert.equal(response.status, 413);
    assert.equal(typeof ((await response.json()) as { detail: string }).detail, 'string');
    // Chunked upload without Content-Length: the limit is found by counting.
    const chunked = await postChunked(api.url, ['{"message": "', 'y'.repeat(3000), 'y'.repeat(3000), '", "bot_id": "demo"}']);
    assert.equal(chunked.status, 413);
    const after = await ask(api, { message: 'How do I book a flight?', bot_id: 'demo' });
    assert.equal(after.status, 200);
    await after.arrayBuffer();
  });

  it('a body just under the limit is read', async () => {
    const body = JSON.stringify({ message: `How do I book a flight? ${'a'.repeat(3000)}`, bot_id: 'demo' });
    const response = await ask(api, body);
    assert.equal(response.status, 200);
    await response.arrayBuffer();
  });

  it('404 for other paths, 405 with Allow for other methods', async () => {
    for (const path of ['/', '/v1', '/v1/answers', '/v2/answer', '/v1/answer/']) {
      const response = await fetch(`${api.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` } });
      assert.equal(response.status, 404, path);
      assert.deepEqual(await response.json(), { detail: 'Not Found' });
    }
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const response = await fetch(`${api.url}/v1/answer`, { method, headers: { authorization: `Bearer ${KEY}` } });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get('allow'), 'POST');
      assert.deepEqual(await response.json(), { detail: 'Method Not Allowed' });
    }
  });

  it('ignores a query string, as the path has no parameters', async () => {
    const response = await fetch(`${api.url}/v1/answer?x=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'How do I book a flight?', bot_id: 'demo' }),
    });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
  });
});

/** POSTs the parts as separate chunks (Transfer-Encoding: chunked, no Content-Length). */
function postChunked(base: string, parts: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/v1/answer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    for (const part of parts) req.write(part);
    req.end();
  });
}
