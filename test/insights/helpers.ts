import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { questionKey } from '../../packages/bot-answer-proxy/src/insights/question-key.js';
import type { SqlInsightsStore } from '../../packages/bot-answer-proxy/src/insights/sql/store.js';
import type { SqlClient } from '../../packages/bot-answer-proxy/src/insights/sql/client.js';
import { migrations } from '../../packages/bot-answer-proxy/src/insights/sql/schema.js';
import { startProxy, type RunningProxy, type StartProxyOptions } from '../../packages/bot-answer-proxy/src/proxy/node.js';
import { rawUpstream, type RawUpstream } from '../proxy/helpers.js';

/** The owner's token in these tests. */
export const TOKEN = 'owner-token-for-tests-0123456789';

/** A temporary folder, removed by `remove()`. */
export async function tempDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'bot-answer-insights-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A proxy in demo mode (the local Answer API in-process) with insights, its log lines kept. */
export interface InsightsProxy {
  url: string;
  proxy: RunningProxy;
  logs: string[];
  /** Writes every enqueued row now. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export async function startInsightsProxy(options: Partial<StartProxyOptions>): Promise<InsightsProxy> {
  const logs: string[] = [];
  const proxy = await startProxy({ port: 0, host: '127.0.0.1', rateLimitPerMinute: 0, insightsToken: TOKEN, log: (line) => logs.push(line), ...options });
  return { url: proxy.url, proxy, logs, flush: () => proxy.handler.insights!.flush(), close: () => proxy.close() };
}

/** Log lines with this message (prefix). */
export function logged(logs: string[], msg: string): Array<Record<string, unknown>> {
  return logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => String(line.msg).startsWith(msg));
}

