import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { createProxyHandler, serveNode } from '../../packages/bot-answer-proxy/src/proxy/node.js';
import { ask, assertNoKeyLeak, newKey, observe, parseStream, rawUpstream, replay, send, sleep, startTestProxy } from './helpers.js';

const key = newKey();
const sse = { 'content-type': 'text/event-stream' };
after(() => assertNoKeyLeak());

const streamRequest = (url: string) =>
  fetch(`${url}/api/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'q', bot_id: 'demo', stream: true }) });

async function readAll(response: Response): Promise<string> {
  const text = await response.text();
  observe(text);
  return text;
}

describe('node adapter', { timeout: 60_000 }, () => {
  it('flushes the stream headers at once, before the first event', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const upstream = await rawUpstream(async (_req, res) => {
      res.writeHead(200, sse);
      res.flushHeaders();
      await held;
      res.end('event: delta\ndata: {"text":"late"}\n\n');
    });
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url });
    try {
      const response = await streamRequest(proxy.url);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
      release();
      assert.equal(replay(parseStream(await readAll(response)).events).text, 'late');
    } finally {
      release();
      await proxy.close();
      await upstream.close();
    }
  });

  // The command's server lets the adapter replace the global Response (the adapter then flushes headers on their own).
  for (const overrideGlobalObjects of [false, true]) {
    it(`sends the stream headers and a first event that is ready in one write (globals ${overrideGlobalObjects ? 'replaced' : 'kept'})`, async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const upstream = await rawUpstream(async (_req, res) => {
        res.writeHead(200, sse);
        res.write('event: delta\ndata: {"text":"first"}\n\n');
        await held;
        res.end('event: done\ndata: {}\n\n');
      });
      const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url }, { overrideGlobalObjects });
      // What the server hands the kernel, write by write (a client in the same process could read two writes as one).
      const writes: string[] = [];
      proxy.server.server.once('connection', (socket: Socket) => {
        // Node's one path to the kernel for both write and writev.
        const internal = socket as Socket & { _writeGeneric(writev: boolean, data: unknown, ...rest: unknown[]): void };
        const write = internal._writeGeneric.bind(socket);
        internal._writeGeneric = (writev, data, ...rest) => {
          writes.push(writev ? (data as { chunk: unknown }[]).map((d) => String(d.chunk)).join('') : String(data));
          write(writev, data, ...rest);
        };
      });
      try {
        const response = await streamRequest(proxy.url);
        const reader = response.body!.getReader();
        await reader.read();
        assert.match(writes[0] ?? '', /^HTTP\/1\.1 200 [^]*event: delta\ndata: \{"text":"first"\}/);
        release();
        await reader.cancel();
      } finally {
        release();
        await proxy.close();
        await upstream.close();
      }
    });
  }

  it('reuses one keep-alive upstream connection for successive requests', async () => {
    let connections = 0;
    const upstream = await rawUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"answer":"ok","answer_found":true,"sources":[]}');
    });
    upstream.server.on('connection', () => connections++);
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url });
    try {
      for (let i = 0; i < 5; i++) assert.equal((await ask(proxy.url, { message: 'q', bot_id: 'demo' })).status, 200);
      assert.equal(connections, 1);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  it('a slow reader holds back the upstream instead of filling the proxy (back-pressure)', async () => {
    let written = 0;
    let blocked = false;
    const upstream = await rawUpstream(async (_req, res) => {
      res.writeHead(200, sse);
      const event = Buffer.from(`event: delta\ndata: ${JSON.stringify({ text: 'z'.repeat(4000) })}\n\n`);
      while (!res.destroyed) {
        written += event.byteLength;
        if (!res.write(event)) {
          blocked = true;
          const drained = await new Promise<boolean>((resolve) => {
            const done = (ok: boolean) => {
              res.off('drain', onDrain);
              res.off('close', onClose);
              resolve(ok);
            };
            const onDrain = () => done(true);
            const onClose = () => done(false);
            res.on('drain', onDrain);
            res.on('close', onClose);
          });
          if (!drained) return;
          blocked = false;
        }
      }
    });
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url }, { drainTimeoutMs: 60_000 });
    try {
      const client = httpRequest(`${proxy.url}/api/answer`, { method: 'POST', headers: { 'content-type': 'application/json' } });
      client.end(JSON.stringify({ message: 'q', bot_id: 'demo', stream: true }));
      const [res] = (await once(client, 'response')) as [import('node:http').IncomingMessage];
      await once(res, 'data');
      res.pause();
      // Let every buffer on the way fill up, then check that the upstream is stuck.
      let last = -1;
      for (let i = 0; i < 100 && written !== last; i++) {
        last = written;
        await sleep(100);
      }
      assert.equal(written, last, 'the upstream stopped being read');
      assert.ok(blocked, 'the upstream is waiting for drain');
      // Kernel socket buffers on loopback hold a few MiB; the proxy itself holds a few chunks at most.
      assert.ok(written < 48 * 1024 * 1024, `upstream wrote ${written} bytes`);
      client.destroy();
      while (proxy.handler.activeStreams > 0) await sleep(5);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  it('a client that goes away leaves no stream, socket or upstream request behind', async () => {
    const upstream = await rawUpstream(async (_req, res) => {
      res.writeHead(200, sse);
      for (let i = 0; !res.destroyed && i < 1000; i++) {
        res.write(`event: delta\ndata: {"text":"${i} "}\n\n`);
        await sleep(20);
      }
      res.end();
    });
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url });
    try {
      const client = httpRequest(`${proxy.url}/api/answer`, { method: 'POST', headers: { 'content-type': 'application/json' } });
      client.end(JSON.stringify({ message: 'q', bot_id: 'demo', stream: true }));
      const [res] = (await once(client, 'response')) as [import('node:http').IncomingMessage];
      await once(res, 'data');
      const at = Date.now();
      client.destroy();
      while (upstream.requests[0]!.closedEarly === undefined) await sleep(2);
      assert.ok(upstream.requests[0]!.closedEarly! - at <= 150, `upstream closed after ${upstream.requests[0]!.closedEarly! - at} ms`);
      while (proxy.handler.activeStreams > 0) await sleep(2);
      const count = async (server: import('node:http').Server) => new Promise<number>((resolve) => server.getConnections((_e, n) => resolve(n)));
      for (let i = 0; i < 50 && (await count(proxy.server.server)) > 0; i++) await sleep(10);
      assert.equal(await count(proxy.server.server), 0, 'proxy connections');
      // undici opens a fresh idle connection after an aborted request; none carries a request.
      assert.ok((await count(upstream.server)) <= 1, 'upstream connections');
      assert.equal(upstream.requests.length, 1);
      assert.equal(JSON.parse(proxy.logs.at(-1)!).outcome, 'aborted');
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  it('drops a client that sends its headers too slowly, and one whose body never completes', async () => {
    const handler = createProxyHandler({ apiKey: key, baseUrl: 'http://127.0.0.1:9', log: (l) => observe(l) });
    const server = await serveNode(handler, { port: 0, log: false, clientHeadersTimeoutMs: 200, clientRequestTimeoutMs: 400 });
    try {
      for (const partial of ['POST /api/answer HTTP/1.1\r\nHost: x\r\n', 'POST /api/answer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"mess']) {
        const socket = connect(server.port, '127.0.0.1');
        socket.write(partial);
        let got = '';
        socket.on('data', (d) => (got += d));
        const started = Date.now();
        await once(socket, 'close');
        observe(got);
        assert.ok(Date.now() - started < 5_000);
        assert.match(got, /^HTTP\/1\.1 408/);
      }
    } finally {
      await server.close();
    }
  });

  it('answers HEAD /healthz without a body', async () => {
    const proxy = await startTestProxy({ apiKey: key, baseUrl: 'http://127.0.0.1:9' });
    try {
      const got = await send(`${proxy.url}/healthz`, { method: 'HEAD' });
      assert.equal(got.status, 200);
      assert.equal(got.text, '');
    } finally {
      await proxy.close();
    }
  });
});

describe('graceful shutdown', { timeout: 60_000 }, () => {
  it('stops accepting, lets an open stream finish within the deadline', async () => {
    const upstream = await rawUpstream(async (_req, res) => {
      res.writeHead(200, sse);
      for (let i = 0; i < 6; i++) {
        res.write(`event: delta\ndata: {"text":"${i}"}\n\n`);
        await sleep(40);
      }
      res.end('event: done\ndata: {"answer_found":true}\n\n');
    });
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url }, { shutdownTimeoutMs: 5_000 });
    try {
      const response = await streamRequest(proxy.url);
      const closing = proxy.close();
      await sleep(10);
      await assert.rejects(fetch(`${proxy.url}/healthz`), 'new connections are refused');
      const result = replay(parseStream(await readAll(response)).events);
      assert.equal(result.text, '012345');
      assert.equal(result.end?.event, 'done');
      await closing;
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  it('ends streams still open at the deadline with a shutting_down error event', async () => {
    const upstream = await rawUpstream(async (_req, res) => {
      res.writeHead(200, sse);
      for (let i = 0; !res.destroyed && i < 500; i++) {
        res.write(`event: delta\ndata: {"text":"."}\n\n`);
        await sleep(20);
      }
      res.end();
    });
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url }, { shutdownTimeoutMs: 200 });
    try {
      const response = await streamRequest(proxy.url);
      const closing = proxy.close();
      const result = replay(parseStream(await readAll(response)).events);
      assert.ok(result.text.length > 0);
      assert.equal(result.end?.event, 'error');
      assert.equal(result.end?.data.code, 'shutting_down');
      await closing;
      assert.equal(proxy.handler.activeStreams, 0);
      while (upstream.requests[0]!.closedEarly === undefined) await sleep(5);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  it('a handler that is shutting down refuses new answer requests with 503', async () => {
    const handler = createProxyHandler({ apiKey: key, baseUrl: 'http://127.0.0.1:9', log: (l) => observe(l) });
    await handler.shutdown(0);
    const response = await handler(new Request('http://proxy.test/api/answer', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message":"q","bot_id":"demo"}' }), { clientAddress: '203.0.113.1' });
    const text = await response.text();
    observe(text);
    assert.equal(response.status, 503);
    assert.equal(JSON.parse(text).error.code, 'shutting_down');
  });

  it('a log function that throws at the end of a stream does not take the server down', async () => {
    const upstream = await rawUpstream((_req, res) => {
      res.writeHead(200, sse);
      res.end('event: delta\ndata: {"text":"whole"}\n\nevent: done\ndata: {}\n\n');
    });
    const handler = createProxyHandler({
      apiKey: key,
      baseUrl: upstream.url,
      rateLimitPerMinute: 0,
      log: (line) => {
        observe(line);
        if (line.includes('"stream":true')) throw new Error('log sink broke');
      },
    });
    const server = await serveNode(handler, { port: 0, log: false });
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      for (let i = 0; i < 2; i++) {
        const response = await streamRequest(server.url);
        assert.equal(response.status, 200);
        assert.equal(replay(parseStream(await readAll(response)).events).text, 'whole');
      }
      await sleep(20);
      assert.deepEqual(rejections, []);
    } finally {
      process.off('unhandledRejection', onRejection);
      await server.close();
      await upstream.close();
    }
  });
});
