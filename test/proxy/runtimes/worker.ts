// A Cloudflare Worker serving the proxy (the README recipe). Secrets come from the Worker's
// environment: `wrangler secret put ANSWER_API_KEY`, and ANSWER_BASE_URL as a var.
import { createProxyHandler, type ProxyHandler } from 'bot-answer-proxy';

interface Env {
  ANSWER_API_KEY: string;
  ANSWER_BASE_URL: string;
  ALLOWED_ORIGINS?: string;
}

let proxy: ProxyHandler | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    // On Workers the visitor's address is CF-Connecting-IP, which the proxy reads by default there.
    proxy ??= createProxyHandler({
      apiKey: env.ANSWER_API_KEY,
      baseUrl: env.ANSWER_BASE_URL,
      allowedOrigins: env.ALLOWED_ORIGINS?.split(','),
    });
    return proxy(request);
  },
};
