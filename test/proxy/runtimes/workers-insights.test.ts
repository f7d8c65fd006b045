import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Miniflare } from 'miniflare';
import { bundleWorker } from './bundle-worker.js';
import { startAnswerApi, type RunningAnswerApi } from '../../../packages/bot-answer-engine/src/upstream/index.js';
import { assertNoKeyLeak, observe, parseStream, remember, replay } from '../helpers.js';
import { d1InsightsStore, type D1DatabaseLike } from '../../../packages/bot-answer-proxy/src/insights/sql/d1.js';
import { checkRekeyMigration, parseCsv } from '../../insights/helpers.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const TOKEN = 'owner-token-for-workers-0123456';

let api: RunningAnswerApi;
let mf: Miniflare;
let url: URL;

before(async () => {
  api = await startAnswerApi({ port: 0, host: '127.0.0.1' });
  remember(api.keys[0]!);
  const script = await bundleWorker(here('./insights-worker.ts'));
  mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2024-09-23',
    bindings: { ANSWER_API_KEY: api.keys[0]!, ANSWER_BASE_URL: api.url, INSIGHTS_TOKEN: TOKEN },
    d1Databases: ['INSIGHTS_DB'],
    handleRuntimeStdio(stdout, stderr) {
      stdout.on('data', (chunk: Buffer) => observe(String(chunk)));
      stderr.on('data', (chunk: Buffer) => observe(String(chunk)));
    },
  });
  url = await mf.ready;
});
after(async () => {
  await mf?.dispose();
  await api?.close();
  assertNoKeyLeak();
});

const call = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(new URL(path, url), { ...init, headers: { 'cf-connecting-ip': '198.51.100.1', ...init.headers } });
  const text = await response.text();
  observe(text);
  return { status: response.status, headers: response.headers, text };
};
const ask = (message: string, stream: boolean) => call('/api/answer', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message, bot_id: 'demo', stream }) });

describe('insights on Cloudflare Workers (workerd, D1)', { timeout: 120_000 }, () => {
  it('records answers and ratings in D1 after each response (waitUntil), and serves the page and the export from it', async () => {
    const streamed = await ask('How do I roll back a bad production deploy?', true);
    assert.equal(streamed.status, 200);
    assert.equal(replay(parseStream(streamed.text).events).end?.event, 'done');
    const json = await ask('Who won the 2018 FIFA World Cup?', false);
    const id = streamed.headers.get('x-request-id')!;
    const rated = await call('/api/answer/feedback', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ request_id: id, bot_id: 'demo', rating: 'up' }) });
    assert.equal(rated.status, 204);

    // The writes finish after the responses: the database has them once the Worker's waitUntil promises are done.
    const db = await mf.getD1Database('INSIGHTS_DB');
    let stored: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 100 && stored.length < 2; i++) {
      stored = (await db.prepare('SELECT request_id, question, answer_found, outcome FROM insights_questions ORDER BY time').all()).results as Array<Record<string, unknown>>;
      if (stored.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(stored, [
      { request_id: id, question: 'How do I roll back a bad production deploy?', answer_found: 1, outcome: 'answered' },
      { request_id: json.headers.get('x-request-id'), question: 'Who won the 2018 FIFA World Cup?', answer_found: 0, outcome: 'refused' },
    ]);

    const csv = await call('/insights/questions.csv', { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(csv.status, 200);
    const [header, first] = parseCsv(csv.text);
    assert.equal(header!.join(','), 'time,bot_id,question,answer_found,cache,sources,duration_ms,rating,comment,request_id,outcome');
    assert.equal(first![7], 'up', 'the rating is joined');
    const page = await call('/insights', { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(page.status, 200);
    assert.match(page.text, /Who won the 2018 FIFA World Cup\?/);
    assert.equal((await call('/insights', { headers: { authorization: `Bearer ${TOKEN}x` } })).status, 401);
  });
});

describe('insights migrations in D1 (workerd)', { timeout: 120_000 }, () => {
  it('re-keys a version-2 database page by page in batches: questions re-keyed, their day counts moved to the new keys', async () => {
    const d1 = new Miniflare({ modules: true, script: 'export default { fetch() { return new Response(); } }', compatibilityDate: '2024-09-23', d1Databases: ['DB'] });
    try {
      await checkRekeyMigration(d1InsightsStore((await d1.getD1Database('DB')) as unknown as D1DatabaseLike));
    } finally {
      await d1.dispose();
    }
  });
});
