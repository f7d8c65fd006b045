import type { Duplex } from 'node:stream';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProxyError } from './errors.js';
import type { HandlerContext, WebHandler } from './handler.js';
import { ACCEPTS_LIGHT, LIGHT, LightResponse, LightSignal, type ClientSignal, type LightRequest, type StreamSink, type StreamSource } from './light.js';
import { webStreamOf } from './node-body.js';
import { RawHeaders } from './raw-headers.js';

/** Options of {@link serveNode}. */
export interface ServeNodeOptions {
  /** Port to listen on; 0 picks a free one. Default 8787. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Time a client has to send its request headers (Node's `headersTimeout`). Default 10000 ms. */
  clientHeadersTimeoutMs?: number;
  /** Time a client has to send its whole request (Node's `requestTimeout`). Default 30000 ms. */
  clientRequestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open. Default 5000 ms. */
  keepAliveTimeoutMs?: number;
  /** How long a response may wait for a client that stopped reading before the connection is dropped. Default 30000 ms. */
  drainTimeoutMs?: number;
  /** On close: how long open responses may run before they are ended. Default 10000 ms. */
  shutdownTimeoutMs?: number;
  /**
   * Called on close with the deadline, to end long responses gracefully (e.g. a proxy
   * handler's `shutdown`). Default: `handler.shutdown` when the handler has one.
   */
  onShutdown?: (deadlineMs: number) => Promise<void>;
  /** Close gracefully on SIGTERM and SIGINT, then exit the process. Default false. */
  handleSignals?: boolean;
  /** Server log lines (listening, shutdown). Default `console.log`; `false` silences. */
  log?: ((line: string) => void) | false;
}

/** A running Node server. */
export interface NodeServer {
  server: Server;
  /** e.g. `http://127.0.0.1:8787` */
  url: string;
  port: number;
  /** Stops accepting, lets open responses finish (up to the shutdown deadline), then closes every connection. */
  close(): Promise<void>;
}

// Hop-by-hop headers describe one connection and are never copied across it.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-authenticate', 'proxy-authorization']);

/** Options of {@link createNodeListener}. */
export interface NodeListenerOptions {
  /** Host for request URLs when the client sends no Host header. Default `localhost`. */
  host?: string;
  /** How long a write may wait for a client that stopped reading before the response is dropped. Default 30 s. */
  drainTimeoutMs?: number;
  /** Whether the server is shutting down (responses then close their connection). */
  closing?: () => boolean;
}

/**
 * Turns a Web-standard handler into a `node:http` request listener `(req, res)`, usable as
 * `http.createServer(listener)` or as an Express/Connect route: converts the request, aborts its
 * signal when the client goes away, and streams the response with back-pressure.
 */
export function createNodeListener(handler: WebHandler, options: NodeListenerOptions = {}): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const host = options.host ?? 'localhost';
  const drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
  const closing = options.closing ?? (() => false);
  // The proxy's own handler takes the light request (see light.ts); any other gets a real Request.
  const light = (handler as { [ACCEPTS_LIGHT]?: boolean })[ACCEPTS_LIGHT] === true;
  const lightHandler = handler as unknown as (request: LightRequest, context: HandlerContext) => Promise<Response | LightResponse>;
  return serve;

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The proxy's handler gets a plain object for a signal: an AbortSignal is an EventTarget, heavy to keep per open stream.
    const gone = light ? new LightSignal() : new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    let response: Response | LightResponse;
    try {
      const context: HandlerContext = { clientAddress: req.socket.remoteAddress };
      response = light ? await lightHandler(new NodeLightRequest(req, gone as LightSignal, host), context) : await handler(toRequest(req, (gone as AbortController).signal, host), context);
    } catch {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end('{"error":{"code":"internal","message":"Something went wrong on the server."}}');
      }
      return;
    }
    await writeResponse(req, res, response);
  }

  async function writeResponse(req: IncomingMessage, res: ServerResponse, response: Response | LightResponse): Promise<void> {
    if (response instanceof LightResponse) return writeLightResponse(req, res, response);
    if (res.destroyed) {
      response.body?.cancel().catch(() => {});
      return;
    }
    res.statusCode = response.status;
    for (const [name, value] of response.headers) {
      if (HOP_BY_HOP.has(name) || name === 'set-cookie') continue;
      res.setHeader(name, value);
    }
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) res.setHeader('set-cookie', cookies);
    // An unread request body (e.g. refused as too large) must not be parsed as the next request.
    if (!req.complete || closing()) res.setHeader('connection', 'close');
    if (!response.body || req.method === 'HEAD') {
      response.body?.cancel().catch(() => {});
      res.end();
      return;
    }
    const isStream = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    if (!isStream && response.headers.has('content-length')) {
      // A complete body in one write: faster than streaming it chunk by chunk.
      const buffer = Buffer.from(await response.arrayBuffer());
      res.end(buffer);
      return;
    }
    if (isStream) res.flushHeaders();
    await pump(res, response.body);
  }

  /** The fast path: headers in one call, a complete body in one write. */
  async function writeLightResponse(req: IncomingMessage, res: ServerResponse, response: LightResponse): Promise<void> {
    const body = response.body;
    if (res.destroyed) {
      cancelBody(body);
      return;
    }
    const headers = response.headers;
    // An unread request body (e.g. refused as too large) must not be parsed as the next request.
    if (!req.complete || closing()) headers.connection = 'close';
    res.writeHead(response.status, headers);
    if (body === null || req.method === 'HEAD') {
      cancelBody(body);
      res.end();
    } else if (body instanceof Uint8Array) res.end(body);
    else if (body instanceof ReadableStream) {
      res.flushHeaders();
      await pump(res, body);
    } else {
      res.flushHeaders();
      new ResponseSink(res, body, drainTimeoutMs).start();
    }
  }

  /** Streams `body` to the client, waiting for `drain` when it does not keep up. */
  async function pump(res: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const onClose = () => reader.cancel().catch(() => {});
    res.once('close', onClose);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || res.destroyed) break;
        if (!res.write(value) && !(await drained(res, drainTimeoutMs))) {
          reader.cancel().catch(() => {});
          res.destroy();
          return;
        }
      }
      res.end();
    } catch {
      res.destroy();
    } finally {
      res.off('close', onClose);
    }
  }
}

