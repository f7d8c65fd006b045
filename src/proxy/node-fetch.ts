import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { UpstreamFetch } from './config.js';
import { webStreamOf } from './node-body.js';

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
 * A `fetch`-compatible upstream client on `node:http` with keep-alive pooling: much faster
 * than the global `fetch` for many short requests. It never follows redirects (a 3xx is
 * returned as is) and honours `signal` while headers and body arrive.
 */
export function createNodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? Infinity, maxFreeSockets: options.maxFreeSockets ?? 64, scheduling: 'lifo' as const, noDelay: true };
  const http = new HttpAgent(agentOptions);
  const https = new HttpsAgent(agentOptions);

  const fetchFn = ((input: string, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input);
      const secure = url.protocol === 'https:';
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(abortError());
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => (headers[name] = value));
      const body = typeof init.body === 'string' ? Buffer.from(init.body) : undefined;
      if (body) headers['content-length'] = String(body.byteLength);
      const method = init.method ?? 'GET';
      const req = (secure ? httpsRequest : httpRequest)(url, { method, headers, agent: secure ? https : http }, (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 599) {
          res.destroy();
          return reject(new Error('The upstream answered with an invalid status.'));
        }
        const responseHeaders = new Headers();
        const raw = res.rawHeaders;
        for (let i = 0; i < raw.length; i += 2) {
          try {
            responseHeaders.append(raw[i]!, raw[i + 1]!);
          } catch {
            // an invalid header value is dropped
          }
        }
        const noBody = NULL_BODY.has(status) || method === 'HEAD';
        if (noBody) res.resume();
        const release = () => signal?.removeEventListener('abort', onAbort);
        res.once('end', release);
        res.once('close', release);
        resolve(new Response(noBody ? null : webStreamOf(res), { status, headers: responseHeaders }));
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

function abortError(): Error {
  return new DOMException('The upstream request was aborted.', 'AbortError');
}
