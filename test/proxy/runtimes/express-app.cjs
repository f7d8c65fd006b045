// An Express 5 app in CommonJS serving the proxy beside its own routes (the README recipe).
const express = require('express');
const { createNodeListener, createProxyHandler } = require('bot-answer-proxy/node');

const proxy = createNodeListener(
  createProxyHandler({
    apiKey: process.env.ANSWER_API_KEY,
    baseUrl: process.env.ANSWER_BASE_URL,
    // Behind a load balancer that appends X-Forwarded-For, also set: trustProxy: 1
  }),
);

const app = express();
// Before any body parser: the proxy reads the request body itself.
app.all(['/api/answer', '/api/answer/feedback'], proxy);
app.get('/', (_req, res) => res.send('my site'));

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on ${server.address().port}`);
});
