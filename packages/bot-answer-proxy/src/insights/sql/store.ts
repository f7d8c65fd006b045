import type { AggregateLimits, ExportCursor, ExportRow, FeedbackRow, InsightsAggregates, InsightsBatch, InsightsFilter, InsightsStore, QuestionRow } from '../types.js';
import type { SqlClient, SqlStatement } from './client.js';
import { ADD_KEY_DAY, DAY_MS, dayCounts, INSERT_KEY_DAY } from './key-days.js';
import { migrations } from './schema.js';

/** Rows deleted per statement by retention: short transactions, so writes go on between them. */
const DELETE_CHUNK = 5_000;
const ANSWERED = "outcome IN ('answered', 'not_sure', 'refused', 'stopped')";

const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value ?? 0));
const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** The time range (and bot) condition on a table, with its parameters; the bot first, as its index has it. */
function where(filter: InsightsFilter, alias = ''): { sql: string; params: unknown[] } {
  const a = alias ? `${alias}.` : '';
  if (filter.bot === undefined) return { sql: `${a}time >= ? AND ${a}time < ?`, params: [filter.from, filter.to] };
  return { sql: `${a}bot_id = ? AND ${a}time >= ? AND ${a}time < ?`, params: [filter.bot, filter.from, filter.to] };
}

/** A rating and a comment sent for the same answer in one batch become one row: the last rating, the last comment. */
function mergeFeedback(rows: readonly FeedbackRow[]): FeedbackRow[] {
  const merged = new Map<string, FeedbackRow>();
  for (const row of rows) {
    const before = merged.get(row.request_id);
    merged.set(row.request_id, before ? { ...row, comment: row.comment ?? before.comment } : row);
  }
  return [...merged.values()];
}

/** The pages a question's answer cited: its sources, each once; a not-sure answer's closest pages are no citations. */
const cited = (q: QuestionRow): Set<string> => new Set(q.outcome === 'not_sure' ? [] : q.sources);

/** The newest time each bot was seen in the batch. */
function botsSeen(rows: readonly QuestionRow[]): Array<[string, number]> {
  const seen = new Map<string, number>();
  for (const row of rows) seen.set(row.bot_id, Math.max(seen.get(row.bot_id) ?? 0, row.time));
  return [...seen];
}

const INSERT_QUESTION =
  'INSERT INTO insights_questions (request_id, time, bot_id, question, question_key, answer_found, outcome, cache, sources, duration_ms)';
const INSERT_PAGE_DAY = 'INSERT INTO insights_page_days (day, bot_id, url, cited)';
const ADD_PAGE_DAY = 'ON CONFLICT (day, bot_id, url) DO UPDATE SET cited = insights_page_days.cited + excluded.cited';
const INSERT_FEEDBACK = 'INSERT INTO insights_feedback (request_id, time, bot_id, rating, comment)';
const UPSERT_FEEDBACK = 'ON CONFLICT (request_id) DO UPDATE SET time = excluded.time, rating = excluded.rating, comment = COALESCE(excluded.comment, insights_feedback.comment)';
const INSERT_BOT = 'INSERT INTO insights_bots (bot_id, last_seen)';
const UPSERT_BOT = 'ON CONFLICT (bot_id) DO UPDATE SET last_seen = CASE WHEN excluded.last_seen > insights_bots.last_seen THEN excluded.last_seen ELSE insights_bots.last_seen END';

/**
 * The insights store over SQL: the same schema and queries on SQLite, PostgreSQL and D1, through
 * a {@link SqlClient}. Writes are idempotent (`ON CONFLICT DO NOTHING` on the request id).
 */
export class SqlInsightsStore implements InsightsStore {
  constructor(readonly client: SqlClient) {}

  open(): Promise<void> {
    return this.client.migrate(migrations(this.client.dialect));
  }

  async write(batch: InsightsBatch): Promise<void> {
    const statements = this.client.dialect === 'postgres' ? this.postgresWrite(batch) : this.rowByRowWrite(batch);
    if (statements.length > 0) await this.client.run(statements, { transaction: true });
  }

