// The same Express 5 app as an ES module.
import express from 'express';
import { createNodeListener, createProxyHandler } from 'bot-answer-proxy/node';

const proxy = createNodeListener(createProxyHandler({ apiKey: process.env.ANSWER_API_KEY, baseUrl: process.env.ANSWER_BASE_URL }));

const app = express();
app.all(['/api/answer', '/api/answer/feedback'], proxy);
app.get('/', (_req, res) => res.send('my site'));

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on ${server.address().port}`);
});
