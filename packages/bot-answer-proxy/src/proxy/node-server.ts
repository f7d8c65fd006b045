import { once } from 'node:events';
import type { Duplex } from 'node:stream';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { logLine } from './access-log.js';
import type { WebHandler } from './handler.js';
import { deadline } from './timers.js';

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
  /** See {@link NodeListenerOptions.overrideGlobalObjects}; `startProxy` turns it on (it owns its process). */
  overrideGlobalObjects?: boolean;
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

/** Options of {@link createNodeListener}. */
export interface NodeListenerOptions {
  /** Host for request URLs when the client sends no Host header. Default `localhost`. */
  host?: string;
  /** How long a stream may wait for a client that stopped reading before the connection is dropped. Default 30 s. */
  drainTimeoutMs?: number;
  /** Whether the server is shutting down (responses then close their connection). */
  closing?: () => boolean;
  /**
   * Let `@hono/node-server` replace the global `Request` and `Response` with its lighter ones
   * (faster plain responses). Default false: a listener inside another server leaves globals alone.
   */
  overrideGlobalObjects?: boolean;
}

/**
 * Turns a Web-standard handler into a `node:http` request listener `(req, res)`, usable as
 * `http.createServer(listener)` or as an Express/Connect route, through `@hono/node-server`'s
 * adapter: a lazy `Request` (its signal aborts when the client goes away) and the response
 * streamed with back-pressure. The handler gets the socket's address as `clientAddress`.
 */
export function createNodeListener(handler: WebHandler, options: NodeListenerOptions = {}): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
  const closing = options.closing ?? (() => false);
  const listener = getRequestListener(
    async (request, env) => {
      const { incoming, outgoing } = env as { incoming: IncomingMessage; outgoing: ServerResponse };
      const response = await handler(request, { clientAddress: incoming.socket.remoteAddress });
      // An unread request body (e.g. refused as too large) must not be parsed as the next request.
      if (!incoming.complete || closing()) response.headers.set('connection', 'close');
      // While the response is written, a quiet socket is a client that stopped reading (a stream sends
      // heartbeats); once it is done, the server's keep-alive timeout takes over.
      outgoing.setTimeout(drainTimeoutMs, () => outgoing.destroy());
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
        // The adapter flushes a stream's headers on their own: held until the first event is written (in this turn of
        // the event loop, when it is ready), both leave in one write.
        const socket = incoming.socket;
        socket.cork();
        setImmediate(() => socket.uncork());
      }
      return response;
    },
    { hostname: options.host ?? 'localhost', overrideGlobalObjects: options.overrideGlobalObjects ?? false },
  );
  return (req, res) => listener(req, res) as Promise<void>;
}

/**
 * Serves any Web-standard handler over `node:http`: converts each request, streams the
 * response with back-pressure, aborts the request's signal when the client goes away, and
 * shuts down gracefully.
 */
export async function serveNode(handler: WebHandler & { shutdown?: (deadlineMs: number) => Promise<void> }, options: ServeNodeOptions = {}): Promise<NodeServer> {
  const host = options.host ?? '127.0.0.1';
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 10_000;
  const log = options.log === false ? () => {} : (options.log ?? ((line: string) => console.log(line)));
  const onShutdown = options.onShutdown ?? (typeof handler.shutdown === 'function' ? handler.shutdown.bind(handler) : undefined);
  const inflight = new Set<ServerResponse>();
  let closing = false;
  const listener = createNodeListener(handler, { host, drainTimeoutMs: options.drainTimeoutMs, closing: () => closing, overrideGlobalObjects: options.overrideGlobalObjects });
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

  server.listen(options.port ?? 8787, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= shutdown());
  async function shutdown(): Promise<void> {
    closing = true;
    const stopped = new Promise<void>((done) => server.close(() => done()));
    server.closeIdleConnections();
    const allIdle = inflight.size === 0 ? Promise.resolve() : new Promise<void>((done) => (idle = done));
    // Grace after the deadline for the final error events to be written.
    await deadline<unknown>(Promise.all([onShutdown?.(shutdownTimeoutMs), allIdle]), shutdownTimeoutMs + 2_000, () => undefined);
    server.closeAllConnections();
    await stopped;
  }
  if (options.handleSignals) exitOnSignals(close, log, () => ({ open_requests: inflight.size }));
  return { server, url, port, close };
}

/** On SIGTERM or SIGINT: logs it, closes gracefully, then exits; a second signal exits at once. */
export function exitOnSignals(close: () => Promise<void>, log: (line: string) => void, open: () => Record<string, number>): void {
  const onSignal = (signal: NodeJS.Signals) => {
    log(logLine('info', `${signal}: shutting down`, open()));
    process.once(signal, () => process.exit(1));
    void close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
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
