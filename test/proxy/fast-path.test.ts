import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createNodeFetch, createProxyHandler, serveNode, type NodeFetch, type NodeServer, type ProxyHandler } from '../../src/proxy/node.js';
import { ACCEPTS_LIGHT, LightResponse } from '../../src/proxy/light.js';
import { assertNoKeyLeak, newKey, observe, rawUpstream, type RawUpstream } from './helpers.js';

// The Node adapter serves the proxy's own handler through a fast path (no Request built, no
// Response read back). The same handler wrapped in a plain function gets real Request and
// Response objects: both must answer every request with the same bytes.

const ANSWER = { answer: 'Grüße, **world** [[1]](https://example.com/a)', answer_found: true, sources: [{ url: 'https://example.com/a', title: 'A' }] };
const SSE = 'event: answer\ndata: {"text":"Grüße, "}\n\nevent: answer\ndata: {"text":"world"}\n\nevent: done\ndata: {"answer_found":true}\n\n';
const key = newKey();
let upstream: RawUpstream;
let upstreamFetch: NodeFetch;
let handler: ProxyHandler;
let fast: NodeServer;
let general: NodeServer;
const logs: string[] = [];

before(async () => {
  upstream = await rawUpstream((_req, res, body) => {
    const asked = JSON.parse(body) as { stream: boolean; message: string };
    if (asked.stream && asked.message !== 'json please') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(SSE);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ANSWER));
  });
  upstreamFetch = createNodeFetch();
  handler = createProxyHandler({
    apiKey: key,
    baseUrl: upstream.url,
    fetch: upstreamFetch,
    rateLimitPerMinute: 0,
    maxBodyBytes: 256,
    allowedOrigins: ['https://site.example'],
    log: (line) => {
      logs.push(line);
      observe(line);
    },
  });
  fast = await serveNode(handler, { port: 0, log: false });
  general = await serveNode((request, context) => handler(request, context), { port: 0, log: false });
});
after(async () => {
  await fast.close();
  await general.close();
  upstreamFetch.close();
  await upstream.close();
  assertNoKeyLeak();
});

interface Raw {
  status: number;
  /** Lower-case `name: value` lines, sorted, without the ones that differ by nature. */
  headers: string[];
  body: Buffer;
}

/** Sends `head` (CRLF lines) and then `body` pieces as raw bytes; reads the response until the server closes. */
function rawExchange(url: string, head: string[], pieces: (string | Buffer)[] = []): Promise<Raw> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      observe(all.toString('latin1'));
      const split = all.indexOf('\r\n\r\n');
      assert.ok(split > 0, `a response came back: ${JSON.stringify(all.toString('latin1'))}`);
      const [statusLine, ...lines] = all.subarray(0, split).toString('latin1').split('\r\n');
      const headers = lines
        .map((line) => line.replace(/^([^:]+):\s*/, (_, name: string) => `${name.toLowerCase()}: `))
        .filter((line) => !/^(date|x-request-id|keep-alive): /.test(line))
        .sort();
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: all.subarray(split + 4) });
    });
    socket.write(`${[...head, 'connection: close'].join('\r\n')}\r\n\r\n`);
    for (const piece of pieces) socket.write(piece);
  });
}

