// A Hono app on Node serving the proxy beside its own routes (the README recipe).
import { serve, type HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import { createProxyHandler } from 'bot-answer-proxy';

export function startHonoApp(env: { ANSWER_API_KEY: string; ANSWER_BASE_URL: string; PORT?: string }) {
  const proxy = createProxyHandler({ apiKey: env.ANSWER_API_KEY, baseUrl: env.ANSWER_BASE_URL });

  const app = new Hono<{ Bindings: HttpBindings }>();
  app.get('/', (c) => c.text('my site'));
  // The visitor's address for the rate limit: the socket's, from the Node server.
  app.on(['POST', 'OPTIONS'], ['/api/answer', '/api/answer/feedback'], (c) => proxy(c.req.raw, { clientAddress: c.env.incoming.socket.remoteAddress }));

  return serve({ fetch: app.fetch, port: Number(env.PORT ?? 3000), hostname: '127.0.0.1' });
}