/** Asks a question through the proxy; resolves with the answer's request id once it is complete. */
export async function ask(url: string, message: string, options: { bot?: string; stream?: boolean } = {}): Promise<{ id: string; status: number; text: string }> {
  const response = await fetch(`${url}/api/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, bot_id: options.bot ?? 'demo', stream: options.stream ?? false }),
  });
  const text = await response.text();
  return { id: response.headers.get('x-request-id')!, status: response.status, text };
}

/** Rates an answer through the proxy. */
export async function rate(url: string, body: { request_id: string; rating: 'up' | 'down'; comment?: string; bot_id?: string }): Promise<number> {
  const response = await fetch(`${url}/api/answer/feedback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bot_id: 'demo', ...body }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Parses CSV strictly by RFC 4180 (CRLF records, quoted fields with doubled quotes); fails on anything else. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        assert.ok(i < text.length, 'unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        assert.notEqual(text[i], '"', 'a quote inside an unquoted field');
        field += text[i++];
      }
    }
    row.push(field);
    if (text[i] === ',') i++;
    else {
      assert.equal(text.slice(i, i + 2), '\r\n', `records end with CRLF (at ${i}: ${JSON.stringify(text.slice(i, i + 10))})`);
      i += 2;
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

/** The CSV export as records keyed by the header's names (checked to be exactly the documented one). */
export async function exportCsv(url: string, query = ''): Promise<Array<Record<string, string>>> {
  const response = await fetch(`${url}/insights/questions.csv${query}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(response.status, 200, await response.clone().text());
  const [header, ...rows] = parseCsv(await response.text());
  assert.deepEqual(header, ['time', 'bot_id', 'question', 'answer_found', 'cache', 'sources', 'duration_ms', 'rating', 'comment', 'request_id', 'outcome']);
  return rows.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]!])));
}

/** The owner's page as the bearer token sees it. */
export async function page(url: string, query = ''): Promise<{ status: number; html: string; headers: Headers }> {
  const response = await fetch(`${url}/insights${query}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: response.status, html: await response.text(), headers: response.headers };
}

/** A stand-in upstream giving the seed API's fields for each outcome: the question says which. */
export function outcomesUpstream(): Promise<RawUpstream> {
  return rawUpstream((_req, res, body) => {
    const message = String((JSON.parse(body) as { message: string }).message);
    const answer = message.includes('deploy')
      ? { answer: 'Run `deploy rollback` [[1]](https://docs.example.com/rollback).', answer_found: true, sources: [{ url: 'https://docs.example.com/rollback', title: 'Rollback' }] }
      : message.includes('gym')
        ? { answer: "I'm not sure the docs answer this. These pages look closest.", answer_found: false, sources: [{ url: 'https://docs.example.com/benefits', title: 'Benefits' }] }
        : { answer: "I couldn't find anything about this in the docs.", answer_found: false, sources: [] };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
}

/**
 * Asks one question of each outcome (streamed and JSON) through a proxy in front of
 * {@link outcomesUpstream}, then checks what insights recorded: the CSV's outcome column, the day
 * counts, the unanswered list split into refused and not sure, and pages cited only by answers.
 */
export async function checkOutcomesRecorded(insightsDb: string): Promise<void> {
  const upstream = await outcomesUpstream();
  const proxy = await startInsightsProxy({ insightsDb, apiKey: 'sk-outcomes-test-key', baseUrl: upstream.url });
  try {
    await ask(proxy.url, 'How do I roll back a bad deploy?', { stream: true });
    await ask(proxy.url, 'Is there a gym discount?');
    await ask(proxy.url, 'Is there a gym discount?', { stream: true });
    await ask(proxy.url, 'Who won the 2018 FIFA World Cup?');
    await proxy.flush();
    const rows = await exportCsv(proxy.url);
    assert.deepEqual(
      rows.map((r) => [r.question, r.answer_found, r.outcome, r.sources]),
      [
        ['How do I roll back a bad deploy?', 'true', 'answered', 'https://docs.example.com/rollback'],
        ['Is there a gym discount?', 'false', 'not_sure', 'https://docs.example.com/benefits'],
        ['Is there a gym discount?', 'false', 'not_sure', 'https://docs.example.com/benefits'],
        ['Who won the 2018 FIFA World Cup?', 'false', 'refused', ''],
      ],
    );
    const { html } = await page(proxy.url);
    const tile = (label: string) => new RegExp(`<span class="label">${label}</span><span class="value">([^<]*)</span>`).exec(html)?.[1];
    assert.deepEqual([tile('Questions'), tile('Not sure'), tile('Refused')], ['4', '2', '1']);
    assert.match(html, /data-found="1" data-not-sure="2"/, 'the chart has the day with its not-sure count');
    const unanswered = html.slice(html.indexOf('id="unanswered"'), html.indexOf('id="top"'));
    assert.match(unanswered, /Is there a gym discount\?<\/p><span class="share"><span class="not-sure">2 not sure<\/span><\/span>/);
    assert.match(unanswered, /Who won the 2018 FIFA World Cup\?<\/p><span class="share"><span class="refused">1 refused<\/span><\/span>/);
    const pages = html.slice(html.indexOf('id="pages"'));
    assert.match(pages, /docs\.example\.com\/rollback/);
    assert.doesNotMatch(pages, /benefits/, 'the closest pages of a not-sure answer are not counted as cited');
  } finally {
    await proxy.close();
    await upstream.close();
  }
}

/**
 * A store at schema version 1 holding a not-sure answer recorded as `refused` (it has sources),
 * a refusal and an answer, migrated to version 2: the not-sure row renamed and its day count
 * moved from `refused` to `not_sure`.
 */
export async function checkOutcomeMigration(store: SqlInsightsStore): Promise<void> {
  const client = store.client;
  await client.migrate(migrations(client.dialect).slice(0, 1));
  const now = Date.now();
  const day = Math.floor(now / 86_400_000);
  const question = (id: string, key: string, found: number, outcome: string, sources: string) => ({
    sql: 'INSERT INTO insights_questions (request_id, time, bot_id, question, question_key, answer_found, outcome, cache, sources, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    params: [id, now, 'demo', key, key, found, outcome, null, sources, 3],
  });
  const keyDay = (key: string, asked: number, found: number, refused: number) => ({
    sql: 'INSERT INTO insights_key_days (day, bot_id, question_key, asked, found, refused, failed) VALUES (?, ?, ?, ?, ?, ?, ?)',
    params: [day, 'demo', key, asked, found, refused, 0],
  });
  await client.run(
    [
      question('q1', 'gym discount', 0, 'refused', 'https://docs.example.com/benefits'),
      question('q2', 'gym discount', 0, 'refused', ''),
      question('q3', 'world cup', 0, 'refused', ''),
      question('q4', 'deploy', 1, 'answered', 'https://docs.example.com/rollback'),
      keyDay('gym discount', 2, 0, 2),
      keyDay('world cup', 1, 0, 1),
      keyDay('deploy', 1, 1, 0),
    ],
    { transaction: true },
  );
  await client.migrate(migrations(client.dialect).slice(0, 2));
  const [versions, outcomes, days] = await client.run([
    { sql: 'SELECT version FROM insights_schema ORDER BY version', params: [] },
    { sql: 'SELECT request_id, outcome FROM insights_questions ORDER BY request_id', params: [] },
    { sql: 'SELECT question_key, asked, found, refused, not_sure FROM insights_key_days ORDER BY question_key', params: [] },
  ]);
  assert.deepEqual(versions!.rows.map((r) => Number(r.version)), [1, 2]);
  assert.deepEqual(outcomes!.rows.map((r) => [r.request_id, r.outcome]), [['q1', 'not_sure'], ['q2', 'refused'], ['q3', 'refused'], ['q4', 'answered']]);
  assert.deepEqual(
    days!.rows.map((r) => [r.question_key, Number(r.asked), Number(r.found), Number(r.refused), Number(r.not_sure)]),
    [['deploy', 1, 1, 0, 0], ['gym discount', 2, 0, 1, 1], ['world cup', 1, 0, 1, 0]],
  );
  const aggregates = await store.aggregate({ from: now - 86_400_000, to: now + 1 }, { top: 10, unanswered: 10, pages: 10, rated: 10 });
  assert.deepEqual(aggregates.unanswered, [
    { key: 'gym discount', asked: 2, found: 0, refused: 1, not_sure: 1 },
    { key: 'world cup', asked: 1, found: 0, refused: 1, not_sure: 0 },
  ]);
  assert.equal(aggregates.days[0]!.not_sure, 1);
}

/** A stored question as version 2 keyed it. */
export interface OldRow {
  id: string;
  day: number;
  bot: string;
  question: string;
  /** The key the previous release gave it. */
  key: string;
  outcome: string;
}

/** Day rows as the store writes them: the questions' counts summed by day, bot and key. */
function keyDays(rows: ReadonlyArray<{ day: number; bot: string; key: string; outcome: string }>): Map<string, number[]> {
  const days = new Map<string, number[]>();
  for (const row of rows) {
    const id = JSON.stringify([row.day, row.bot, row.key]);
    const failed = ['answered', 'not_sure', 'refused', 'stopped'].includes(row.outcome) ? 0 : 1;
    const counts = [1, row.outcome === 'answered' ? 1 : 0, row.outcome === 'refused' ? 1 : 0, row.outcome === 'not_sure' ? 1 : 0, failed];
    const before = days.get(id);
    days.set(id, before ? before.map((n, i) => n + counts[i]!) : counts);
  }
  return days;
}

/**
 * Writes `rows` into a store at schema version 2 as that release did: each question with its
 * old key, and the day rows of their counts, with those of `deleted` (questions retention has
 * deleted, whose day rows remain).
 */
export async function storeOldRows(client: SqlClient, rows: readonly OldRow[], deleted: ReadonlyArray<{ day: number; bot: string; key: string; outcome: string }> = []): Promise<void> {
  await client.run(
    [
      ...rows.map((r) => ({
        sql: 'INSERT INTO insights_questions (request_id, time, bot_id, question, question_key, answer_found, outcome, cache, sources, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        params: [r.id, r.day * 86_400_000 + 1_000, r.bot, r.question, r.key, r.outcome === 'answered' ? 1 : 0, r.outcome, null, '', 3],
      })),
      ...[...keyDays([...rows, ...deleted])].map(([id, counts]) => ({
        sql: 'INSERT INTO insights_key_days (day, bot_id, question_key, asked, found, refused, not_sure, failed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        params: [...(JSON.parse(id) as unknown[]), ...counts],
      })),
    ],
    { transaction: true },
  );
}

/**
 * A store at schema version 2 holding questions keyed by the previous release (contractions
 * split, "cannot" a stop word), over three pages of the re-keying step, opened by this release:
 * every question has this release's key, and each day row holds exactly the counts of its
 * questions under the new keys; a day row whose questions retention deleted is left as it was.
 * The first page names only the questions whose key changes. In SQLite and D1 it is written twice
 * before (a D1 migration that failed after it and starts over), and nothing is moved twice
 * (PostgreSQL sums the day counts over every page, in one transaction).
 */
export async function checkRekeyMigration(store: SqlInsightsStore): Promise<void> {
  const client = store.client;
  await client.migrate(migrations(client.dialect).slice(0, 2));
  const today = Math.floor(Date.now() / 86_400_000);
  const bulk = [
    ['I cannot log in', 'login'],
    ['I can log in', 'login'],
    ['How do I reset my password?', 'password reset'],
  ] as const;
  const rows: OldRow[] = [
    ...Array.from({ length: 2_100 }, (_, i): OldRow => {
      const [question, key] = bulk[i % 3]!;
      return { id: `req-${String(i).padStart(5, '0')}`, day: today - 3 + (i % 2), bot: 'bulk', question, key, outcome: i % 4 === 0 ? 'answered' : 'refused' };
    }),
    { id: 'req-a1', day: today, bot: 'demo', question: 'I cannot log in', key: 'login', outcome: 'refused' },
    { id: 'req-a2', day: today, bot: 'demo', question: 'How do I log in?', key: 'login', outcome: 'answered' },
    { id: 'req-a3', day: today, bot: 'demo', question: "I can't log in", key: 'login t', outcome: 'refused' },
    { id: 'req-a4', day: today, bot: 'demo', question: 'cant log in', key: 'cant login', outcome: 'not_sure' },
    { id: 'req-a5', day: today, bot: 'demo', question: 'How do I reset my password?', key: 'password reset', outcome: 'answered' },
    { id: 'req-a6', day: today - 1, bot: 'demo', question: 'I cannot log in', key: 'login', outcome: 'upstream_error' },
    { id: 'req-a7', day: today, bot: 'hr', question: 'Dark mode doesn\u2019t work', key: 'dark doesn mode t work', outcome: 'refused' },
  ];
  // Retention deleted the questions of this day, not yet its day rows.
  const orphan = { day: today - 5, bot: 'demo', key: 'login', outcome: 'refused' };
  await storeOldRows(client, rows, [orphan, orphan]);

  const step = migrations(client.dialect).find((m) => m.version === 3)?.run;
  assert.ok(step, 'version 3 re-keys the stored questions');
  const [firstRows] = await client.run([step.read(undefined)]);
  const page = step.write(firstRows!.rows);
  assert.equal(firstRows!.rows.length, 1_000, 'a page is 1,000 questions');
  const changing = firstRows!.rows.filter((r) => questionKey(String(r.question)) !== r.question_key).map((r) => String(r.request_id));
  const named = new Set(page.statements.flatMap((s) => s.params.flat()).filter((p) => typeof p === 'string' && p.startsWith('req-')));
  assert.deepEqual([...named].sort(), changing.sort(), 'the page writes the questions whose key changes, and only those');
  assert.ok(changing.length > 0 && changing.length < 1_000);
  if (client.dialect === 'sqlite') {
    await client.run(page.statements, { transaction: true });
    await client.run(page.statements, { transaction: true });
  }

  await store.open();
  const [versions, questions, stored] = await client.run([
    { sql: 'SELECT version FROM insights_schema ORDER BY version', params: [] },
    { sql: 'SELECT request_id, question, question_key FROM insights_questions ORDER BY request_id', params: [] },
    { sql: 'SELECT day, bot_id, question_key, asked, found, refused, not_sure, failed FROM insights_key_days ORDER BY day, bot_id, question_key', params: [] },
  ]);
  assert.deepEqual(versions!.rows.map((r) => Number(r.version)), [1, 2, 3]);
  assert.deepEqual(
    questions!.rows.filter((r) => String(r.request_id).startsWith('req-a')).map((r) => r.question_key),
    ['login not', 'login', 'login not', 'login not', 'password reset', 'login not', 'dark mode not work'],
  );
  assert.deepEqual(questions!.rows.filter((r) => r.question_key !== questionKey(String(r.question))), [], 'every question has the new key');
  const rekeyed = keyDays(rows.map((r) => ({ ...r, key: questionKey(r.question) })));
  const expected = keyDays([orphan, orphan]);
  for (const [id, counts] of rekeyed) expected.set(id, counts);
  const sorted = (entries: Array<[string, number[]]>) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  assert.deepEqual(
    sorted(stored!.rows.map((r) => [JSON.stringify([Number(r.day), r.bot_id, r.question_key]), [r.asked, r.found, r.refused, r.not_sure, r.failed].map(Number)])),
    sorted([...expected]),
    'the day rows hold their questions under the new keys, the emptied old ones are gone, the orphaned one is kept',
  );
}
