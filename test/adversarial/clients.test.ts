import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startHostileUpstream, type HostileUpstream, type Script } from './support/hostile-upstream.js';
import { RUN } from './support/options.js';
import { mapPool, sleep, waitFor } from './support/pool.js';
import { ask, replay, type ProxyReply } from './support/proxy-client.js';
import { findKey, KEY } from './support/secret.js';
import { startProxy, type RunningProxy } from './support/system.js';
import { count } from './support/tally.js';

/**
 * Abusive clients against the real proxy over raw sockets: slow headers, slow bodies,
 * readers that never read, floods from one address, bodies at and over every limit,
 * invalid UTF-8, deep JSON, header floods, disallowed origins and bots, and a thousand
 * clients leaving mid-stream.
 */

const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 2000;
const DRAIN_TIMEOUT_MS = 1500;
const ALLOWED_ORIGIN = 'https://shop.example';

let upstream: HostileUpstream;
/**
 * Rate limit off and the client timeouts cut short (headers 1 s, request 2 s, a reader that
 * stopped 1.5 s, a quiet upstream 5 s): only for the tests of those timeouts. Elsewhere they
 * are at their defaults: a loaded machine stalls for a second or two, and then Node answered a
 * request already being handled with a 408 and the proxy dropped streams as readers that had
 * stopped (1 and 21 of the thousand streams, on 2 cores also running the content suite).
 */
let hasty: RunningProxy;
/** Rate limit off: for everything but the flood and the timeouts. */
let open: RunningProxy;
/** Default rate limit, allowed origins and bots. */
let strict: RunningProxy;
/** Trusts one proxy in front (X-Forwarded-For). */
let behindProxy: RunningProxy;
let upstreamBytesWritten = 0;

const okAnswer: Script = { chunks: ['event: delta\ndata: {"text":"fine"}\n\nevent: done\ndata: {"answer_found":true}\n\n'] };
const slowForever: Script = { chunks: ['event: delta\ndata: {"text":"start"}\n\n'], forever: () => 'event: delta\ndata: {"text":"."}\n\n', gapMs: 400 };
const bigText = 'event: delta\ndata: ' + JSON.stringify({ text: 'b'.repeat(64 * 1024) }) + '\n\n';
const flooding: Script = { chunks: [], forever: () => (upstreamBytesWritten += bigText.length, bigText), gapMs: 1 };

before(async () => {
  upstream = await startHostileUpstream({
    key: KEY,
    script: (body) => {
      const message = (body as { message?: string })?.message ?? '';
      if (message === 'slow-forever') return slowForever;
      if (message === 'flood-bytes') return flooding;
      return okAnswer;
    },
  });
  const common = { apiKey: KEY, baseUrl: upstream.url };
  hasty = await startProxy({ ...common, rateLimitPerMinute: 0, clientHeadersTimeoutMs: HEADERS_TIMEOUT_MS, clientRequestTimeoutMs: REQUEST_TIMEOUT_MS, drainTimeoutMs: DRAIN_TIMEOUT_MS, idleTimeoutMs: 5000 });
  open = await startProxy({ ...common, rateLimitPerMinute: 0 });
  strict = await startProxy({ ...common, rateLimitPerMinute: 20, allowedOrigins: [ALLOWED_ORIGIN], allowedBotIds: ['demo', 'docs'] });
  behindProxy = await startProxy({ ...common, rateLimitPerMinute: 20, trustProxy: 1 });
});

after(async () => {
  for (const p of [hasty, open, strict, behindProxy]) await p?.close();
  await upstream?.close();
  for (const p of [hasty, open, strict, behindProxy]) assert.deepEqual(findKey(p?.logs.join('\n') ?? '', 'proxy log'), []);
});

function checked(reply: ProxyReply, where: string): ProxyReply {
  count('abusiveRequests');
  assert.deepEqual(findKey(JSON.stringify(reply.headers) + reply.body, where), [], 'key leaked');
  if (reply.status >= 400) assert.match(reply.body, /^\{"error":\{"code":"[a-z_]+","message":"[^"]+"/, `${where}: unclear error body ${reply.body.slice(0, 200)}`);
  return reply;
}

/** Opens a raw socket to a proxy. */
function rawSocket(url: string, localAddress = '127.0.0.1'): Promise<Socket> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with what the server sent and how long the socket lived, once it closes (or after `limitMs`). */
function untilClosed(socket: Socket, limitMs: number): Promise<{ text: string; ms: number; closed: boolean }> {
  const started = Date.now();
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => {});
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString(), ms: Date.now() - started, closed: false });
    }, limitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString(), ms: Date.now() - started, closed: true });
    });
  });
}

