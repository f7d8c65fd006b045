import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createNodeFetch, type NodeFetch } from '../../src/proxy/node.js';
import { LightSignal } from '../../src/proxy/light.js';
import { rawUpstream, type RawUpstream } from './helpers.js';

// The pooled upstream client writes its request from a flat header list and reads response
// headers from Node's raw list; these check what crosses the wire both ways.

let upstream: RawUpstream;
let client: NodeFetch;

before(async () => {
  upstream = await rawUpstream((req, res) => {
    if (req.url === '/slow') return; // never answers: for the abort test
    res.writeHead(200, [
      ['Content-Type', 'application/json'],
      ['X-Twice', 'a'],
      ['x-twice', 'b'],
    ]);
    res.end('{"ok":true}');
  });
  client = createNodeFetch();
});
after(async () => {
  client.close();
  await upstream.close();
});

describe('pooled upstream client (createNodeFetch)', () => {
  it('sends Host, the body length and the given headers, and nothing else of note', async () => {
    const from = upstream.requests.length;
    const response = await client(`${upstream.url}/v1/answer`, {
      method: 'POST',
      headers: { Authorization: 'Bearer k', 'content-type': 'application/json', 'content-length': '999' },
      body: '{"message":"héllo"}',
    });
    assert.equal(await response.text!(), '{"ok":true}');
    const seen = upstream.requests[from]!;
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, '/v1/answer');
    assert.equal(seen.body, '{"message":"héllo"}');
    assert.equal(seen.headers.host, new URL(upstream.url).host);
    assert.equal(seen.headers['content-length'], String(Buffer.byteLength('{"message":"héllo"}')));
    assert.equal(seen.headers.authorization, 'Bearer k');
    assert.deepEqual(Object.keys(seen.headers).sort(), ['authorization', 'connection', 'content-length', 'content-type', 'host']);
  });

  it('sends Basic credentials from the URL only when no Authorization is given', async () => {
    const from = upstream.requests.length;
    const withUser = upstream.url.replace('http://', 'http://us%40er:p%3Ass@');
    await (await client(`${withUser}/a`, { method: 'POST', body: '{}' })).text!();
    await (await client(`${withUser}/b`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: '{}' })).text!();
    const [a, b] = upstream.requests.slice(from);
    assert.equal(a!.headers.authorization, `Basic ${Buffer.from('us@er:p:ss').toString('base64')}`);
    assert.equal(b!.headers.authorization, 'Bearer k');
  });

  it('reads response headers case-insensitively, repeated ones joined as fetch joins them', async () => {
    const response = await client(`${upstream.url}/v1/answer`, { method: 'POST', body: '{}' });
    assert.equal(response.headers.get('CONTENT-TYPE'), 'application/json');
    assert.equal(response.headers.get('x-twice'), 'a, b');
    assert.equal(response.headers.get('x-missing'), null);
    await response.text!();
  });

  it('aborts through a LightSignal as through an AbortSignal', async () => {
    for (const make of [() => new LightSignal(), () => new AbortController()]) {
      const abort = make();
      const signal = abort instanceof LightSignal ? (abort as unknown as AbortSignal) : abort.signal;
      const pending = client(`${upstream.url}/slow`, { method: 'POST', body: '{}', signal });
      setTimeout(() => abort.abort(), 20);
      await assert.rejects(pending, (error: Error) => error.name === 'AbortError');
    }
  });
});
