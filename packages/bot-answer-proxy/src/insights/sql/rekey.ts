import { questionKey } from '../question-key.js';
import type { MigrationStep, SqlDialect, SqlStatement } from './client.js';
import { ADD_KEY_DAY, DAY_MS, dayCounts, INSERT_KEY_DAY } from './key-days.js';

/** Questions read, and re-keyed, at a time. */
const PAGE = 1_000;
/** Wordings whose key is kept while re-keying. */
const KEYS_KEPT = 100_000;
/** Day rows changed per statement when PostgreSQL applies the summed counts. */
const DAY_ROWS_PER_STATEMENT = 10_000;

/** A stored question whose key changes: its count goes from its old key's day row to its new key's. */
interface Move {
  request_id: string;
  day: number;
  bot_id: string;
  from: string;
  to: string;
  counts: [found: number, refused: number, notSure: number, failed: number];
}

/**
 * Gives the stored questions the key this release computes, a page at a time in request id
 * order, writing only those whose key changes. Each question moves its count from its old key's
 * day row to its new key's. The day rows are not rebuilt from the questions: retention deletes
 * questions by time but day rows by whole days, so the oldest day's rows count questions no
 * longer stored; and an old key cannot be re-keyed by itself ("cannot" was a stop word, so "I
 * cannot log in" had the key of "I can log in").
 */
export function rekeyQuestions(dialect: SqlDialect): MigrationStep {
  const summed = new SummedMoves();
  // Questions are asked again and again in the same words: each wording is keyed once.
  const keys = new Map<string, string>();
  const keyOf = (question: string) => {
    let key = keys.get(question);
    if (key === undefined) {
      if (keys.size >= KEYS_KEPT) keys.clear();
      keys.set(question, (key = questionKey(question)));
    }
    return key;
  };
  return {
    read: (after) => ({
      sql: `SELECT request_id, time, bot_id, question, question_key, answer_found, outcome FROM insights_questions WHERE request_id > ? ORDER BY request_id LIMIT ${PAGE}`,
      params: [after ?? ''],
    }),
    write(rows) {
      const moves: Move[] = [];
      for (const row of rows) {
        const to = keyOf(String(row.question));
        if (to === row.question_key) continue;
        moves.push({
          request_id: String(row.request_id),
          day: Math.floor(Number(row.time) / DAY_MS),
          bot_id: String(row.bot_id),
          from: String(row.question_key),
          to,
          counts: dayCounts({ answer_found: Number(row.answer_found) === 1, outcome: String(row.outcome) }),
        });
      }
      const after = rows.length < PAGE ? undefined : String(rows.at(-1)!.request_id);
      if (moves.length === 0) return { statements: [], after };
      if (dialect === 'sqlite') return { statements: rowByRowMoves(moves), after };
      for (const move of moves) summed.add(move);
      return { statements: [postgresKeys(moves)], after };
    },
    finish: () => (dialect === 'postgres' ? summed.statements() : []),
  };
}

const DELETE_EMPTIED = 'DELETE FROM insights_key_days WHERE day = ? AND bot_id = ? AND question_key = ? AND asked <= 0';

/**
 * SQLite and D1, a page's moves whole, one statement per row: a page written again moves nothing
 * twice. A question's count goes to its new key only when its own update changed it (guarded by
 * its old key, then `changes() = 1`), and is taken from its old key's row after that (the upsert
 * changes one row, keeping the chain). Rows left empty go last.
 */
function rowByRowMoves(moves: Move[]): SqlStatement[] {
  const statements: SqlStatement[] = [];
  const emptied = new Map<string, unknown[]>();
  for (const m of moves) {
    statements.push(
      { sql: 'UPDATE insights_questions SET question_key = ? WHERE request_id = ? AND question_key = ?', params: [m.to, m.request_id, m.from] },
      { sql: `${INSERT_KEY_DAY} SELECT ?, ?, ?, 1, ?, ?, ?, ? WHERE changes() = 1 ${ADD_KEY_DAY}`, params: [m.day, m.bot_id, m.to, ...m.counts] },
      {
        sql: 'UPDATE insights_key_days SET asked = asked - 1, found = found - ?, refused = refused - ?, not_sure = not_sure - ?, failed = failed - ? WHERE day = ? AND bot_id = ? AND question_key = ? AND changes() = 1',
        params: [...m.counts, m.day, m.bot_id, m.from],
      },
    );
    emptied.set(`${m.day} ${m.bot_id} ${m.from}`, [m.day, m.bot_id, m.from]);
  }
  for (const params of emptied.values()) statements.push({ sql: DELETE_EMPTIED, params });
  return statements;
}

