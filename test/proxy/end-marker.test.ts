import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ask, assertNoKeyLeak, newKey, parseStream, rawUpstream, replay, sleep, startTestProxy } from './helpers.js';

// What the proxy does with the upstream's connection once the end marker has arrived.

const key = newKey();
after(() => assertNoKeyLeak());

const STREAM = 'event: answer\ndata: {"text":"Hello"}\n\nevent: done\ndata: {"answer_found":true}\n\n';

describe('after the end marker', { timeout: 20_000 }, () => {
  it('reads the body to its end and reuses the pooled upstream connection', async () => {
    const ports: number[] = [];
    const upstream = await rawUpstream(async (req, res) => {
      ports.push(req.socket.remotePort!);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(STREAM);
      // The body's end comes in its own write, after the marker.
      await sleep(20);
      res.end();
    });
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url });
    try {
      for (let i = 0; i < 3; i++) {
        const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo', stream: true });
        const { text, end } = replay(parseStream(got.text).events);
        assert.equal(text, 'Hello');
        assert.equal(end?.event, 'done');
        await sleep(60);
      }
      assert.equal(ports.length, 3);
      assert.equal(new Set(ports).size, 1, `one upstream connection for all three: ${ports.join(', ')}`);
      assert.ok(upstream.requests.every((r) => r.closedEarly === undefined));
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  it('cuts off an upstream that goes on sending, and still ends the client stream at once', async () => {
    const upstream = await rawUpstream(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(STREAM);
      while (!res.destroyed) {
        res.write(`: ${'x'.repeat(1000)}\n\n`);
        await sleep(5);
      }
    });
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url });
    try {
      // The upstream never ends: the client's stream can only have ended because the proxy ended it.
      const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo', stream: true });
      assert.equal(replay(parseStream(got.text).events).end?.event, 'done');
      const started = Date.now();
      while (upstream.requests[0]!.closedEarly === undefined && Date.now() - started < 5_000) await sleep(10);
      assert.ok(upstream.requests[0]!.closedEarly !== undefined, 'the upstream connection was closed');
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  it('cuts off an upstream that stays open and quiet', async () => {
    const upstream = await rawUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(STREAM);
    });
    const proxy = await startTestProxy({ apiKey: key, baseUrl: upstream.url });
    try {
      const started = Date.now();
      const got = await ask(proxy.url, { message: 'hi', bot_id: 'demo', stream: true });
      assert.equal(replay(parseStream(got.text).events).end?.event, 'done');
      while (upstream.requests[0]!.closedEarly === undefined && Date.now() - started < 5_000) await sleep(10);
      const closedAfter = upstream.requests[0]!.closedEarly! - started;
      assert.ok(closedAfter < 3_000, `closed after ${closedAfter} ms`);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});