  /**
   * One statement per row (SQLite prepares each once). A question's day counts follow it, each
   * guarded by `changes() = 1`: the insert before it changed a row, so they count only a
   * question that was not stored already (each of them changes one row, keeping the chain).
   */
  private rowByRowWrite(batch: InsightsBatch): SqlStatement[] {
    const statements: SqlStatement[] = [];
    for (const q of batch.questions) {
      const day = Math.floor(q.time / DAY_MS);
      statements.push({
        sql: `${INSERT_QUESTION} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (request_id) DO NOTHING`,
        params: [q.request_id, q.time, q.bot_id, q.question, q.question_key, q.answer_found ? 1 : 0, q.outcome, q.cache, q.sources.join(' '), q.duration_ms],
      });
      statements.push({
        sql: `${INSERT_KEY_DAY} SELECT ?, ?, ?, 1, ?, ?, ?, ? WHERE changes() = 1 ${ADD_KEY_DAY}`,
        params: [day, q.bot_id, q.question_key, ...dayCounts(q)],
      });
      for (const url of cited(q)) statements.push({ sql: `${INSERT_PAGE_DAY} SELECT ?, ?, ?, 1 WHERE changes() = 1 ${ADD_PAGE_DAY}`, params: [day, q.bot_id, url] });
    }
    for (const f of mergeFeedback(batch.feedback)) {
      statements.push({ sql: `${INSERT_FEEDBACK} VALUES (?, ?, ?, ?, ?) ${UPSERT_FEEDBACK}`, params: [f.request_id, f.time, f.bot_id, f.rating, f.comment] });
    }
    for (const [bot, time] of botsSeen(batch.questions)) statements.push({ sql: `${INSERT_BOT} VALUES (?, ?) ${UPSERT_BOT}`, params: [bot, time] });
    return statements;
  }

  /**
   * PostgreSQL: the rows passed as arrays (`unnest`), and the day counts in the same statement
   * from what the insert returned (only questions not stored already), in key order so two
   * instances adding to the same days take their row locks in the same order.
   */
  private postgresWrite(batch: InsightsBatch): SqlStatement[] {
    const statements: SqlStatement[] = [];
    const qs = batch.questions;
    if (qs.length > 0) {
      statements.push({
        sql: `WITH inserted AS (
            ${INSERT_QUESTION}
            SELECT * FROM unnest(?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::smallint[], ?::text[], ?::text[], ?::text[], ?::integer[])
            ON CONFLICT (request_id) DO NOTHING
            RETURNING request_id, time, bot_id, question_key, answer_found, outcome, sources
          ), keys AS (
            ${INSERT_KEY_DAY}
            SELECT time / ${DAY_MS}, bot_id, question_key, COUNT(*), SUM(answer_found), SUM(CASE WHEN outcome = 'refused' THEN 1 ELSE 0 END),
              SUM(CASE WHEN outcome = 'not_sure' THEN 1 ELSE 0 END), SUM(CASE WHEN ${ANSWERED} THEN 0 ELSE 1 END)
            FROM inserted GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
            ${ADD_KEY_DAY}
          )
          ${INSERT_PAGE_DAY}
          SELECT day, bot_id, url, COUNT(*) FROM (
            SELECT DISTINCT time / ${DAY_MS} AS day, bot_id, url, request_id FROM inserted, unnest(string_to_array(NULLIF(sources, ''), ' ')) AS url
            WHERE outcome <> 'not_sure'
          ) AS cited GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
          ${ADD_PAGE_DAY}`,
        params: [
          qs.map((q) => q.request_id),
          qs.map((q) => q.time),
          qs.map((q) => q.bot_id),
          qs.map((q) => q.question),
          qs.map((q) => q.question_key),
          qs.map((q) => (q.answer_found ? 1 : 0)),
          qs.map((q) => q.outcome),
          qs.map((q) => q.cache),
          qs.map((q) => q.sources.join(' ')),
          qs.map((q) => q.duration_ms),
        ],
      });
      const bots = botsSeen(qs).sort((a, b) => (a[0] < b[0] ? -1 : 1));
      statements.push({ sql: `${INSERT_BOT} SELECT * FROM unnest(?::text[], ?::bigint[]) ${UPSERT_BOT}`, params: [bots.map((b) => b[0]), bots.map((b) => b[1])] });
    }
    const fs = mergeFeedback(batch.feedback).sort((a, b) => (a.request_id < b.request_id ? -1 : 1));
    if (fs.length > 0) {
      statements.push({
        sql: `${INSERT_FEEDBACK} SELECT * FROM unnest(?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[]) ${UPSERT_FEEDBACK}`,
        params: [fs.map((f) => f.request_id), fs.map((f) => f.time), fs.map((f) => f.bot_id), fs.map((f) => f.rating), fs.map((f) => f.comment)],
      });
    }
    return statements;
  }

