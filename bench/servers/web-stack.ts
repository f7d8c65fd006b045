/**
 * Reference for the proxy-streams benchmark: the standard parts our proxy is built on, with
 * none of its behaviour. A Web `fetch`-style handler behind @hono/node-server's adapter asks the
 * upstream through an undici `Pool` and returns its body as it comes (`Readable.toWeb`): no
 * checks, no limits, no normalising, no log. What it adds is what the stack itself costs.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { Pool } from 'undici';
import { fail, ready } from './serve.js';

const target = process.env.BENCH_UPSTREAM_URL;
const key = process.env.BENCH_UPSTREAM_KEY;
if (!target || !key) fail(new Error('BENCH_UPSTREAM_URL and BENCH_UPSTREAM_KEY are required'));

const pool = new Pool(target, { connections: null });
const listener = getRequestListener(
  async (request: Request) => {
    const upstream = await pool.request({
      method: 'POST',
      path: '/v1/answer',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: await request.text(),
      signal: request.signal,
    });
    const type = upstream.headers['content-type'];
    return new Response(Readable.toWeb(upstream.body) as ReadableStream<Uint8Array>, {
      status: upstream.statusCode,
      headers: { 'content-type': typeof type === 'string' ? type : 'application/octet-stream' },
    });
  },
  { overrideGlobalObjects: true },
);
const server = createServer(listener);
server.listen(0, '127.0.0.1', () => ready(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
