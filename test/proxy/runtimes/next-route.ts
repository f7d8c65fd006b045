// app/api/answer/[[...feedback]]/route.ts in a Next.js app (the README recipe): the App Router's
// route handlers take a Request and return a Response, which is what the proxy is.
import { createProxyHandler } from 'bot-answer-proxy';

const proxy = createProxyHandler({
  apiKey: process.env.ANSWER_API_KEY!,
  baseUrl: process.env.ANSWER_BASE_URL!,
  // Next.js gives no socket address; its host (Vercel, or your load balancer) appends X-Forwarded-For.
  trustProxy: 1,
});

export async function POST(request: Request): Promise<Response> {
  return proxy(request);
}

export async function OPTIONS(request: Request): Promise<Response> {
  return proxy(request);
}
