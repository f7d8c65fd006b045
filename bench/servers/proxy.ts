/**
 * Our proxy in its own process, started the way the command-line program starts it
 * (`startProxy`: the Web handler, @hono/node-server's adapter and undici's pooled upstream client), with
 * per-request log lines on standard output as in production. Rate limiting is off: the
 * load comes from one address.
 */
import { startProxy } from '../../src/proxy/server.js';
import { fail, ready } from './serve.js';

try {
  const apiKey = process.env.BENCH_UPSTREAM_KEY;
  const baseUrl = process.env.BENCH_UPSTREAM_URL;
  if (!apiKey || !baseUrl) throw new Error('BENCH_UPSTREAM_URL and BENCH_UPSTREAM_KEY are required');
  const proxy = await startProxy({ apiKey, baseUrl, port: 0, host: '127.0.0.1', rateLimitPerMinute: 0 });
  process.on('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
  ready(proxy.url);
} catch (error) {
  fail(error);
}
