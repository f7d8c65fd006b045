/**
 * Baseline of the proxy benchmark: the plain pass-through people write with `http-proxy`.
 * It does the same job as our proxy's happy path (map the path, add the key) with the
 * library's defaults, and nothing else: no validation, no limits, no stream normalising.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import httpProxy from 'http-proxy';
import { fail, ready } from './serve.js';

const target = process.env.BENCH_UPSTREAM_URL;
const key = process.env.BENCH_UPSTREAM_KEY;
if (!target || !key) fail(new Error('BENCH_UPSTREAM_URL and BENCH_UPSTREAM_KEY are required'));

const proxy = httpProxy.createProxyServer({ target, changeOrigin: true, headers: { authorization: `Bearer ${key}` } });
const server = createServer((req, res) => {
  if (req.url === '/api/answer') req.url = '/v1/answer';
  proxy.web(req, res, {}, () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end('{"error":{"code":"upstream_unavailable","message":"upstream failed"}}');
  });
});
server.listen(0, '127.0.0.1', () => ready(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
