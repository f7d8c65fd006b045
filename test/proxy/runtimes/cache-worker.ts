// A Cloudflare Worker as the README's Scaling out recipe shows it: the proxy with its answer
// cache on the Workers Cache API.
import { cacheApiAnswerCache, createProxyHandler, type ProxyHandler } from 'bot-answer-proxy';

interface Env {
  ANSWER_API_KEY: string;
  ANSWER_BASE_URL: string;
}

declare const caches: { default: Parameters<typeof cacheApiAnswerCache>[0] };

let proxy: ProxyHandler | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    proxy ??= createProxyHandler({
      apiKey: env.ANSWER_API_KEY,
      baseUrl: env.ANSWER_BASE_URL,
      rateLimitPerMinute: 0,
      cacheTtlSeconds: 60,
      cacheStore: cacheApiAnswerCache(caches.default, { namespace: 'test' }),
      log: false,
    });
    return proxy(request);
  },
};