function cancelBody(body: LightResponse['body']): void {
  if (body instanceof ReadableStream) body.cancel().catch(() => {});
  else if (body !== null && !(body instanceof Uint8Array)) body.cancel();
}

/**
 * Writes a {@link StreamSource} to a Node response: text goes straight to `res.write`; when the
 * client does not keep up the source waits for `drain` (dropping the client after
 * `drainTimeoutMs`); when the client goes away the source is cancelled.
 */
class ResponseSink implements StreamSink {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onDrain = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.source.resume();
  };
  private readonly onClose = (): void => {
    clearTimeout(this.timer);
    this.res.off('drain', this.onDrain);
    this.source.cancel();
  };

  constructor(
    private readonly res: ServerResponse,
    private readonly source: StreamSource,
    private readonly drainTimeoutMs: number,
  ) {}

  start(): void {
    this.res.once('close', this.onClose);
    this.source.start(this);
  }

  write(text: string): boolean {
    const res = this.res;
    if (res.destroyed) return false;
    if (res.write(text)) return true;
    res.once('drain', this.onDrain);
    this.timer = setTimeout(() => res.destroy(), this.drainTimeoutMs);
    return false;
  }

  end(): void {
    this.res.off('close', this.onClose);
    this.res.end();
  }
}

/** What the proxy's handler reads of a Node request, taken straight from the `IncomingMessage`. */
class NodeLightRequest implements LightRequest {
  readonly [LIGHT] = true as const;
  readonly method: string;
  readonly pathname: string;
  readonly headers: { get(name: string): string | null };
  private readonly path: string;
  private href: string | undefined;

  constructor(
    private readonly req: IncomingMessage,
    readonly signal: ClientSignal,
    private readonly fallbackHost: string,
  ) {
    this.method = req.method ?? 'GET';
    this.path = req.url && req.url.startsWith('/') ? req.url : '/';
    const end = this.path.search(/[?#]/);
    const path = end < 0 ? this.path : this.path.slice(0, end);
    // A plain path is already what the URL parser would make of it; anything else (dot segments, escapes) goes through it.
    this.pathname = /^[\w\-/]*$/.test(path) ? path : new URL(this.url).pathname;
    this.headers = new RawHeaders(req.rawHeaders);
  }

  get url(): string {
    return (this.href ??= absoluteUrl(this.path, this.req.headers.host, this.fallbackHost));
  }

  readBody(maxBytes: number): Promise<Uint8Array> {
    const req = this.req;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let total = 0;
      const stop = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onBroken);
        req.off('close', onBroken);
      };
      const onData = (chunk: Buffer) => {
        total += chunk.byteLength;
        if (total > maxBytes) {
          stop();
          // Stop reading; the response then closes the connection (see writeLightResponse).
          req.pause();
          reject(new ProxyError('body_too_large'));
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = () => {
        stop();
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
      };
      const onBroken = () => {
        stop();
        reject(new ProxyError('body_unreadable'));
      };
      req.on('data', onData);
      req.once('end', onEnd);
      req.once('error', onBroken);
      req.once('close', onBroken);
    });
  }
}

