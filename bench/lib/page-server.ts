import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { formatStreamEvent } from '../../packages/bot-answer/src/protocol/stream-events.js';
import type { Source } from '../../packages/bot-answer/src/protocol/types.js';

/** What the local answer endpoint streams: the answer already cut into chunks, and its sources. */
export interface ScriptedAnswer {
  chunks: string[];
  sources: Source[];
  /** Milliseconds between chunk writes; the stream takes about chunks.length * this. */
  intervalMs: number;
}

/** A running page server. */
export interface PageServer {
  url: string;
  /** Registers a page served at `path`. */
  page(path: string, html: string): void;
  close(): Promise<void>;
}

/**
 * A loopback server for the browser benchmarks: static pages and scripts, and an
 * `/api/answer` endpoint speaking the proxy's protocol (the same events the proxy sends:
 * `delta` per chunk, then `sources`, then `done`), or JSON for `stream:false`. Chunks are
 * written one socket write each, paced by a timer, so the browser sees a real stream.
 */
export async function startPageServer(answer: ScriptedAnswer, files: Record<string, string>): Promise<PageServer> {
  const pages = new Map<string, string>();
  const full = answer.chunks.join('');
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'POST' && path === '/api/answer') {
      let body = '';
      for await (const part of req) body += part;
      const request = JSON.parse(body) as { stream?: boolean };
      if (!request.stream) {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ answer: full, answer_found: true, sources: answer.sources }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.flushHeaders();
      await streamChunks(res, answer);
      return;
    }
    const html = pages.get(path);
    if (html !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
      return;
    }
    const file = files[path];
    if (file) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end(await readFile(file));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    page: (path, html) => void pages.set(path, html),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes chunk i at start + i * intervalMs (several per timer tick when the timer is late), then sources and done. */
async function streamChunks(res: ServerResponse, answer: ScriptedAnswer): Promise<void> {
  const start = performance.now();
  let i = 0;
  let closed = false;
  res.on('close', () => (closed = true));
  while (i < answer.chunks.length && !closed) {
    const due = Math.min(answer.chunks.length, Math.floor((performance.now() - start) / answer.intervalMs) + 1);
    for (; i < due; i++) res.write(formatStreamEvent('delta', { text: answer.chunks[i]! }));
    if (i < answer.chunks.length) await new Promise((resolve) => setTimeout(resolve, answer.intervalMs));
  }
  if (closed) return;
  res.write(formatStreamEvent('sources', { sources: answer.sources }));
  res.end(formatStreamEvent('done', { answer_found: true }));
}