  async deleteBefore(time: number): Promise<void> {
    const rowId = this.client.dialect === 'postgres' ? 'ctid' : 'rowid';
    for (const table of ['insights_questions', 'insights_feedback']) {
      const sql = `DELETE FROM ${table} WHERE ${rowId} IN (SELECT ${rowId} FROM ${table} WHERE time < ? LIMIT ${DELETE_CHUNK})`;
      for (;;) {
        const [result] = await this.client.run([{ sql, params: [time] }]);
        if (result!.changes < DELETE_CHUNK) break;
      }
    }
    // The day counts go a day at a time, whole days only: the last partial day stays until it is whole.
    const before = Math.floor(time / DAY_MS);
    for (const table of ['insights_key_days', 'insights_page_days']) {
      const sql = `DELETE FROM ${table} WHERE day = (SELECT MIN(day) FROM ${table}) AND day < ?`;
      for (;;) {
        const [result] = await this.client.run([{ sql, params: [before] }]);
        if (result!.changes === 0) break;
      }
    }
    await this.client.run([{ sql: 'DELETE FROM insights_bots WHERE last_seen < ?', params: [time] }]);
  }

  async aggregate(filter: InsightsFilter, limits: AggregateLimits): Promise<InsightsAggregates> {
    // Day counts cover whole UTC days: those from `from` to the one holding `to`.
    const days = { sql: 'day >= ? AND day <= ?', params: [Math.floor(filter.from / DAY_MS), Math.floor((filter.to - 1) / DAY_MS)] as unknown[] };
    if (filter.bot !== undefined) {
      days.sql += ' AND bot_id = ?';
      days.params.push(filter.bot);
    }
    const f = where(filter, 'f');
    const [perDay, top, unanswered, pages, ratings, rated] = await this.client.run([
      {
        sql: `SELECT day, SUM(asked) AS asked, SUM(found) AS found, SUM(refused) AS refused, SUM(not_sure) AS not_sure, SUM(failed) AS failed
          FROM insights_key_days WHERE ${days.sql} GROUP BY day ORDER BY day`,
        params: days.params,
      },
      {
        sql: `SELECT question_key AS k, SUM(asked) AS asked, SUM(found) AS found FROM insights_key_days WHERE ${days.sql} GROUP BY question_key ORDER BY asked DESC, k LIMIT ?`,
        params: [...days.params, limits.top],
      },
      {
        sql: `SELECT question_key AS k, SUM(refused) + SUM(not_sure) AS asked, SUM(found) AS found, SUM(refused) AS refused, SUM(not_sure) AS not_sure
          FROM insights_key_days WHERE ${days.sql} AND (refused > 0 OR not_sure > 0) GROUP BY question_key ORDER BY asked DESC, k LIMIT ?`,
        params: [...days.params, limits.unanswered],
      },
      { sql: `SELECT url, SUM(cited) AS cited FROM insights_page_days WHERE ${days.sql} GROUP BY url ORDER BY cited DESC, url LIMIT ?`, params: [...days.params, limits.pages] },
      // Ratings as received (their questions may not be written yet): counting them needs no join.
      { sql: `SELECT f.rating AS rating, COUNT(*) AS n FROM insights_feedback f WHERE ${f.sql} GROUP BY f.rating`, params: f.params },
      {
        // The latest ratings first (comments before bare thumbs), then their questions: a join of a few rows, not of the period's.
        sql: `SELECT f.time AS time, f.rating AS rating, f.comment AS comment, q.question AS question, q.bot_id AS bot_id, q.answer_found AS answer_found
          FROM (SELECT request_id, time, rating, comment FROM insights_feedback f WHERE ${f.sql}
            ORDER BY CASE WHEN f.comment IS NULL THEN 1 ELSE 0 END, f.time DESC LIMIT ?) f
          JOIN insights_questions q ON q.request_id = f.request_id
          ORDER BY CASE WHEN f.comment IS NULL THEN 1 ELSE 0 END, f.time DESC`,
        params: [...f.params, limits.rated * 2],
      },
    ]);
    const counted = (rows: Array<Record<string, unknown>>) => rows.map((r) => ({ key: String(r.k), asked: num(r.asked), found: num(r.found) }));
    const rating = (name: string) => num(ratings!.rows.find((r) => r.rating === name)?.n);
    return {
      days: perDay!.rows.map((r) => ({ day: num(r.day), asked: num(r.asked), found: num(r.found), refused: num(r.refused), not_sure: num(r.not_sure), failed: num(r.failed) })),
      top: counted(top!.rows),
      unanswered: unanswered!.rows.map((r) => ({ key: String(r.k), asked: num(r.asked), found: num(r.found), refused: num(r.refused), not_sure: num(r.not_sure) })),
      pages: pages!.rows.map((r) => ({ url: String(r.url), cited: num(r.cited) })),
      ratings: { up: rating('up'), down: rating('down') },
      rated: rated!.rows.slice(0, limits.rated).map((r) => ({
        time: num(r.time),
        rating: r.rating === 'up' ? 'up' : 'down',
        comment: text(r.comment),
        question: String(r.question),
        bot_id: String(r.bot_id),
        answer_found: num(r.answer_found) === 1,
      })),
    };
  }

