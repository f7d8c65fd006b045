// A Cloudflare Worker serving the proxy with insights in D1 (the README recipe). Secrets come
// from the Worker's environment: `wrangler secret put ANSWER_API_KEY` and `INSIGHTS_TOKEN`.
import { createProxyHandler, d1InsightsStore, type D1DatabaseLike, type ProxyHandler } from 'bot-answer-proxy';

interface Env {
  ANSWER_API_KEY: string;
  ANSWER_BASE_URL: string;
  INSIGHTS_TOKEN: string;
  /** A D1 binding (`[[d1_databases]]` in wrangler.toml). */
  INSIGHTS_DB: D1DatabaseLike;
}

let proxy: ProxyHandler | undefined;

export default {
  fetch(request: Request, env: Env, ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
    proxy ??= createProxyHandler({
      apiKey: env.ANSWER_API_KEY,
      baseUrl: env.ANSWER_BASE_URL,
      insightsStore: d1InsightsStore(env.INSIGHTS_DB),
      insightsToken: env.INSIGHTS_TOKEN,
    });
    // waitUntil: the questions are written after the answer is sent, and the Worker waits for it.
    return proxy(request, { waitUntil: (promise) => ctx.waitUntil(promise) });
  },
};
