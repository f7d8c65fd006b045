import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A hostile Answer API this suite controls byte by byte. Each request is answered by a
 * {@link Script} chosen from the request body (usually by its `message`), so one server
 * plays every dialect, chunking and fault.
 */

/** How the response ends once its chunks are written. */
export type Ending =
  /** A clean end of the body. */
  | 'end'
  /** The connection is destroyed without finishing the body. */
  | 'reset'
  /** Nothing more is written; the connection stays open until the client goes away. */
  | 'stall';

export interface Script {
  status?: number;
  headers?: Record<string, string | string[]>;
  /** Wait this long before sending the status line and headers. */
  headerDelayMs?: number;
  /** Body pieces, each written with its own `write`. */
  chunks?: Array<Uint8Array | string>;
  /** Pause between writes: 0 waits a macrotask so writes tend to leave as separate packets. */
  gapMs?: number;
  /** After the chunks, keep writing what this returns (every `gapMs`) until the client goes away. */
  forever?: () => Uint8Array | string;
  ending?: Ending;
}

/** One request as this server saw it. */
export interface SeenRequest {
  id: number;
  body: unknown;
  headers: IncomingHttpHeaders;
  /** The Authorization header matched the expected key. */
  keyOk: boolean;
  startedAt: number;
  /** The client (the proxy) went away before the script finished. */
  abortedAt?: number;
  finishedAt?: number;
}

export interface HostileUpstream {
  url: string;
  requests: SeenRequest[];
  /** Requests whose response is still being written. */
  open(): number;
  /** Resolves once no response is open (or rejects after `timeoutMs`). */
  settled(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface HostileUpstreamOptions {
  /** The key the proxy must send; requests without it get a 401 that echoes the key it got (a leaky upstream). */
  key: string;
  script(body: unknown, request: SeenRequest): Script;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Waits for `drain` or `close`, whichever comes first, without leaving a listener behind. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export async function startHostileUpstream(options: HostileUpstreamOptions): Promise<HostileUpstream> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let openCount = 0;
  const waiters = new Set<() => void>();
  const onSettle = () => {
    if (openCount === 0) for (const w of waiters) w();
  };

  const server = createServer(async (req, res) => {
    const seen: SeenRequest = { id: requests.length + 1, body: undefined, headers: req.headers, keyOk: req.headers.authorization === `Bearer ${options.key}`, startedAt: Date.now() };
    requests.push(seen);
    openCount++;
    let gone = false;
    res.on('close', () => {
      if (!res.writableFinished && seen.abortedAt === undefined && seen.finishedAt === undefined) seen.abortedAt = Date.now();
      gone = true;
      openCount--;
      onSettle();
    });
    try {
      const raw: Buffer[] = [];
      for await (const piece of req) raw.push(piece as Buffer);
      try {
        seen.body = JSON.parse(Buffer.concat(raw).toString('utf8'));
      } catch {
        seen.body = undefined;
      }
      if (!seen.keyOk) {
        // A careless upstream that echoes the credential it was given: the proxy must not pass this on.
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: `Invalid API key: ${req.headers.authorization ?? ''}` }));
        seen.finishedAt = Date.now();
        return;
      }
      await play(options.script(seen.body, seen), res, () => gone);
      if (!gone) seen.finishedAt = Date.now();
    } catch {
      res.destroy();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    open: () => openCount,
    settled: (timeoutMs = 5000) =>
      new Promise<void>((resolve, reject) => {
        if (openCount === 0) return resolve();
        const timer = setTimeout(() => {
          waiters.delete(done);
          reject(new Error(`hostile upstream: ${openCount} responses still open after ${timeoutMs} ms`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        };
        waiters.add(done);
      }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function play(script: Script, res: ServerResponse, gone: () => boolean): Promise<void> {
  if (script.headerDelayMs) await delay(script.headerDelayMs);
  if (gone()) return;
  res.writeHead(script.status ?? 200, script.headers ?? { 'content-type': 'text/event-stream' });
  res.flushHeaders();
  const gap = script.gapMs ?? -1;
  for (const chunk of script.chunks ?? []) {
    if (gone()) return;
    const ok = res.write(chunk);
    if (!ok) await drained(res);
    if (gap > 0) await delay(gap);
    else if (gap === 0) await tick();
  }
  if (script.forever) {
    while (!gone()) {
      const ok = res.write(script.forever());
      if (!ok) await drained(res);
      await delay(Math.max(1, gap));
    }
    return;
  }
  const ending = script.ending ?? 'end';
  if (ending === 'end') {
    await new Promise<void>((resolve) => res.end(resolve));
  } else if (ending === 'reset') {
    // Give the last write a moment to leave, then cut the connection mid-body.
    await delay(5);
    res.socket?.resetAndDestroy?.();
    res.destroy();
  } else {
    await new Promise<void>((resolve) => res.once('close', resolve));
  }
}