describe('slow clients are cut off while others are served', () => {
  test('slowloris: 200 connections trickling headers are closed; a normal client is served meanwhile', async () => {
    const sockets = await Promise.all(Array.from({ length: 200 }, () => rawSocket(hasty.url)));
    const results = sockets.map((s) => untilClosed(s, HEADERS_TIMEOUT_MS + 4000));
    const trickles = sockets.map((s) => {
      s.write('POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      let n = 0;
      return setInterval(() => {
        if (!s.destroyed) s.write(`X-Slow-${n++}: a\r\n`);
      }, 200);
    });
    await sleep(300);
    const served = checked(await ask(hasty.url, { message: 'during slowloris', timeoutMs: 3000 }), 'slowloris bystander');
    const closed = await Promise.all(results);
    trickles.forEach(clearInterval);
    count('abusiveRequests', 200);
    assert.equal(served.status, 200);
    assert.equal(replay(served.events).terminal, 'done');
    assert.ok(closed.every((c) => c.closed), `${closed.filter((c) => !c.closed).length} slowloris sockets still open`);
    assert.ok(closed.every((c) => !c.text.includes('200 OK')));
  });

  test('slow body: a request whose body trickles in is cut off by the request timeout', async () => {
    const socket = await rawSocket(hasty.url);
    const result = untilClosed(socket, REQUEST_TIMEOUT_MS + 4000);
    const body = JSON.stringify({ message: 'slow body', bot_id: 'demo', stream: true });
    socket.write(`POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    let i = 0;
    const timer = setInterval(() => {
      if (i < body.length && !socket.destroyed) socket.write(body[i++]!);
    }, 300);
    const closed = await result;
    clearInterval(timer);
    count('abusiveRequests');
    assert.ok(closed.closed, 'slow body socket still open');
    assert.ok(!closed.text.includes('event: done'), 'a trickled body was answered');
  });

  test('a reader that never reads: the proxy applies back-pressure and drops it, aborting the upstream', async () => {
    const before = upstream.requests.length;
    upstreamBytesWritten = 0;
    const socket = await rawSocket(hasty.url);
    const body = JSON.stringify({ message: 'flood-bytes', bot_id: 'demo', stream: true });
    socket.write(`POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    socket.pause();
    const closed = untilClosed(socket, 15_000);
    socket.pause();
    await waitFor(() => upstream.requests[before]?.abortedAt !== undefined, 12_000);
    const seen = upstream.requests[before]!;
    count('abusiveRequests');
    assert.ok(seen.abortedAt !== undefined, 'upstream request still running for a client that never reads');
    // Without back-pressure the proxy would have pulled the upstream as fast as it could write (gigabytes).
    assert.ok(upstreamBytesWritten < 64 * 1024 * 1024, `the proxy pulled ${upstreamBytesWritten} bytes for a client that read nothing`);
    socket.destroy();
    await closed;
  });
});

describe('rate limit holds against a flood from one address, others still served', () => {
  test(`${RUN.floodRequests} requests from one address, with others asking meanwhile`, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 64, localAddress: '127.0.0.9' } as ConstructorParameters<typeof Agent>[0]);
    const statuses = new Map<number, number>();
    let retryAfterMissing = 0;
    const others: Promise<ProxyReply>[] = [];
    const began = Date.now();
    const flood = mapPool(
      Array.from({ length: RUN.floodRequests }, (_, i) => i),
      64,
      (i) =>
        new Promise<void>((resolve) => {
          // Spoofed X-Forwarded-For must not split one client into many when no proxy is trusted.
          const req = request(`${strict.url}/api/answer`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.${i % 250}.${i % 200}` } }, (res) => {
            statuses.set(res.statusCode!, (statuses.get(res.statusCode!) ?? 0) + 1);
            if (res.statusCode === 429 && !(Number(res.headers['retry-after']) >= 1)) retryAfterMissing++;
            res.resume();
            res.on('end', resolve);
            res.on('error', () => resolve());
          });
          req.on('error', () => {
            statuses.set(-1, (statuses.get(-1) ?? 0) + 1);
            resolve();
          });
          req.end(JSON.stringify({ message: `flood ${i}`, bot_id: 'demo', stream: i % 2 === 0 }));
          if (i % 500 === 250) others.push(ask(strict.url, { message: `bystander ${i}`, localAddress: `127.0.1.${others.length + 1}`, headers: { origin: ALLOWED_ORIGIN } }));
        }),
    );
    await flood;
    // The limit is 20 a minute: a flood slowed past a minute (a busy machine) meets a new minute's 20.
    const minutes = 1 + Math.floor((Date.now() - began) / 60_000);
    const bystanders = await Promise.all(others);
    agent.destroy();
    count('abusiveRequests', RUN.floodRequests);
    count('rateLimited', statuses.get(429) ?? 0);
    count('othersServedDuringFlood', bystanders.filter((b) => b.status === 200).length);
    assert.ok((statuses.get(200) ?? 0) <= 20 * minutes, `more than the limit got through in ${minutes} minute(s): ${JSON.stringify([...statuses])}`);
    assert.equal(statuses.get(429), RUN.floodRequests - (statuses.get(200) ?? 0), JSON.stringify([...statuses]));
    assert.equal(retryAfterMissing, 0);
    assert.ok(bystanders.length >= 10);
    for (const b of bystanders) assert.equal(checked(b, 'bystander').status, 200, b.body);
  });

  test('behind a trusted proxy, only the rightmost X-Forwarded-For entry counts (prepending does not bypass)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const reply = checked(await ask(behindProxy.url, { message: `xff ${i}`, headers: { 'x-forwarded-for': `${i}.1.1.1, 203.0.113.7` } }), 'xff flood');
      statuses.push(reply.status);
    }
    assert.equal(statuses.filter((s) => s === 200).length, 20, statuses.join(','));
    const other = checked(await ask(behindProxy.url, { message: 'xff other', headers: { 'x-forwarded-for': '203.0.113.8' } }), 'xff other');
    assert.equal(other.status, 200);
  });
});

describe('bodies, encodings and headers at and over every limit', () => {
  const post = (rawBody: string | Buffer, headers: Record<string, string> = {}) => ask(open.url, { rawBody, headers, timeoutMs: 5000 }).then((r) => checked(r, 'limits'));
  const padTo = (bytes: number, message = 'pad') => {
    const base = JSON.stringify({ message, bot_id: 'demo', stream: false, pad: '' });
    return base.replace('"pad":""', `"pad":"${'p'.repeat(bytes - Buffer.byteLength(base))}"`);
  };

  test('body exactly at the 32 KiB limit is accepted; one byte over is 413', async () => {
    assert.equal((await post(padTo(32 * 1024))).status, 200);
    const over = await post(padTo(32 * 1024 + 1));
    assert.equal(over.status, 413);
    assert.match(over.body, /payload_too_large/);
  });

  test('a huge chunked body and a lying Content-Length are refused without reading it all', async () => {
    const socket = await rawSocket(open.url);
    const result = untilClosed(socket, 5000);
    socket.write('POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    const piece = 'x'.repeat(64 * 1024);
    let sent = 0;
    while (!socket.destroyed && sent < 64 * 1024 * 1024) {
      if (!socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`)) await new Promise((r) => setTimeout(r, 5));
      sent += piece.length;
      if (sent % (4 * 1024 * 1024) === 0) await sleep(1);
    }
    const closed = await result;
    count('abusiveRequests');
    assert.match(closed.text, /^HTTP\/1\.1 413/);
    assert.ok(sent < 64 * 1024 * 1024 || closed.closed);
    // Content-Length says 100, 40 KiB follow: the first 100 bytes are a broken JSON body (400), the rest never becomes a request.
    const liar = await rawSocket(open.url);
    const lied = untilClosed(liar, 5000);
    liar.write(`POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n${padTo(40 * 1024)}`);
    const lyingReply = await lied;
    count('abusiveRequests');
    // Node's parser rejects the bytes after the declared body (400, no JSON body: an HTTP framing error, not an API error).
    assert.match(lyingReply.text, /^HTTP\/1\.1 400/);
    assert.doesNotMatch(lyingReply.text, /HTTP\/1\.1 200/);
  });

  test('message at the 4000-character limit passes; 4001 is a 400 message_too_long', async () => {
    assert.equal((await post(JSON.stringify({ message: 'm'.repeat(4000), bot_id: 'demo', stream: false }))).status, 200);
    const over = await post(JSON.stringify({ message: 'm'.repeat(4001), bot_id: 'demo', stream: false }));
    assert.equal(over.status, 400);
    assert.match(over.body, /message_too_long/);
  });

  test('invalid UTF-8, deep JSON, wrong types and media types get clear errors, never a 500', async () => {
    const bad: Array<[string | Buffer, Record<string, string>?]> = [
      [Buffer.concat([Buffer.from('{"message":"'), Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80]), Buffer.from('","bot_id":"demo"}')])],
      [Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('{"message":"bom","bot_id":"demo","stream":false}')])],
      ['{"message":"x","bot_id":"demo","deep":' + '['.repeat(16_000) + ']'.repeat(16_000) + '}'],
      ['{"message":"x","bot_id":"demo","deep":' + '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000) + '}'],
      ['['.repeat(30_000)],
      ['{"message":{"toString":"x"},"bot_id":"demo"}'],
      ['{"message":"x","bot_id":["demo"]}'],
      ['{"message":"x","bot_id":"demo","stream":"yes"}'],
      ['{"message":"x","bot_id":"demo","__proto__":{"stream":true}}'],
      ['{"message":"x","bot_id":"demo"}', { 'content-type': 'text/plain' }],
      ['{"message":"x","bot_id":"demo"}', { 'content-type': 'application/json; charset=utf-16' }],
      ['message=x&bot_id=demo', { 'content-type': 'application/x-www-form-urlencoded' }],
      [''],
      ['null'],
      ['{"message":"\\ud800","bot_id":"demo","stream":false}'],
      ['{"message":"' + '\\u0000'.repeat(100) + '","bot_id":"demo","stream":false}'],
      ['{"message":"   ","bot_id":"demo"}'],
      ['{"message":"x","bot_id":"' + 'b'.repeat(10_000) + '"}'],
    ];
    const statuses: number[] = [];
    for (const [body, headers] of bad) {
      const reply = await post(body, headers);
      statuses.push(reply.status);
      assert.ok(reply.status > 0 && reply.status !== 500, `status ${reply.status} for ${String(body).slice(0, 40)}`);
    }
    const health = await ask(open.url, { method: 'GET', path: '/healthz', rawBody: '' });
    assert.equal(health.status, 200);
  });

  test('header floods: oversized and very many headers are refused, the server lives on', async () => {
    for (const raw of [
      `POST /api/answer HTTP/1.1\r\nHost: x\r\nX-Big: ${'h'.repeat(64 * 1024)}\r\n\r\n`,
      `POST /api/answer HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`,
      `POST /api/answer HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 50\r\n\r\nhello`,
      `POST /api/answer HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`,
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Inject: a\nb: c\r\n\r\n`,
    ]) {
      const socket = await rawSocket(open.url);
      const result = untilClosed(socket, 5000);
      socket.write(raw);
      const closed = await result;
      count('abusiveRequests');
      assert.ok(!/^HTTP\/1\.1 (2|5)/.test(closed.text), `answered ${closed.text.slice(0, 40)} to ${raw.slice(0, 60)}`);
    }
    const health = await ask(open.url, { method: 'GET', path: '/healthz', rawBody: '' });
    assert.equal(health.status, 200);
  });

  test('disallowed origins, lookalike origins and bots are refused; preflight allows only the listed origin', async () => {
    for (const origin of ['https://evil.example', 'null', 'https://shop.example.evil.example', 'http://shop.example', 'https://shop.example:444', 'https://SHOP.example.', 'https://shop.example/']) {
      const reply = checked(await ask(strict.url, { message: 'o', headers: { origin }, localAddress: '127.0.2.1' }), 'origin');
      assert.equal(reply.status, 403, `${origin}: ${reply.status}`);
      assert.equal(reply.headers['access-control-allow-origin'], undefined);
      const pre = checked(await ask(strict.url, { method: 'OPTIONS', rawBody: '', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' }, localAddress: '127.0.2.2' }), 'preflight');
      assert.notEqual(pre.headers['access-control-allow-origin'], origin);
      assert.notEqual(pre.headers['access-control-allow-origin'], '*');
    }
    const good = checked(await ask(strict.url, { message: 'o', headers: { origin: ALLOWED_ORIGIN }, localAddress: '127.0.2.3' }), 'good origin');
    assert.equal(good.status, 200);
    assert.equal(good.headers['access-control-allow-origin'], ALLOWED_ORIGIN);
    for (const bot_id of ['other', 'DEMO', 'demo ', '../demo', 'demo\u0000']) {
      const reply = checked(await ask(strict.url, { message: 'b', bot_id, localAddress: '127.0.2.4' }), 'bot');
      assert.ok([400, 403].includes(reply.status), `${JSON.stringify(bot_id)}: ${reply.status}`);
    }
  });
});

/** "3 a, 1 b": how many times each of `keys` occurs, in the order first seen. */
function tally(keys: string[]): string {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts].map(([key, count]) => `${count} ${key}`).join(', ');
}

/** How the proxy's requests that ended while all were meant to stay open ended, from its log lines (its `outcome` and `code`). */
function endedEarly(lines: string[]): string {
  const ends: string[] = [];
  for (const line of lines) {
    let record: { outcome?: string; code?: string };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    if (record.outcome) ends.push(`${record.outcome}${record.code ? ` (${record.code})` : ''}`);
  }
  return ends.length ? `the proxy ended: ${tally(ends)}` : 'the proxy logged no request ending';
}

describe('a thousand clients leave mid-stream', () => {
  test(`${RUN.disconnectingClients} streams cut by their clients: every upstream request aborted, handles back to baseline`, async () => {
    await ask(open.url, { message: 'warm up' });
    await upstream.settled(5000);
    await sleep(200);
    const baseline = resources();
    const before = upstream.requests.length;
    const logsBefore = open.logs.length;
    const n = RUN.disconnectingClients;
    const sockets: Socket[] = [];
    // What the clients saw before the cut, for the failure message: each first line, and sockets closed.
    const firstLines: string[] = [];
    let closedEarly = 0;
    let cut = false;
    const body = JSON.stringify({ message: 'slow-forever', bot_id: 'demo', stream: true });
    await mapPool(
      Array.from({ length: n }, (_, i) => i),
      100,
      async (i) => {
        const socket = await rawSocket(open.url, `127.0.${3 + Math.floor(i / 250)}.${1 + (i % 250)}`);
        sockets.push(socket);
        socket.on('error', () => {});
        socket.once('close', () => void (cut || closedEarly++));
        const gotData = new Promise<void>((resolve) =>
          socket.once('data', (data: Buffer) => {
            firstLines.push(`"${data.toString('latin1').split('\r\n', 1)[0]!}"`);
            resolve();
          }),
        );
        socket.write(`POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
        await gotData;
      },
    );
    const allOpen = await waitFor(() => upstream.requests.length - before === n && upstream.open() >= n, 10_000);
    assert.ok(allOpen, `upstream saw ${upstream.requests.length - before} of ${n}, ${upstream.open()} still open; ${endedEarly(open.logs.slice(logsBefore))}; clients got ${tally(firstLines)}; ${closedEarly} closed before the cut`);
    cut = true;
    const cutAt = Date.now();
    for (const s of sockets) s.destroy();
    const allAborted = await waitFor(() => upstream.requests.slice(before).every((r) => r.abortedAt !== undefined), 10_000);
    const aborted = upstream.requests.slice(before).filter((r) => r.abortedAt !== undefined);
    count('disconnectsAborted', aborted.length);
    count('abusiveRequests', n);
    assert.ok(allAborted, `${n - aborted.length} upstream requests still running`);
    const latest = Math.max(...aborted.map((r) => r.abortedAt! - cutAt));
    assert.ok(latest < 5000, `last abort seen ${latest} ms after the cut`);
    await upstream.settled(5000);
    // Sockets and timers go back to what they were before the thousand streams (small slack for pooled keep-alive sockets).
    const back = await waitFor(() => {
      const now = resources();
      return now.sockets <= baseline.sockets + 4 && now.timers <= baseline.timers + 4;
    }, 10_000, 100);
    assert.ok(back, `handles not back to baseline: before ${JSON.stringify(baseline)}, after ${JSON.stringify(resources())}`);
  });
});

function resources(): { sockets: number; timers: number } {
  const info = process.getActiveResourcesInfo();
  return { sockets: info.filter((r) => r === 'TCPSocketWrap').length, timers: info.filter((r) => r === 'Timeout').length };
}