/** The content of a chunked body. */
function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; ; ) {
    const line = raw.indexOf('\r\n', at);
    const size = parseInt(raw.subarray(at, line).toString('latin1'), 16);
    assert.ok(line > at && Number.isInteger(size), 'a chunk size line');
    if (size === 0) return Buffer.concat(parts);
    parts.push(raw.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
}

/** The same exchange through both adapters' paths. */
async function both(head: string[], pieces: (string | Buffer)[] = []): Promise<[Raw, Raw]> {
  const a = await rawExchange(fast.url, head, pieces);
  const b = await rawExchange(general.url, head, pieces);
  return [a, b];
}

function post(body: string | Buffer, extra: string[] = [], path = '/api/answer'): [string[], Buffer[]] {
  const bytes = Buffer.from(body);
  return [[`POST ${path} HTTP/1.1`, 'host: proxy.test', 'content-type: application/json', `content-length: ${bytes.length}`, ...extra], [bytes]];
}

describe('fast path and general path give the same bytes', () => {
  const cases: [string, () => [string[], (string | Buffer)[]]][] = [
    ['a JSON answer, allowed origin', () => post(JSON.stringify({ message: 'hi', bot_id: 'demo' }), ['origin: https://site.example'])],
    ['a streamed answer', () => post(JSON.stringify({ message: 'hi', bot_id: 'demo', stream: true }))],
    ['a stream asked for, JSON answered', () => post(JSON.stringify({ message: 'json please', bot_id: 'demo', stream: true }))],
    ['header names in any case', () => post(JSON.stringify({ message: 'hi', bot_id: 'demo', stream: true }), ['ORIGIN: https://site.example']).map((lines) => lines.map((line) => (typeof line === 'string' ? line.replace(/^content-type/, 'Content-TYPE') : line))) as [string[], Buffer[]]],
    ['an Origin header sent twice', () => post(JSON.stringify({ message: 'hi', bot_id: 'demo' }), ['origin: https://site.example', 'Origin: https://site.example'])],
    ['a same-origin request', () => post(JSON.stringify({ message: 'hi', bot_id: 'demo' }), ['origin: http://proxy.test'])],
    ['a forbidden origin', () => post(JSON.stringify({ message: 'hi', bot_id: 'demo' }), ['origin: https://evil.example'])],
    ['the body split into one-byte writes', () => {
      const [head, [body]] = post(JSON.stringify({ message: 'hi', bot_id: 'demo' }));
      return [head, Array.from(body!, (byte) => Buffer.from([byte]))];
    }],
    ['malformed JSON', () => post('{"message":')],
    ['invalid UTF-8', () => post(Buffer.from([0x7b, 0xff, 0x7d]))],
    ['wrong field types', () => post(JSON.stringify({ message: 1, bot_id: 'demo' }))],
    ['two Content-Type headers', () => post(JSON.stringify({ message: 'hi', bot_id: 'demo' }), ['content-type: application/json'])],
    ['a declared length over the limit', () => [['POST /api/answer HTTP/1.1', 'host: proxy.test', 'content-type: application/json', 'content-length: 100000'], []]],
    ['a chunked body over the limit, no length declared', () => [
      ['POST /api/answer HTTP/1.1', 'host: proxy.test', 'content-type: application/json', 'transfer-encoding: chunked'],
      [`100\r\n${'x'.repeat(256)}\r\n`, `1\r\nx\r\n`, '0\r\n\r\n'],
    ]],
    ['a chunked body exactly at the limit', () => {
      const body = JSON.stringify({ message: 'x'.repeat(256 - 30), bot_id: 'demo' });
      assert.equal(Buffer.byteLength(body), 256);
      return [['POST /api/answer HTTP/1.1', 'host: proxy.test', 'content-type: application/json', 'transfer-encoding: chunked'], [`${(200).toString(16)}\r\n${body.slice(0, 200)}\r\n`, `${(56).toString(16)}\r\n${body.slice(200)}\r\n`, '0\r\n\r\n']];
    }],
    ['a dot segment in the path', () => post(JSON.stringify({ message: 'hi', bot_id: 'demo' }), [], '/api/x/../answer?q=1')],
    ['an escaped path', () => post(JSON.stringify({ message: 'hi', bot_id: 'demo' }), [], '/api/%61nswer')],
    ['another path', () => post('{}', [], '/nope')],
    ['the preflight', () => [['OPTIONS /api/answer HTTP/1.1', 'host: proxy.test', 'origin: https://site.example', 'access-control-request-method: POST'], []]],
    ['a wrong method', () => [['GET /api/answer HTTP/1.1', 'host: proxy.test'], []]],
    ['the health check', () => [['GET /healthz HTTP/1.1', 'host: proxy.test'], []]],
    ['the health check by HEAD', () => [['HEAD /healthz HTTP/1.1', 'host: proxy.test'], []]],
  ];
  for (const [name, make] of cases) {
    it(name, async () => {
      const [head, pieces] = make();
      const [a, b] = await both(head, pieces);
      assert.equal(a.status, b.status);
      assert.deepEqual(a.headers, b.headers);
      assert.equal(a.body.toString('latin1'), b.body.toString('latin1'));
    });
  }

  it('the cases cover answers, streams and each refusal', async () => {
    const statuses = new Set<number>();
    for (const [, make] of cases) {
      const [head, pieces] = make();
      statuses.add((await rawExchange(fast.url, head, pieces)).status);
    }
    assert.deepEqual([...statuses].sort(), [200, 204, 400, 403, 404, 405, 413, 415]);
  });

  it('the adapter takes the fast path only with a handler that accepts it', async () => {
    const seen: { isRequest: boolean; isLight: boolean }[] = [];
    const spy = Object.assign(
      async (request: Request, context?: { clientAddress?: string }) => {
        const response = await handler(request, context);
        seen.push({ isRequest: request instanceof Request, isLight: (response as unknown) instanceof LightResponse });
        return response;
      },
      { [ACCEPTS_LIGHT]: true },
    );
    const flagged = await serveNode(spy, { port: 0, log: false });
    try {
      const [head, pieces] = post(JSON.stringify({ message: 'hi', bot_id: 'demo' }));
      await rawExchange(flagged.url, head, pieces);
      await rawExchange(general.url, head, pieces);
    } finally {
      await flagged.close();
    }
    assert.deepEqual(seen, [{ isRequest: false, isLight: true }]);
  });

  it('an upstream client returning Web Responses (global fetch) gives the same answers', async () => {
    const web = createProxyHandler({ apiKey: key, baseUrl: upstream.url, fetch: (url, init) => fetch(url, init), rateLimitPerMinute: 0, log: (line) => observe(line) });
    for (const asked of [{ message: 'hi', bot_id: 'demo', stream: true }, { message: 'json please', bot_id: 'demo', stream: true }, { message: 'hi', bot_id: 'demo' }]) {
      const response = await web(new Request('http://proxy.test/api/answer', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(asked) }));
      const text = await response.text();
      observe(text);
      const viaNode = await fetch(`${fast.url}/api/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(asked) });
      assert.equal(response.status, 200);
      assert.equal(text, await viaNode.text());
    }
  });

  it('enforces the body limit while reading on the fast path, and closes the connection', async () => {
    const before = upstream.requests.length;
    const got = await rawExchange(fast.url, ['POST /api/answer HTTP/1.1', 'host: proxy.test', 'content-type: application/json', 'transfer-encoding: chunked'], [`100\r\n${'x'.repeat(256)}\r\n`, `1\r\nx\r\n`]);
    assert.equal(got.status, 413);
    assert.ok(got.headers.includes('connection: close'));
    assert.equal(JSON.parse(got.body.toString()).error.code, 'payload_too_large');
    assert.equal(upstream.requests.length, before, 'nothing was forwarded');
  });

  it('sends the upstream the same request from both paths', async () => {
    const from = upstream.requests.length;
    const body = JSON.stringify({ message: 'same', bot_id: 'demo', inline_sources: false, extra: 'dropped' });
    const [head, pieces] = post(body, ['cookie: a=b', 'authorization: Bearer client']);
    await both(head, pieces);
    const [a, b] = upstream.requests.slice(from);
    assert.ok(a && b);
    assert.equal(a.body, b.body);
    assert.deepEqual(JSON.parse(a.body), { message: 'same', bot_id: 'demo', inline_sources: false, stream: false });
    assert.deepEqual(a.headers, b.headers);
    assert.equal(a.headers.authorization, `Bearer ${key}`);
    assert.equal(a.headers.cookie, undefined);
  });

  it('logs one line per request from both paths, with the same fields', async () => {
    for (const stream of [false, true]) {
      const from = logs.length;
      const [head, pieces] = post(JSON.stringify({ message: 'hi', bot_id: 'demo', stream }));
      const [fastRaw] = await both(head, pieces);
      const [a, b] = logs.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.ok(a && b);
      assert.deepEqual(Object.keys(a), Object.keys(b));
      for (const field of ['level', 'msg', 'method', 'path', 'status', 'bytes', 'bot', 'stream', 'outcome']) assert.equal(a[field], b[field], field);
      if (stream) {
        // The streamed body is chunked: its bytes are the chunks' contents (the answer has non-ASCII text).
        const body = dechunk(fastRaw.body);
        assert.equal(a.bytes, body.byteLength);
        assert.match(body.toString('utf8'), /Grüße/);
      }
    }
  });
});
