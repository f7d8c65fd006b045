import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * The connections a crawl fetches over: Node's own HTTP client, kept-alive sockets, at most
 * `connections` at once per scheme, each connected through `lookup`. Node's client parses
 * responses with native code; undici's parser is WebAssembly, which V8 compiles again with its
 * optimising tier once a crawl makes it hot, in the serving process: 10 to 25 MB of compiler
 * memory that stays in the C allocator's thread arenas.
 */
export class PageClient {
  readonly #http: HttpAgent;
  readonly #https: HttpsAgent;

  constructor(options: { connections: number; lookup: LookupFunction }) {
    const agent = { keepAlive: true, maxSockets: options.connections, lookup: options.lookup };
    this.#http = new HttpAgent(agent);
    this.#https = new HttpsAgent(agent);
  }

  /** Sends a GET for `url` and resolves with the response as its head arrives; its body is the stream. */
  get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const https = url.protocol === 'https:';
      const request = (https ? httpsRequest : httpRequest)(url, { method: 'GET', headers, signal, agent: https ? this.#https : this.#http }, resolve);
      // Every error is taken, also those after the response came (its body then fails too): none is left unhandled.
      request.on('error', reject);
      request.end();
    });
  }

  /** Closes every connection. */
  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}

/** Lets a response's body go: a short one is read to its end (the connection is kept), a long one is cut. */
export async function discard(response: IncomingMessage, limit = 64 * 1024): Promise<void> {
  let read = 0;
  try {
    for await (const chunk of response) {
      read += (chunk as Buffer).length;
      if (read > limit) return void response.destroy();
    }
  } catch {
    // A body that fails as it is let go: nothing of it was wanted.
  }
}
