import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { urlToHttpOptions } from 'node:url';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { BodyReader, UpstreamFetch, UpstreamResponse } from './config.js';
import { ACCEPTS_LIGHT_SIGNAL } from './light.js';
import { nodeReader, webStreamOf } from './node-body.js';
import { RawHeaders } from './raw-headers.js';

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
  // Only what the request needs: the agent keeps a copy of these options for each pooled socket.
  const targets = new Map<string, { secure: boolean; host: string; options: RequestOptions }>();

  const fetchFn = ((input: string, init: RequestInit = {}) =>
    new Promise<UpstreamResponse>((resolve, reject) => {
      let target = targets.get(input);
      if (!target) {
        const url = new URL(input);
        const secure = url.protocol === 'https:';
        const { protocol, hostname, port, path, auth } = urlToHttpOptions(url);
        const options: RequestOptions = { protocol, hostname, port, path, agent: secure ? https : http };
        if (auth) options.auth = auth;
        target = { secure, host: url.host, options };
        if (targets.size < 16) targets.set(input, target);
      }
      const secure = target.secure;
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(abortError());
      const body = typeof init.body === 'string' ? Buffer.from(init.body) : undefined;
      // A flat header list is written as it is: no header map is built and kept with the request.
      const headers = headerList(init.headers, target.host, target.options.auth, body?.byteLength);
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
  // Takes the proxy's LightSignal as init.signal (it only listens for `abort`).
  Object.defineProperty(fetchFn, ACCEPTS_LIGHT_SIGNAL, { value: true });
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
    // Read from the raw list: Node builds its header map only when asked.
    this.headers = new RawHeaders(res.rawHeaders);
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

/** The request's headers as a flat `[name, value, ...]` list, with Host (and Content-Length, Basic auth) as Node would add them. */
function headerList(init: RequestInit['headers'], host: string, auth: string | null | undefined, length: number | undefined): string[] {
  const list: string[] = [];
  const seen = new Set<string>();
  const add = (name: string, value: string) => {
    // The body's real length replaces any the caller gave.
    if (length !== undefined && name === 'content-length') return;
    seen.add(name);
    list.push(name, value);
  };
  if (init instanceof Headers || Array.isArray(init)) new Headers(init).forEach((value, name) => add(name, value));
  else if (init) for (const [name, value] of Object.entries(init as Record<string, string>)) add(name.toLowerCase(), value);
  if (length !== undefined) list.push('content-length', String(length));
  if (!seen.has('host')) list.unshift('host', host);
  if (auth && !seen.has('authorization')) add('authorization', `Basic ${Buffer.from(auth).toString('base64')}`);
  return list;
}

function abortError(): Error {
  return new DOMException('The upstream request was aborted.', 'AbortError');
}
