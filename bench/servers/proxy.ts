/**
 * Our proxy in its own process, started the way the command-line program starts it
 * (`startProxy`: the Web handler, @hono/node-server's adapter and undici's pooled upstream client), with
 * per-request log lines on standard output as in production. Rate limiting is off: the
 * load comes from one address. BENCH_CACHE_TTL turns the answer cache on (in memory, or in
 * Redis at BENCH_REDIS_URL); BENCH_INSIGHTS_DB turns insights on (a SQLite file or a postgres://
 * URL), with BENCH_INSIGHTS_TOKEN for the page.
 */
import { startProxy } from '../../packages/bot-answer-proxy/src/proxy/server.js';
import { fail, onAsk, ready } from './serve.js';

try {
  const apiKey = process.env.BENCH_UPSTREAM_KEY;
  const baseUrl = process.env.BENCH_UPSTREAM_URL;
  if (!apiKey || !baseUrl) throw new Error('BENCH_UPSTREAM_URL and BENCH_UPSTREAM_KEY are required');
  const cacheTtlSeconds = process.env.BENCH_CACHE_TTL ? Number(process.env.BENCH_CACHE_TTL) : undefined;
  const redisUrl = process.env.BENCH_REDIS_URL || undefined;
  const insightsDb = process.env.BENCH_INSIGHTS_DB || undefined;
  const insightsToken = process.env.BENCH_INSIGHTS_TOKEN || undefined;
  const proxy = await startProxy({ apiKey, baseUrl, port: 0, host: '127.0.0.1', rateLimitPerMinute: 0, cacheTtlSeconds, redisUrl, insightsDb, insightsToken });
  onAsk('insights-flush', async () => {
    await proxy.handler.insights?.flush();
    return proxy.handler.insights?.status ?? null;
  });
  process.on('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
  ready(proxy.url);
} catch (error) {
  fail(error);
}
