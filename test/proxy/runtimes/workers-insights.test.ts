import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Miniflare } from 'miniflare';
import { bundleWorker } from './bundle-worker.js';
import { d1OverFetch } from './d1-over-fetch.js';
import { startAnswerApi, type RunningAnswerApi } from '../../../packages/bot-answer-engine/src/upstream/index.js';
import { assertNoKeyLeak, observe, parseStream, remember, replay } from '../helpers.js';
import { d1Client, d1InsightsStore, type D1DatabaseLike } from '../../../packages/bot-answer-proxy/src/insights/sql/d1.js';
import { questionKey } from '../../../packages/bot-answer-proxy/src/insights/question-key.js';
import { migrations } from '../../../packages/bot-answer-proxy/src/insights/sql/schema.js';
import { checkRekeyMigration, parseCsv, storeOldRows } from '../../insights/helpers.js';

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
    const d1 = await d1OverFetch();
    try {
      await checkRekeyMigration(d1InsightsStore(d1.db));
    } finally {
      await d1.dispose();
    }
  });

  it('resumes a migration cut short (a Worker out of queries or CPU time) after its last whole page, not from the first', async () => {
    const d1 = await d1OverFetch();
    try {
      const db = d1.db;
      // The binding as the migration sees it: each page read's parameters, and batches that fail while `failAt` says so.
      const reads: unknown[][] = [];
      let batches = 0;
      let failAt = Infinity;
      const watched: D1DatabaseLike = {
        prepare(sql) {
          const statement = db.prepare(sql);
          // A page read is run alone; anything else may go into a batch, which takes only D1's own statements.
          if (!sql.startsWith('SELECT request_id')) return statement;
          return {
            bind: (...values) => {
              reads.push(values);
              return statement.bind(...values);
            },
            all: () => statement.all(),
          };
        },
        batch: async (statements) => {
          if (++batches >= failAt) throw new Error('Too many API requests by single Worker invocation');
          return db.batch(statements);
        },
      };
      const client = d1Client(watched);
      await client.migrate(migrations(client.dialect).slice(0, 2));
      const day = Math.floor(Date.now() / 86_400_000);
      await storeOldRows(
        client,
        Array.from({ length: 2_500 }, (_, i) => ({ id: `req-${String(i).padStart(5, '0')}`, day, bot: 'demo', question: 'I cannot log in', key: 'login', outcome: 'refused' })),
      );
      const keys = async () => (await client.run([{ sql: 'SELECT question_key AS k, COUNT(*) AS n FROM insights_questions GROUP BY question_key ORDER BY k', params: [] }]))[0]!.rows.map((r) => [r.k, Number(r.n)]);
      const dayRows = async () => (await client.run([{ sql: 'SELECT question_key AS k, asked FROM insights_key_days ORDER BY k', params: [] }]))[0]!.rows.map((r) => [r.k, Number(r.asked)]);

      // The schema tables' batch, then the first page's; the second page's fails.
      batches = 0;
      failAt = 3;
      await assert.rejects(client.migrate(migrations(client.dialect)), /Too many API requests/);
      assert.deepEqual(await keys(), [['login', 1_500], [questionKey('I cannot log in'), 1_000]], 'the first page is re-keyed, whole');
      assert.deepEqual(await dayRows(), [['login', 1_500], [questionKey('I cannot log in'), 1_000]], 'its day counts moved with it');

      failAt = Infinity;
      reads.length = 0;
      await client.migrate(migrations(client.dialect));
      assert.deepEqual(reads[0], ['req-00999'], 'the step resumes after the last page written');
      assert.equal(reads.length, 2, 'and reads the two pages left');
      assert.deepEqual(await keys(), [[questionKey('I cannot log in'), 2_500]]);
      assert.deepEqual(await dayRows(), [[questionKey('I cannot log in'), 2_500]]);
      const [versions, progress] = await client.run([
        { sql: 'SELECT version FROM insights_schema ORDER BY version', params: [] },
        { sql: 'SELECT * FROM insights_schema_progress', params: [] },
      ]);
      assert.deepEqual(versions!.rows.map((r) => Number(r.version)), [1, 2, 3]);
      assert.deepEqual(progress!.rows, [], 'no progress is kept once the step is done');
    } finally {
      await d1.dispose();
    }
  });
});
