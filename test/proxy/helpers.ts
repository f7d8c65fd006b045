import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxyHandler, serveNode, undiciUpstream, type NodeServer, type ProxyConfig, type ProxyHandler } from '../../packages/bot-answer-proxy/src/proxy/node.js';

/** Every key used in this test file, and every response body, header and log line seen. */
const keys = new Set<string>();
const seen: string[] = [];

/** A fresh, recognisable API key, remembered for the leak check. */
export function newKey(): string {
  const key = `sk-test-${crypto.randomUUID()}`;
  keys.add(key);
  return key;
}

export function remember(key: string): string {
  keys.add(key);
  return key;
}

/** Records text the client or the operator could see. */
export function observe(text: string): void {
  seen.push(text);
}

/** Fails if any key used in this file appears in anything observed. Call it from `after()`. */
export function assertNoKeyLeak(): void {
  assert.ok(seen.length > 0, 'nothing was observed');
  for (const key of keys) {
    for (const text of seen) assert.ok(!text.includes(key), `key leaked into: ${text.slice(0, 200)}`);
  }
}

/** A proxy on a random loopback port, logs collected (and observed). */
export interface TestProxy {
  url: string;
  handler: ProxyHandler;
  server: NodeServer;
  logs: string[];
  close(): Promise<void>;
}

export async function startTestProxy(config: Partial<ProxyConfig> & { baseUrl: string; apiKey: string }, serve: Parameters<typeof serveNode>[1] = {}): Promise<TestProxy> {
  remember(config.apiKey);
  const logs: string[] = [];
  const pooled = config.fetch || config.upstreamClient ? undefined : undiciUpstream();
  const handler = createProxyHandler({
    rateLimitPerMinute: 0,
    ...config,
    upstreamClient: config.upstreamClient ?? pooled,
    log: (line) => {
      logs.push(line);
      observe(line);
    },
  });
  const server = await serveNode(handler, { port: 0, log: (line) => observe(line), ...serve });
  return {
    url: server.url,
    handler,
    server,
    logs,
    async close() {
      await server.close();
      await pooled?.close();
    },
  };
}

/** What a client got back, with everything it could see observed for the leak check. */
export interface Got {
  status: number;
  headers: Headers;
  text: string;
  json(): any;
}

export async function send(url: string, init: RequestInit = {}): Promise<Got> {
  return received(await fetch(url, init));
}

/** Reads a response's body, observing it and its headers. */
export async function received(response: Response): Promise<Got> {
  const text = await response.text();
  observe(text);
  for (const [name, value] of response.headers) observe(`${name}: ${value}`);
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/** POSTs an answer request as JSON. */
export function ask(proxyUrl: string, body: unknown, headers: Record<string, string> = {}): Promise<Got> {
  return send(`${proxyUrl}/api/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** One parsed event of the project's stream. */
export interface ProtocolEvent {
  event: string;
  data: any;
}

/** Parses the project's stream strictly: every block is `event:` + one `data:` line, or a heartbeat comment. */
export function parseStream(text: string): { events: ProtocolEvent[]; heartbeats: number } {
  assert.ok(text.endsWith('\n\n'), 'the stream ends with a complete event');
  const events: ProtocolEvent[] = [];
  let heartbeats = 0;
  for (const block of text.slice(0, -2).split('\n\n')) {
    if (block.startsWith(':')) {
      heartbeats++;
      continue;
    }
    const match = /^event: (\w+)\ndata: (.*)$/.exec(block);
    assert.ok(match, `malformed block: ${JSON.stringify(block)}`);
    events.push({ event: match[1]!, data: JSON.parse(match[2]!) });
  }
  return { events, heartbeats };
}

/** The answer a client following the protocol would show, and how the stream ended. */
export function replay(events: ProtocolEvent[]): { text: string; sources: unknown[]; end: ProtocolEvent | undefined } {
  let text = '';
  let sources: unknown[] = [];
  let end: ProtocolEvent | undefined;
  for (const e of events) {
    assert.equal(end, undefined, 'nothing follows the terminal event');
    if (e.event === 'delta') text += e.data.text;
    else if (e.event === 'replace') text = e.data.text;
    else if (e.event === 'sources') sources = e.data.sources;
    else if (e.event === 'done' || e.event === 'error') end = e;
    else assert.fail(`unknown event ${e.event}`);
  }
  return { text, sources, end };
}

/** A raw upstream for tests: every request is recorded and answered by `handle`. */
export interface RawUpstream {
  url: string;
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string; closedEarly?: number }[];
  server: Server;
  close(): Promise<void>;
}

export async function rawUpstream(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>): Promise<RawUpstream> {
  const requests: RawUpstream['requests'] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const record: RawUpstream['requests'][number] = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() };
    requests.push(record);
    res.once('close', () => {
      if (!res.writableFinished) record.closedEarly = Date.now();
    });
    try {
      await handle(req, res, record.body);
    } catch {
      res.destroy();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes `wire` to `res` in the given pieces, each its own socket write, flushed before the next. */
export async function writePieces(res: ServerResponse, pieces: Uint8Array[], pauseMs = 0): Promise<void> {
  for (const piece of pieces) {
    if (res.destroyed) return;
    if (!res.write(piece)) await once(res, 'drain');
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/** Splits bytes into pieces by a strategy: every byte, random sizes, or at given offsets. */
export function chunk(bytes: Uint8Array, strategy: 'whole' | 'bytes' | 'random' | number[], seed = 1): Uint8Array[] {
  if (strategy === 'whole') return [bytes];
  if (strategy === 'bytes') return Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
  const cuts: number[] = [];
  if (strategy === 'random') {
    let state = seed;
    const next = () => ((state = (state * 1103515245 + 12345) % 2147483648), state / 2147483648);
    for (let at = 0; at < bytes.length; ) cuts.push((at += 1 + Math.floor(next() * 7)));
  } else cuts.push(...strategy);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length), bytes.length]) {
    if (cut > from) pieces.push(bytes.subarray(from, cut));
    from = Math.max(from, cut);
  }
  return pieces;
}

/** A raw HTTP request (for bodies fetch cannot send: chunked without length, lying lengths, slow senders). */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: (write: (chunk: string | Buffer) => boolean) => Promise<void> | void }): Promise<{ status: number; headers: IncomingMessage['headers']; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        observe(text);
        observe(JSON.stringify(res.headers));
        resolve({ status: res.statusCode!, headers: res.headers, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    void (async () => {
      try {
        await options.body?.((c) => req.write(c));
      } catch {
        // the server may close the connection while the body is being written
      }
      req.end();
    })();
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An upstream that answers every request with one short, complete JSON answer. */
export function okUpstream(): Promise<RawUpstream> {
  return rawUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"answer":"ok","answer_found":true,"sources":[]}');
  });
}