  async wordings(keys: string[], filter: InsightsFilter, perKey: number): Promise<Map<string, string[]>> {
    const range = where(filter);
    // With a bot, SQLite's planner would take the (bot_id, time) index and read all of the bot's rows for each key.
    const index = this.client.dialect === 'sqlite' ? ' INDEXED BY insights_questions_key' : '';
    const results = await this.client.run(
      keys.map((key) => ({
        sql: `SELECT question FROM insights_questions${index} WHERE question_key = ? AND ${range.sql} ORDER BY time DESC LIMIT ?`,
        params: [key, ...range.params, perKey],
      })),
    );
    return new Map(keys.map((key, i) => [key, results[i]!.rows.map((r) => String(r.question))]));
  }

  async bots(): Promise<string[]> {
    const [result] = await this.client.run([{ sql: 'SELECT bot_id FROM insights_bots ORDER BY last_seen DESC, bot_id LIMIT 100', params: [] }]);
    return result!.rows.map((r) => String(r.bot_id));
  }

  async exportPage(filter: InsightsFilter, after: ExportCursor | undefined, limit: number): Promise<ExportRow[]> {
    const range = where(filter, 'q');
    const resume = after ? ' AND (q.time > ? OR (q.time = ? AND q.request_id > ?))' : '';
    const [result] = await this.client.run([
      {
        sql: `SELECT q.time AS time, q.bot_id AS bot_id, q.question AS question, q.answer_found AS answer_found, q.cache AS cache, q.sources AS sources,
            q.duration_ms AS duration_ms, f.rating AS rating, f.comment AS comment, q.request_id AS request_id, q.outcome AS outcome
          FROM insights_questions q LEFT JOIN insights_feedback f ON f.request_id = q.request_id
          WHERE ${range.sql}${resume} ORDER BY q.time, q.request_id LIMIT ?`,
        params: [...range.params, ...(after ? [after.time, after.time, after.request_id] : []), limit],
      },
    ]);
    return result!.rows.map((r) => ({
      time: num(r.time),
      bot_id: String(r.bot_id),
      question: String(r.question),
      answer_found: num(r.answer_found) === 1,
      cache: text(r.cache),
      sources: r.sources ? String(r.sources).split(' ') : [],
      duration_ms: num(r.duration_ms),
      rating: r.rating === 'up' || r.rating === 'down' ? r.rating : null,
      comment: text(r.comment),
      request_id: String(r.request_id),
      outcome: String(r.outcome),
    }));
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
