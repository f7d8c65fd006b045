import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { urlToHttpOptions } from 'node:url';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { BodyReader, UpstreamFetch, UpstreamResponse } from './config.js';
import { nodeReader, webStreamOf } from './node-body.js';

/** Options of {@link createNodeFetch}. */
export interface NodeFetchOptions {
  /** Most open sockets per upstream host. Default unlimited: a stream holds its socket for its whole life, so a cap would queue streams behind each other. */
  maxSockets?: number;
  /** Most idle sockets kept per upstream host. Default 64. */
  maxFreeSockets?: number;
}

/** A pooled upstream client; `close` destroys its idle sockets. */
export interface NodeFetch extends UpstreamFetch {
  close(): void;
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch`-like upstream client on `node:http` with keep-alive pooling: much cheaper per
 * request than the global `fetch`. It returns a light {@link UpstreamResponse} (not a full
 * `Response`), never follows redirects (a 3xx is returned as is), and honours `signal` while
 * headers and body arrive.
 */
export function createNodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? Infinity, maxFreeSockets: options.maxFreeSockets ?? 64, scheduling: 'lifo' as const, noDelay: true };
  const http = new HttpAgent(agentOptions);
  const https = new HttpsAgent(agentOptions);
  // Request options per URL, parsed once: the proxy calls one fixed URL, so the cache stays tiny.
  const targets = new Map<string, { secure: boolean; options: RequestOptions }>();

  const fetchFn = ((input: string, init: RequestInit = {}) =>
    new Promise<UpstreamResponse>((resolve, reject) => {
      let target = targets.get(input);
      if (!target) {
        const url = new URL(input);
        const secure = url.protocol === 'https:';
        target = { secure, options: { ...urlToHttpOptions(url), agent: secure ? https : http } };
        if (targets.size < 16) targets.set(input, target);
      }
      const secure = target.secure;
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(abortError());
      const headers = plainHeaders(init.headers);
      const body = typeof init.body === 'string' ? Buffer.from(init.body) : undefined;
      if (body) headers['content-length'] = String(body.byteLength);
      const method = init.method ?? 'GET';
      const req = (secure ? httpsRequest : httpRequest)({ ...target.options, method, headers }, (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 599) {
          res.destroy();
          return reject(new Error('The upstream answered with an invalid status.'));
        }
        const release = () => signal?.removeEventListener('abort', onAbort);
        res.once('end', release);
        res.once('close', release);
        resolve(new NodeUpstreamResponse(res, NULL_BODY.has(status) || method === 'HEAD'));
      });
      const onAbort = () => req.destroy(abortError());
      signal?.addEventListener('abort', onAbort, { once: true });
      req.once('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      });
      req.end(body);
    })) as NodeFetch;
  fetchFn.close = () => {
    http.destroy();
    https.destroy();
  };
  return fetchFn;
}

/** A Node response seen through the {@link UpstreamResponse} interface; the Web stream is made only if asked for. */
class NodeUpstreamResponse implements UpstreamResponse {
  readonly status: number;
  readonly type = 'basic';
  readonly headers: { get(name: string): string | null };
  private stream: ReadableStream<Uint8Array> | null | undefined;

  constructor(
    private readonly res: IncomingMessage,
    private readonly empty: boolean,
  ) {
    this.status = res.statusCode!;
    const raw = res.headers;
    this.headers = {
      get(name: string): string | null {
        const value = raw[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    };
    if (empty) res.resume();
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.stream === undefined) this.stream = this.empty ? null : webStreamOf(this.res);
    return this.stream;
  }

  reader(): BodyReader | null {
    if (this.stream !== undefined) return this.stream?.getReader() ?? null;
    this.stream = null;
    return this.empty ? null : nodeReader(this.res);
  }

  text(): Promise<string> {
    if (this.stream !== undefined || this.empty) return Promise.resolve('');
    this.stream = null;
    const res = this.res;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.once('error', reject);
      res.once('close', () => {
        if (!res.complete) reject(new Error('The upstream connection closed before the response ended.'));
      });
    });
  }
}

function plainHeaders(init: RequestInit['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!init) return headers;
  if (init instanceof Headers || Array.isArray(init)) new Headers(init).forEach((value, name) => (headers[name] = value));
  else for (const [name, value] of Object.entries(init as Record<string, string>)) headers[name.toLowerCase()] = value;
  return headers;
}

function abortError(): Error {
  return new DOMException('The upstream request was aborted.', 'AbortError');
}
