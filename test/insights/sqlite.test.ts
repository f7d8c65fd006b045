import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { sqliteInsightsStore } from '../../packages/bot-answer-proxy/src/proxy/node.js';
import type { QuestionRow } from '../../packages/bot-answer-proxy/src/insights/types.js';
import { ask, checkOutcomeMigration, checkOutcomesRecorded, checkRekeyMigration, exportCsv, logged, page, rate, startInsightsProxy, tempDir } from './helpers.js';

const DAY_MS = 86_400_000;
let folder: Awaited<ReturnType<typeof tempDir>>;
before(async () => (folder = await tempDir()));
after(() => folder.remove());

const row = (time: number, question: string, bot = 'demo'): QuestionRow => ({
  request_id: crypto.randomUUID(),
  time,
  bot_id: bot,
  question,
  question_key: question.toLowerCase(),
  answer_found: true,
  outcome: 'answered',
  cache: null,
  sources: [],
  duration_ms: 5,
});

describe('insights in a SQLite file', () => {
  it('records answers (JSON and streamed) and ratings joined by request id, and keeps them across a restart', async () => {
    const file = join(folder.dir, 'restart.sqlite');
    const first = await startInsightsProxy({ insightsDb: file, cacheTtlSeconds: 60 });
    let ids: string[];
    try {
      const json = await ask(first.url, 'How do I roll back a bad production deploy?');
      const streamed = await ask(first.url, 'How many vacation days do I get per year?', { stream: true });
      const cached = await ask(first.url, 'How do I roll back a bad production deploy?');
      const missing = await ask(first.url, 'Who won the 2018 FIFA World Cup?');
      ids = [json.id, streamed.id, cached.id, missing.id];
      assert.deepEqual([json.status, streamed.status, cached.status, missing.status], [200, 200, 200, 200]);
      assert.equal(await rate(first.url, { request_id: json.id, rating: 'down' }), 204);
      assert.equal(await rate(first.url, { request_id: json.id, rating: 'down', comment: 'It missed the rollback command.' }), 204);
      assert.equal(await rate(first.url, { request_id: streamed.id, rating: 'up' }), 204);
      await first.flush();
    } finally {
      await first.close();
    }
    const second = await startInsightsProxy({ insightsDb: file });
    try {
      const rows = await exportCsv(second.url);
      assert.deepEqual(rows.map((r) => r.request_id), ids, 'every question, oldest first');
      const [json, streamed, cached, missing] = rows as [Record<string, string>, Record<string, string>, Record<string, string>, Record<string, string>];
      assert.equal(json.question, 'How do I roll back a bad production deploy?');
      assert.equal(json.bot_id, 'demo');
      assert.equal(json.answer_found, 'true');
      assert.equal(json.cache, 'miss');
      assert.equal(cached.cache, 'hit');
      assert.match(json.sources, /^https:\/\/\S+( https:\/\/\S+){0,2}$/, 'the first sources, space-separated');
      assert.equal(json.rating, 'down');
      assert.equal(json.comment, 'It missed the rollback command.', 'a comment sent after its rating is joined to the same answer');
      assert.equal(streamed.answer_found, 'true', 'a streamed answer is recorded from its events');
      assert.notEqual(streamed.sources, '');
      assert.equal(streamed.rating, 'up');
      assert.equal(missing.answer_found, 'false');
      assert.equal(missing.sources, '');
      assert.ok(Number(json.duration_ms) >= 0);
      assert.ok(Math.abs(Date.parse(json.time) - Date.now()) < 600_000);
      const { html } = await page(second.url);
      assert.match(html, /Who won the 2018 FIFA World Cup\?/, 'the unanswered question is on the page after the restart');
    } finally {
      await second.close();
    }
  });

  it('records the outcome of each request: refused, stopped, and the error code', async () => {
    const file = join(folder.dir, 'outcomes.sqlite');
    const proxy = await startInsightsProxy({ insightsDb: file, localAnswerApi: { paceMs: 50 } });
    try {
      await ask(proxy.url, 'Who won the 2018 FIFA World Cup?');
      // A visitor who stops reading a streamed answer: the request ends as stopped.
      const controller = new AbortController();
      const response = await fetch(`${proxy.url}/api/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'How do I roll back a bad production deploy?', bot_id: 'demo', stream: true }),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
      await reader.closed.catch(() => {});
      for (let i = 0; i < 100 && logged(proxy.logs, 'request').length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      void proxy.proxy.handler.shutdown(0);
      await ask(proxy.url, 'How do I file travel expenses?');
      for (let i = 0; i < 50 && logged(proxy.logs, 'request').length < 3; i++) await new Promise((r) => setTimeout(r, 50));
      await proxy.flush();
      const db = new Database(file, { readonly: true });
      const outcomes = db.prepare('SELECT question, outcome, answer_found FROM insights_questions ORDER BY time').all();
      db.close();
      assert.deepEqual(outcomes, [
        { question: 'Who won the 2018 FIFA World Cup?', outcome: 'refused', answer_found: 0 },
        { question: 'How do I roll back a bad production deploy?', outcome: 'stopped', answer_found: 0 },
        { question: 'How do I file travel expenses?', outcome: 'shutting_down', answer_found: 0 },
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('records the three outcomes of answers: answered, not sure and refused, each counted and shown apart', async () => {
    await checkOutcomesRecorded(join(folder.dir, 'three.sqlite'));
  });

  it('migrates a version-1 file: not-sure answers stored as refused become not_sure, with their day counts', async () => {
    const store = sqliteInsightsStore(join(folder.dir, 'migrate.sqlite'));
    try {
      await checkOutcomeMigration(store);
    } finally {
      await store.close();
    }
  });

  it('migrates a version-2 file: questions re-keyed (contractions, negation), their day counts moved to the new keys', async () => {
    const store = sqliteInsightsStore(join(folder.dir, 'rekey.sqlite'));
    try {
      await checkRekeyMigration(store);
    } finally {
      await store.close();
    }
  });

  it('redacts and caps questions and comments before they are stored', async () => {
    const file = join(folder.dir, 'redacted.sqlite');
    const proxy = await startInsightsProxy({ insightsDb: file });
    try {
      const long = `Why ${'very '.repeat(200)}long?`;
      const { id } = await ask(proxy.url, 'I am jane@example.com, card 4111 1111 1111 1111, key sk-live-5f2c9e1a7b3d48c6a0e4: how do I pay?');
      await ask(proxy.url, long);
      await rate(proxy.url, { request_id: id, rating: 'down', comment: 'mail me at bob@example.org' });
      await proxy.flush();
      const rows = await exportCsv(proxy.url);
      assert.equal(rows[0]!.question, 'I am [email], card [card], key [key]: how do I pay?');
      assert.equal(rows[0]!.comment, 'mail me at [email]');
      assert.equal(Array.from(rows[1]!.question).length, 500, 'questions are capped at 500 characters');
      assert.ok(rows[1]!.question.endsWith('…'));
      const feedbackLine = logged(proxy.logs, 'feedback')[0]!;
      assert.equal(feedbackLine.comment, 'mail me at [email]', 'the feedback log line is redacted the same way');
      assert.ok(!proxy.logs.some((line) => line.includes('jane@example.com') || line.includes('4111 1111')), 'nor is it in any log line');
    } finally {
      await proxy.close();
    }
  });

  it('deletes rows past INSIGHTS_RETENTION_DAYS at start, and keeps the rest', { timeout: 20_000 }, async () => {
    const file = join(folder.dir, 'retention.sqlite');
    const store = sqliteInsightsStore(file);
    await store.open();
    const now = Date.now();
    const old = row(now - 100 * DAY_MS, 'asked 100 days ago');
    const recent = row(now - 10 * DAY_MS, 'asked 10 days ago');
    await store.write({ questions: [old, recent], feedback: [{ request_id: old.request_id, time: old.time, bot_id: 'demo', rating: 'up', comment: null }] });
    await store.close();
    const count = (table: string) => {
      const db = new Database(file, { readonly: true });
      const n = (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
      db.close();
      return n;
    };
    assert.equal(count('insights_questions'), 2, 'control: both rows are there before');
    // The start deletes in the background: wait for it (the test times out if it never happens).
    const until = async (test: () => boolean) => {
      while (!test()) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    let proxy = await startInsightsProxy({ insightsDb: file });
    await until(() => count('insights_feedback') === 0);
    await proxy.close();
    assert.equal(count('insights_questions'), 1, 'the default 90 days deletes the 100-day-old row (and its rating), not the 10-day-old one');
    proxy = await startInsightsProxy({ insightsDb: file, insightsRetentionDays: 5 });
    await until(() => count('insights_questions') === 0);
    await proxy.close();
  });

  it('counts a question written twice once (the day counts follow only questions actually stored)', async () => {
    const store = sqliteInsightsStore(join(folder.dir, 'twice.sqlite'));
    try {
      await store.open();
      const now = Date.now();
      const first = { ...row(now, 'Is there a dark mode?'), answer_found: false, outcome: 'refused', sources: [] };
      const second = { ...row(now + 1, 'How do I deploy?'), sources: ['https://docs.example.com/deploy', 'https://docs.example.com/deploy', 'https://docs.example.com/rollback'] };
      await store.write({ questions: [first, second], feedback: [] });
      await store.write({ questions: [first, second, { ...first, request_id: crypto.randomUUID() }], feedback: [] });
      const aggregates = await store.aggregate({ from: now - DAY_MS, to: now + DAY_MS }, { top: 10, unanswered: 10, pages: 10, rated: 10 });
      assert.deepEqual(aggregates.top, [
        { key: 'is there a dark mode?', asked: 2, found: 0 },
        { key: 'how do i deploy?', asked: 1, found: 1 },
      ]);
      assert.deepEqual(aggregates.unanswered, [{ key: 'is there a dark mode?', asked: 2, found: 0, refused: 2, not_sure: 0 }]);
      assert.deepEqual(aggregates.pages, [
        { url: 'https://docs.example.com/deploy', cited: 1 },
        { url: 'https://docs.example.com/rollback', cited: 1 },
      ]);
      assert.equal(aggregates.days.reduce((sum, d) => sum + d.asked, 0), 3);
    } finally {
      await store.close();
    }
  });

  it('creates the schema with its version, and refuses a database from a newer release', async () => {
    const file = join(folder.dir, 'schema.sqlite');
    const proxy = await startInsightsProxy({ insightsDb: file });
    await proxy.close();
    const db = new Database(file);
    assert.deepEqual(db.prepare('SELECT version FROM insights_schema').all(), [{ version: 1 }, { version: 2 }, { version: 3 }]);
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'insights_%' ORDER BY name").all();
    assert.deepEqual(
      indexes.map((i) => (i as { name: string }).name),
      ['insights_feedback_bot_time', 'insights_feedback_time', 'insights_questions_bot_time', 'insights_questions_key', 'insights_questions_time'],
    );
    db.prepare('INSERT INTO insights_schema (version, applied_at) VALUES (4, 0)').run();
    db.close();
    await assert.rejects(startInsightsProxy({ insightsDb: file }), /schema version 4, newer than this release of bot-answer knows \(3\)/);
  });

  it('stops the start with the reason when the file cannot be opened', async () => {
    await assert.rejects(startInsightsProxy({ insightsDb: join(folder.dir, 'no-such-folder', 'x.sqlite') }), /INSIGHTS_DB: could not open the SQLite file .*no-such-folder/);
  });
});