/** PostgreSQL: a page's questions given their new keys, as arrays (`unnest`). */
function postgresKeys(moves: Move[]): SqlStatement {
  return {
    sql: `UPDATE insights_questions q SET question_key = m.to_key FROM unnest(?::text[], ?::text[], ?::text[]) AS m(request_id, from_key, to_key)
      WHERE q.request_id = m.request_id AND q.question_key = m.from_key`,
    params: [moves.map((m) => m.request_id), moves.map((m) => m.from), moves.map((m) => m.to)],
  };
}

/**
 * PostgreSQL: the pages' moves summed into one signed amount per day row, applied once after
 * the last page. The migration is one transaction, whose own old versions of a row cannot be
 * pruned before it ends: moved page by page, a popular question's day row would be updated once
 * per question, and every later lookup of it would walk all those versions. An amount taken
 * from a row that is not there is dropped, as in SQLite.
 */
class SummedMoves {
  private readonly rows = new Map<string, { day: number; bot_id: string; key: string; amounts: number[] }>();
  private readonly emptied = new Map<string, [number, string, string]>();

  add(m: Move): void {
    this.amend(m.day, m.bot_id, m.to, 1, m.counts);
    this.amend(m.day, m.bot_id, m.from, -1, m.counts);
    this.emptied.set(`${m.day} ${m.bot_id} ${m.from}`, [m.day, m.bot_id, m.from]);
  }

  private amend(day: number, bot_id: string, key: string, sign: number, counts: readonly number[]): void {
    const id = `${day} ${bot_id} ${key}`;
    let row = this.rows.get(id);
    if (!row) this.rows.set(id, (row = { day, bot_id, key, amounts: [0, 0, 0, 0, 0] }));
    row.amounts[0]! += sign;
    counts.forEach((n, i) => (row.amounts[i + 1]! += sign * n));
  }

  statements(): SqlStatement[] {
    const statements: SqlStatement[] = [];
    const rows = [...this.rows.values()];
    for (let i = 0; i < rows.length; i += DAY_ROWS_PER_STATEMENT) {
      const chunk = rows.slice(i, i + DAY_ROWS_PER_STATEMENT);
      statements.push({
        sql: `${INSERT_KEY_DAY}
          SELECT * FROM unnest(?::integer[], ?::text[], ?::text[], ?::integer[], ?::integer[], ?::integer[], ?::integer[], ?::integer[])
            AS a(day, bot_id, question_key, asked, found, refused, not_sure, failed)
          WHERE a.asked > 0 OR EXISTS (SELECT 1 FROM insights_key_days k WHERE k.day = a.day AND k.bot_id = a.bot_id AND k.question_key = a.question_key)
          ORDER BY 1, 2, 3
          ${ADD_KEY_DAY}`,
        params: [chunk.map((r) => r.day), chunk.map((r) => r.bot_id), chunk.map((r) => r.key), ...[0, 1, 2, 3, 4].map((n) => chunk.map((r) => r.amounts[n]))],
      });
    }
    const emptied = [...this.emptied.values()];
    for (let i = 0; i < emptied.length; i += DAY_ROWS_PER_STATEMENT) {
      const chunk = emptied.slice(i, i + DAY_ROWS_PER_STATEMENT);
      statements.push({
        sql: `DELETE FROM insights_key_days k USING unnest(?::integer[], ?::text[], ?::text[]) AS e(day, bot_id, question_key)
          WHERE k.day = e.day AND k.bot_id = e.bot_id AND k.question_key = e.question_key AND k.asked <= 0`,
        params: [0, 1, 2].map((n) => chunk.map((r) => r[n])),
      });
    }
    return statements;
  }
}
