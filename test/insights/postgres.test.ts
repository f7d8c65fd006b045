import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { postgresInsightsStore } from '../../packages/bot-answer-proxy/src/proxy/node.js';
import { MIGRATION_LOCK } from '../../packages/bot-answer-proxy/src/insights/sql/postgres.js';
import { InsightsRecorder } from '../../packages/bot-answer-proxy/src/insights/recorder.js';
import { startTestPostgres, type TestPostgres } from '../proxy/postgres-server.js';
import { ask, checkOutcomeMigration, checkOutcomesRecorded, checkRekeyMigration, exportCsv, logged, page, rate, startInsightsProxy } from './helpers.js';

const DAY_MS = 86_400_000;
let server: TestPostgres;
before(async () => (server = await startTestPostgres()));
after(() => server?.close());

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

// A guard against a hang, not a speed bound: starting, stopping and restarting PostgreSQL is slow on a loaded machine.
describe('insights in PostgreSQL', { timeout: 300_000 }, () => {
  it('two proxy instances share one database: created once as they start together, a rating on one joins a question asked on the other', async () => {
    const url = await server.createDatabase('shared');
    const [a, b] = await Promise.all([startInsightsProxy({ insightsDb: url }), startInsightsProxy({ insightsDb: url })]);
    try {
      assert.deepEqual(await query(url, 'SELECT version FROM insights_schema ORDER BY version'), [{ version: 1 }, { version: 2 }, { version: 3 }]);
      const first = await ask(a.url, 'How do I roll back a bad production deploy?');
      const second = await ask(b.url, 'Who won the 2018 FIFA World Cup?');
      // The rating goes to the other instance (a load balancer does that).
      assert.equal(await rate(b.url, { request_id: first.id, rating: 'down', comment: 'Wrong command.' }), 204);
      await b.flush();
      await a.flush();
      const fromA = await exportCsv(a.url);
      const fromB = await exportCsv(b.url);
      assert.deepEqual(fromA, fromB, 'both instances read the same rows');
      const rated = fromA.find((row) => row.request_id === first.id)!;
      assert.equal(rated.rating, 'down');
      assert.equal(rated.comment, 'Wrong command.');
      assert.ok(fromA.some((row) => row.request_id === second.id && row.answer_found === 'false'));
      const { html } = await page(a.url);
      assert.match(html, /Wrong command\./);
      assert.match(html, /Who won the 2018 FIFA World Cup\?/);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('records the three outcomes of answers: answered, not sure and refused, each counted and shown apart', async () => {
    await checkOutcomesRecorded(await server.createDatabase('three_outcomes'));
  });

  it('migrates a version-1 database: not-sure answers stored as refused become not_sure, with their day counts', async () => {
    const store = postgresInsightsStore(await server.createDatabase('migrate_outcomes'));
    try {
      await checkOutcomeMigration(store);
    } finally {
      await store.close();
    }
  });

  it('migrates a version-2 database: questions re-keyed (contractions, negation), their day counts moved to the new keys', async () => {
    const store = postgresInsightsStore(await server.createDatabase('migrate_keys'));
    try {
      await checkRekeyMigration(store);
    } finally {
      await store.close();
    }
  });

  it('starts while another instance migrates: one line at 5 s, one when the database has opened, and the questions asked meanwhile are written', async () => {
    const url = await server.createDatabase('slow_open');
    // Another instance's migration, as this one sees it: the migration lock held in an open transaction.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    await other.query('BEGIN');
    await other.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    let proxy: Awaited<ReturnType<typeof startInsightsProxy>> | undefined;
    try {
      proxy = await startInsightsProxy({ insightsDb: url });
      const started = proxy;
      // The lines about opening the store, as logged so far.
      const opening = () => logged(started.logs, 'insights: the PostgreSQL at');
      const waiting = opening();
      assert.equal(waiting.length, 1, 'one line once the start has waited');
      assert.match(String(waiting[0]!.msg), /has not opened within 5 s \(the server does not answer, or a migration is running\); answers are served/);
      const asked = await ask(proxy.url, 'How do I file travel expenses?');
      assert.equal(asked.status, 200, 'answers are served meanwhile');
      assert.deepEqual(opening().filter((line) => /is open now/.test(String(line.msg))), [], 'not open while the lock is held');

      await other.query('COMMIT');
      let opened: Array<Record<string, unknown>> = [];
      while (opened.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        opened = opening().filter((line) => /is open now; questions are being written/.test(String(line.msg)));
      }
      assert.equal(opened[0]!.level, 'info');
      assert.ok(Number(opened[0]!.waited_ms) >= 5_000, 'it says how long it waited');
      await proxy.flush();
      assert.ok((await exportCsv(proxy.url)).some((row) => row.request_id === asked.id), 'the question asked while it waited is stored');
      assert.equal(opening().length, 2);
    } finally {
      await other.end();
      await proxy?.close();
    }
  });

  it('joins a rating written before the question it rates', async () => {
    const url = await server.createDatabase('early_rating');
    const [one, two] = [postgresInsightsStore(url), postgresInsightsStore(url)];
    try {
      await Promise.all([one.open(), two.open()]);
      const id = crypto.randomUUID();
      const now = Date.now();
      await two.write({ questions: [], feedback: [{ request_id: id, time: now, bot_id: 'demo', rating: 'up', comment: 'Spot on.' }] });
      const filter = { from: now - DAY_MS, to: now + DAY_MS };
      assert.deepEqual(await one.exportPage(filter, undefined, 10), [], 'control: nothing to export before the question is written');
      const question = { request_id: id, time: now - 1000, bot_id: 'demo', question: 'q', question_key: 'q', answer_found: true, outcome: 'answered', cache: 'miss', sources: ['https://docs.example.com/a'], duration_ms: 9 };
      await one.write({ questions: [question], feedback: [] });
      // Written again (a batch whose outcome was unknown): stored once, counted once.
      await two.write({ questions: [question], feedback: [] });
      const [row] = await one.exportPage(filter, undefined, 10);
      assert.equal(row!.rating, 'up');
      assert.equal(row!.comment, 'Spot on.');
      const aggregates = await two.aggregate(filter, { top: 5, unanswered: 5, pages: 5, rated: 5 });
      assert.deepEqual(aggregates.ratings, { up: 1, down: 0 });
      assert.deepEqual(aggregates.top, [{ key: 'q', asked: 1, found: 1 }]);
      assert.deepEqual(aggregates.pages, [{ url: 'https://docs.example.com/a', cited: 1 }]);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('keeps answering while the database is away: one line when insights pause, one when they resume, and the rows asked meanwhile and after are written', async () => {
    const url = await server.createDatabase('outage');
    const proxy = await startInsightsProxy({ insightsDb: url });
    const statuses: number[] = [];
    const ids: string[] = [];
    let asking = true;
    const load = (async () => {
      for (let i = 0; asking; i++) {
        const answer = await ask(proxy.url, `How do I file travel expenses? (${i})`);
        statuses.push(answer.status);
        ids.push(answer.id);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const until = async (test: () => boolean) => {
      while (!test()) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    try {
      await until(() => ids.length >= 20);
      await proxy.flush();
      await server.stop();
      const askedBefore = ids.length;
      await until(() => logged(proxy.logs, 'insights paused').length > 0 && ids.length >= askedBefore + 30);
      const unavailable = await page(proxy.url);
      assert.equal(unavailable.status, 503, 'the page says the database cannot be read');
      assert.match(unavailable.html, /cannot be read right now/);
      await server.start();
      await until(() => logged(proxy.logs, 'insights resumed').length > 0);
      const askedAtReturn = ids.length;
      await until(() => ids.length >= askedAtReturn + 20);
      asking = false;
      await load;
      await proxy.flush();
      assert.deepEqual(new Set(statuses), new Set([200]), 'every answer was given');
      assert.equal(logged(proxy.logs, 'insights paused').length, 1, 'one line when insights paused');
      assert.equal(logged(proxy.logs, 'insights resumed').length, 1, 'one when they resumed');
      assert.equal(logged(proxy.logs, 'insights resumed')[0]!.dropped, 0);
      const stored = new Set((await exportCsv(proxy.url)).map((row) => row.request_id));
      assert.deepEqual(ids.filter((id) => !stored.has(id)), [], 'every question is stored: before, during and after the outage');
    } finally {
      asking = false;
      await load;
      await proxy.close();
    }
  });

  it('survives the server shutting down under concurrent writes: connections in use lose theirs without an uncaught error', async () => {
    const url = await server.createDatabase('restarts');
    const store = postgresInsightsStore(url);
    await store.open();
    let writing = true;
    let written = 0;
    let failed = 0;
    const writers = Array.from({ length: 4 }, async () => {
      while (writing) {
        const now = Date.now();
        const questions = Array.from({ length: 20 }, () => ({ request_id: crypto.randomUUID(), time: now, bot_id: 'demo', question: 'q', question_key: 'q', answer_found: true, outcome: 'answered', cache: null, sources: ['https://docs.example.com/a'], duration_ms: 1 }));
        await store.write({ questions, feedback: [] }).then(() => written++, () => failed++);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    });
    try {
      // Without a listener on each connection in use, one of these shutdowns ends the process.
      for (let round = 0; round < 4; round++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        await server.stop();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await server.start();
      }
      const before = written;
      while (written < before + 5) await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      writing = false;
      await Promise.all(writers);
      await store.close();
    }
    assert.ok(failed > 0, 'control: writes did fail while it was down');
  });

  it('holds a bounded number of rows while the database is away, dropping the oldest and counting them', async () => {
    const url = await server.createDatabase('bounded');
    const store = postgresInsightsStore(url);
    const lines: string[] = [];
    const recorder = new InsightsRecorder({ store, retentionDays: 90, log: (_level, msg) => lines.push(msg), redactKey: (t) => t, maxBuffered: 50, flushMs: 5 });
    try {
      await recorder.open();
      await server.stop();
      const now = Date.now();
      for (let i = 0; i < 200; i++) {
        recorder.question({ request_id: crypto.randomUUID(), time: now + i, bot_id: 'demo', question: `question ${i}`, answer_found: true, outcome: 'answered', cache: null, sources: [], duration_ms: 1 });
        if (i % 40 === 0) await recorder.flush();
      }
      await recorder.flush();
      assert.equal(recorder.status.pending, 50, 'at most 50 rows held');
      assert.equal(recorder.status.dropped, 150);
      assert.equal(recorder.status.paused, true);
      await server.start();
      await recorder.flush();
      assert.equal(recorder.status.paused, false);
      const stored = await query<{ question: string }>(url, 'SELECT question FROM insights_questions ORDER BY time');
      assert.deepEqual(stored.map((r) => r.question), Array.from({ length: 50 }, (_, i) => `question ${150 + i}`), 'the newest 50 are kept');
      assert.equal(lines.filter((l) => l.startsWith('insights paused')).length, 1);
      assert.equal(lines.filter((l) => l.startsWith('insights resumed')).length, 1);
    } finally {
      await store.close();
    }
  });

  it('deletes rows past retention, with their ratings and day counts', async () => {
    const url = await server.createDatabase('retention');
    const store = postgresInsightsStore(url);
    try {
      await store.open();
      const now = Date.now();
      const row = (time: number, question: string) => ({ request_id: crypto.randomUUID(), time, bot_id: 'demo', question, question_key: question, answer_found: true, outcome: 'answered', cache: null, sources: ['https://docs.example.com/a'], duration_ms: 1 });
      const old = row(now - 100 * DAY_MS, 'old');
      await store.write({ questions: [old, row(now - DAY_MS, 'recent')], feedback: [{ request_id: old.request_id, time: old.time, bot_id: 'demo', rating: 'up', comment: null }] });
      await store.deleteBefore(now - 90 * DAY_MS);
      assert.deepEqual(await query(url, 'SELECT question FROM insights_questions'), [{ question: 'recent' }]);
      assert.deepEqual(await query(url, 'SELECT COUNT(*)::int AS n FROM insights_page_days'), [{ n: 1 }]);
      assert.deepEqual(await query(url, 'SELECT question_key FROM insights_key_days'), [{ question_key: 'recent' }]);
      assert.deepEqual(await query(url, 'SELECT COUNT(*)::int AS n FROM insights_feedback'), [{ n: 0 }]);
    } finally {
      await store.close();
    }
  });
});