function absoluteUrl(path: string, host: string | undefined, fallbackHost: string): string {
  try {
    return new URL(path, `http://${host ?? fallbackHost}`).href;
  } catch {
    return new URL(path, `http://${fallbackHost}`).href;
  }
}

/**
 * Serves any Web-standard handler over `node:http`: converts each request, streams the
 * response with back-pressure, aborts the request's signal when the client goes away, and
 * shuts down gracefully.
 */
export function serveNode(handler: WebHandler & { shutdown?: (deadlineMs: number) => Promise<void> }, options: ServeNodeOptions = {}): Promise<NodeServer> {
  const host = options.host ?? '127.0.0.1';
  const drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 10_000;
  const log = options.log === false ? () => {} : (options.log ?? ((line: string) => console.log(line)));
  const onShutdown = options.onShutdown ?? (typeof handler.shutdown === 'function' ? handler.shutdown.bind(handler) : undefined);
  const inflight = new Set<ServerResponse>();
  let closing = false;
  const listener = createNodeListener(handler, { host, drainTimeoutMs, closing: () => closing });
  let idle: (() => void) | undefined;

  const server = createServer(
    {
      headersTimeout: options.clientHeadersTimeoutMs ?? 10_000,
      requestTimeout: options.clientRequestTimeoutMs ?? 30_000,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
      // Node checks the two timeouts above only this often (default 30 s): check every second.
      connectionsCheckingInterval: Math.min(1_000, options.clientHeadersTimeoutMs ?? 1_000),
      noDelay: true,
    },
    (req, res) => {
      inflight.add(res);
      res.once('close', () => {
        inflight.delete(res);
        if (inflight.size === 0) idle?.();
      });
      void listener(req, res);
    },
  );
  server.on('clientError', answerClientError);

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      let closed: Promise<void> | undefined;
      const close = () => (closed ??= shutdown());
      async function shutdown(): Promise<void> {
        closing = true;
        const stopped = new Promise<void>((done) => server.close(() => done()));
        server.closeIdleConnections();
        const allIdle = inflight.size === 0 ? Promise.resolve() : new Promise<void>((done) => (idle = done));
        let timer: ReturnType<typeof setTimeout> | undefined;
        // Grace after the deadline for the final error events to be written.
        const hardStop = new Promise<void>((done) => (timer = setTimeout(done, shutdownTimeoutMs + 2_000)));
        await Promise.race([Promise.all([onShutdown?.(shutdownTimeoutMs), allIdle]), hardStop]);
        clearTimeout(timer);
        server.closeAllConnections();
        await stopped;
      }
      if (options.handleSignals) {
        const onSignal = (signal: NodeJS.Signals) => {
          log(JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: `${signal}: shutting down`, open_requests: inflight.size }));
          process.once(signal, () => process.exit(1));
          void close().then(() => process.exit(0));
        };
        process.once('SIGTERM', onSignal);
        process.once('SIGINT', onSignal);
      }
      resolve({ server, url, port, close });
    });
  });
}

// Requests Node refuses before any handler runs (bad framing, oversized headers, slow clients)
// still get the contract's JSON error body rather than Node's empty default reply.
const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive.'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive.'],
};

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A response whose headers went out already must not get a second status line (Node's own check).
  if (error.code === 'ECONNRESET' || !socket.writable || (socket as { _httpMessage?: { _headerSent?: boolean } })._httpMessage?._headerSent) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Bad Request', 'The request is not valid HTTP.'];
  const body = JSON.stringify({ error: { code: 'bad_request', message } });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/** Resolves true when the response can take more, false when the client left or did not read in time. */
function drained(res: ServerResponse, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => finish(true);
    const onClose = () => finish(false);
    const timer = setTimeout(() => finish(false), timeoutMs);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/** A Web `Request` for a Node request; its body is read on demand and its signal aborts when the client leaves. */
export function toRequest(req: IncomingMessage, signal: AbortSignal, fallbackHost: string): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // a header value the Fetch API refuses carries nothing the handler needs
    }
  }
  const path = req.url && req.url.startsWith('/') ? req.url : '/';
  const url = absoluteUrl(path, req.headers.host, fallbackHost);
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (hasBody) {
    // Cancelling (e.g. a body over the limit) stops reading; the response then closes the connection.
    init.body = webStreamOf(req, () => req.pause());
    init.duplex = 'half';
  }
  return new Request(url, init);
}
