import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ask, assertNoKeyLeak, newKey, rawRequest, rawUpstream, send, sleep, startTestProxy, type RawUpstream, type TestProxy } from './helpers.js';

const ANSWER = { answer: 'Hello **world**', answer_found: true, sources: [] };
let upstream: RawUpstream;
let proxy: TestProxy;
const key = newKey();

before(async () => {
  upstream = await rawUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ANSWER));
  });
  proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url, allowedBotIds: ['demo', 'other'], maxMessageChars: 50 });
});
after(async () => {
  await proxy.close();
  await upstream.close();
  assertNoKeyLeak();
});

function assertError(got: { status: number; text: string; headers: Headers | Record<string, unknown> }, status: number, code: string) {
  assert.equal(got.status, status, got.text);
  const body = JSON.parse(got.text);
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  assert.ok(body.error.message.length > 0);
}

describe('input checks', () => {
  it('answers a valid request with the upstream answer as JSON', async () => {
    const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' });
    assert.equal(got.status, 200);
    assert.deepEqual(got.json(), { ...ANSWER, outcome: 'answered' });
    assert.match(got.headers.get('content-type')!, /^application\/json/);
    assert.ok(got.headers.get('x-request-id'));
  });

  it('refuses a body that is not JSON by content type with 415', async () => {
    const before = upstream.requests.length;
    assertError(await send(`${proxy.url}/api/answer`, { method: 'POST', body: JSON.stringify({ message: 'hi', bot_id: 'demo' }), headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
    assertError(await send(`${proxy.url}/api/answer`, { method: 'POST', body: 'message=hi', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
    assertError(await rawRequest(`${proxy.url}/api/answer`, { body: (w) => void w('{"message":"hi","bot_id":"demo"}') }), 415, 'unsupported_media_type');
    assertError(await ask(proxy.url, { message: 'hi', bot_id: 'demo' }, { 'content-type': 'application/json; charset=latin1' }), 415, 'unsupported_media_type');
    assert.equal(upstream.requests.length, before, 'nothing reached the upstream');
  });

  it('accepts application/json with a utf-8 charset parameter', async () => {
    const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo' }, { 'content-type': 'Application/JSON; charset="UTF-8"' });
    assert.equal(got.status, 200);
  });

  it('refuses malformed JSON and wrong shapes with 400 bad_request', async () => {
    const before = upstream.requests.length;
    for (const body of ['{"message":', '', 'null', '[]', '"text"', '42', '{"message":"hi"}', '{"bot_id":"demo"}', '{"message":5,"bot_id":"demo"}', '{"message":"hi","bot_id":7}', '{"message":"hi","bot_id":""}', '{"message":"hi","bot_id":"demo","stream":"yes"}', '{"message":"hi","bot_id":"demo","inline_sources":1}']) {
      assertError(await ask(proxy.url, body), 400, 'bad_request');
    }
    assert.equal(upstream.requests.length, before);
  });

  it('refuses invalid UTF-8 with 400', async () => {
    const got = await send(`${proxy.url}/api/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from([0x7b, 0x22, 0x6d, 0xff, 0xfe, 0x22, 0x7d]) });
    assertError(got, 400, 'bad_request');
  });

  it('refuses an empty or blank message with 400', async () => {
    assertError(await ask(proxy.url, { message: '', bot_id: 'demo' }), 400, 'bad_request');
    assertError(await ask(proxy.url, { message: ' \n\t ', bot_id: 'demo' }), 400, 'bad_request');
  });

  it('refuses an over-long message with 400 message_too_long, counting characters not UTF-16 units', async () => {
    assertError(await ask(proxy.url, { message: 'x'.repeat(51), bot_id: 'demo' }), 400, 'message_too_long');
    assert.equal((await ask(proxy.url, { message: 'x'.repeat(50), bot_id: 'demo' })).status, 200);
    // 50 emoji are 100 UTF-16 units but 50 characters.
    assert.equal((await ask(proxy.url, { message: '😀'.repeat(50), bot_id: 'demo' })).status, 200);
    assertError(await ask(proxy.url, { message: '😀'.repeat(51), bot_id: 'demo' }), 400, 'message_too_long');
  });

  it('refuses a body over 32 KiB with 413, counted while reading (no Content-Length)', async () => {
    const before = upstream.requests.length;
    const got = await rawRequest(`${proxy.url}/api/answer`, {
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: async (write) => {
        write('{"message":"');
        for (let i = 0; i < 40; i++) {
          write('y'.repeat(1024));
          await sleep(1);
        }
        write('","bot_id":"demo"}');
      },
    });
    assertError(got, 413, 'payload_too_large');
    assert.equal(upstream.requests.length, before);
  });

  it('refuses a declared Content-Length over the limit at once with 413', async () => {
    const got = await rawRequest(`${proxy.url}/api/answer`, { headers: { 'content-type': 'application/json', 'content-length': String(1024 * 1024) }, body: (w) => void w('{') });
    assertError(got, 413, 'payload_too_large');
  });

  it('accepts a body just under the limit', async () => {
    const got = await ask(proxy.url, { message: 'ok', bot_id: 'demo', padding: 'p'.repeat(32 * 1024 - 100) });
    assert.equal(got.status, 200);
  });

  it('refuses a bot outside ALLOWED_BOT_IDS with 403 forbidden_bot', async () => {
    const before = upstream.requests.length;
    assertError(await ask(proxy.url, { message: 'hi', bot_id: 'secret-bot' }), 403, 'forbidden_bot');
    assert.equal(upstream.requests.length, before);
  });

  it('refuses other methods with 405 and an Allow header', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const got = await send(`${proxy.url}/api/answer`, { method });
      assertError(got, 405, 'method_not_allowed');
      assert.equal(got.headers.get('allow'), 'POST, OPTIONS');
    }
    assertError(await send(`${proxy.url}/healthz`, { method: 'POST' }), 405, 'method_not_allowed');
  });

  it('answers other paths with 404', async () => {
    for (const path of ['/', '/api', '/api/answer/', '/api/answer/x', '/v1/answer', '/api/answers']) {
      assertError(await send(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), 404, 'not_found');
    }
  });

  it('ignores the query string and sends only the four known fields upstream', async () => {
    const before = upstream.requests.length;
    const got = await send(`${proxy.url}/api/answer?url=http://evil.example/&bot_id=x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hi', bot_id: 'demo', extra: 'dropped', url: 'http://evil.example/' }),
    });
    assert.equal(got.status, 200);
    const seen = upstream.requests[before]!;
    assert.equal(seen.url, '/v1/answer');
    assert.deepEqual(JSON.parse(seen.body), { message: 'hi', bot_id: 'demo', inline_sources: true, stream: false });
  });

  it('GET /healthz answers {"ok":true}', async () => {
    const got = await send(`${proxy.url}/healthz`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.json(), { ok: true });
  });

  it('writes one JSON log line per request with id, status, duration, bytes, bot and outcome, and no message text', async () => {
    const before = proxy.logs.length;
    await ask(proxy.url, { message: 'a very private question', bot_id: 'demo' });
    await ask(proxy.url, { message: '', bot_id: 'demo' });
    const lines = proxy.logs.slice(before).map((line) => JSON.parse(line));
    assert.equal(lines.length, 2);
    const [ok, bad] = lines;
    assert.equal(ok.status, 200);
    assert.equal(ok.bot, 'demo');
    assert.equal(ok.outcome, 'ok');
    assert.equal(typeof ok.id, 'string');
    assert.equal(typeof ok.duration_ms, 'number');
    assert.ok(ok.bytes > 0);
    assert.equal(bad.status, 400);
    assert.equal(bad.outcome, 'rejected');
    assert.equal(bad.code, 'bad_request');
    for (const line of proxy.logs) assert.ok(!line.includes('very private'), 'message text is not logged');
  });

  it('logs message text only when debug is on', async () => {
    const debug = await startTestProxy({ apiKey: key, baseUrl: upstream.url, debug: true });
    try {
      await ask(debug.url, { message: 'debug me please', bot_id: 'demo' });
      assert.equal(JSON.parse(debug.logs.at(-1)!).message, 'debug me please');
    } finally {
      await debug.close();
    }
  });
});
