import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sqliteInsightsStore } from '../../packages/bot-answer-proxy/src/proxy/node.js';
import { CSV_HEADER, csvCell } from '../../packages/bot-answer-proxy/src/insights/csv.js';
import type { QuestionRow } from '../../packages/bot-answer-proxy/src/insights/types.js';
import { ask, exportCsv, parseCsv, rate, startInsightsProxy, tempDir, TOKEN } from './helpers.js';

const DAY_MS = 86_400_000;
let folder: Awaited<ReturnType<typeof tempDir>>;
before(async () => (folder = await tempDir()));
after(() => folder.remove());

describe('the CSV export', () => {
  it('quotes by RFC 4180 and keeps formulas out of spreadsheets', () => {
    assert.equal(CSV_HEADER, 'time,bot_id,question,answer_found,cache,sources,duration_ms,rating,comment,request_id,outcome');
    const cases: Array<[string, string]> = [
      ['plain text', 'plain text'],
      ['a, b', '"a, b"'],
      ['say "hi"', '"say ""hi"""'],
      ['two\nlines', '"two\nlines"'],
      ['cr\rhere', '"cr\rhere"'],
      ['=1+1', "'=1+1"],
      ['+49 30 1234', "'+49 30 1234"],
      ['-2', "'-2"],
      ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
      ['\tindented', "'\tindented"],
      ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
      ['a=b', 'a=b'],
      ['', ''],
    ];
    for (const [value, cell] of cases) assert.equal(csvCell(value), cell, JSON.stringify(value));
  });

  it('exports what visitors typed exactly (prefixed where it would be a formula), one record per question, with its rating', async () => {
    const proxy = await startInsightsProxy({ insightsDb: join(folder.dir, 'tricky.sqlite') });
    try {
      const questions = ['=1+1', '+cmd|calc', '-2 degrees in Lisbon?', '@mention the team', 'He said "hi", then left', 'line one\nline two', '日本語で質問できますか？', '<img src=x onerror=alert(1)>'];
      const ids: string[] = [];
      for (const question of questions) ids.push((await ask(proxy.url, question)).id);
      await rate(proxy.url, { request_id: ids[0]!, rating: 'down', comment: '=HYPERLINK("http://evil.example","click")' });
      await proxy.flush();
      const rows = await exportCsv(proxy.url);
      assert.deepEqual(
        rows.map((r) => r.question),
        ["'=1+1", "'+cmd|calc", "'-2 degrees in Lisbon?", "'@mention the team", 'He said "hi", then left', 'line one\nline two', '日本語で質問できますか？', '<img src=x onerror=alert(1)>'],
      );
      assert.equal(rows[0]!.comment, '\'=HYPERLINK("http://evil.example","click")');
      assert.deepEqual(rows.map((r) => r.request_id), ids);
      for (const row of rows) for (const value of Object.values(row)) assert.doesNotMatch(value, /^[=+\-@\t\r]/, 'no cell starts a formula');
    } finally {
      await proxy.close();
    }
  });

  it('streams a large export page by page, none lost or repeated at the page edges, filtered by period and bot', async () => {
    const file = join(folder.dir, 'large.sqlite');
    const store = sqliteInsightsStore(file);
    await store.open();
    const now = Date.now();
    // 2,500 rows over three instants, so pages of 1,000 end in the middle of equal times.
    const rows: QuestionRow[] = Array.from({ length: 2_500 }, (_, i) => ({
      request_id: crypto.randomUUID(),
      time: now - 3_600_000 + (i % 3),
      bot_id: i % 5 === 0 ? 'hr' : 'docs',
      question: `question ${i}`,
      question_key: `question ${i}`,
      answer_found: i % 2 === 0,
      outcome: i % 2 === 0 ? 'answered' : 'refused',
      cache: null,
      sources: [],
      duration_ms: i,
    }));
    const old = { ...rows[0]!, request_id: crypto.randomUUID(), time: now - 10 * DAY_MS, question: 'ten days ago' };
    await store.write({ questions: [...rows, old], feedback: [] });
    await store.close();
    const proxy = await startInsightsProxy({ insightsDb: file });
    try {
      const response = await fetch(`${proxy.url}/insights/questions.csv`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.match(response.headers.get('content-type')!, /^text\/csv; charset=utf-8/);
      assert.match(response.headers.get('content-disposition')!, /^attachment; filename="questions-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/);
      let chunks = 0;
      let text = '';
      const decoder = new TextDecoder();
      for await (const chunk of response.body!) {
        chunks++;
        text += decoder.decode(chunk, { stream: true });
      }
      const [, ...records] = parseCsv(text);
      assert.equal(records.length, 2_501, 'every row of the last 30 days, the ten-day-old one too');
      assert.ok(chunks >= 3, `sent in pieces as pages were read (${chunks} chunks)`);
      const ids = records.map((r) => r[9]);
      assert.equal(new Set(ids).size, ids.length, 'no row twice');
      const times = records.map((r) => Date.parse(r[0]!));
      assert.deepEqual(times, [...times].sort((a, b) => a - b), 'oldest first');
      assert.equal((await exportCsv(proxy.url, '?period=7')).length, 2_500, 'the period filters');
      assert.equal((await exportCsv(proxy.url, '?period=7&bot=hr')).length, 500, 'and the bot');
    } finally {
      await proxy.close();
    }
  });
});
