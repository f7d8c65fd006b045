import type { Migration, SqlDialect } from './client.js';
import { DAY_MS } from './key-days.js';
import { rekeyQuestions } from './rekey.js';

/**
 * The insights schema, the same tables, columns and indexes in every dialect (only the integer
 * types differ). Times are milliseconds since the Unix epoch (UTC); days are days since it.
 *
 * - `insights_questions`: one row per answer request, what the CSV exports. Indexed by
 *   `(time)` and `(bot_id, time)` for the export and retention, and `(question_key, time)` to
 *   find a group's latest wordings.
 * - `insights_key_days`: per UTC day, bot and question key, how many were asked, found an
 *   answer, were refused, got a not-sure answer (version 2) and failed; written in the same transaction as the questions (only for
 *   questions actually inserted, so writing a batch again counts nothing twice). The page's
 *   figures (per day, top and unanswered questions) are sums over it: its size grows with the
 *   distinct questions a day, not with the questions, and a month of it is read in one range
 *   of its primary key `(day, bot_id, question_key)`.
 * - `insights_page_days`: per day, bot and URL, how often a page was cited (first three sources;
 *   a not-sure answer's closest pages are not citations).
 * - `insights_feedback`: one row per rated answer, counted as received and joined to its
 *   question by request id when listed (a rating may be written before its question, or by
 *   another instance). Indexed by `(time)` and `(bot_id, time)`.
 * - `insights_bots`: the bots seen, for the page's chooser.
 */
function version1(dialect: SqlDialect): string[] {
  const time = dialect === 'postgres' ? 'BIGINT' : 'INTEGER';
  const flag = dialect === 'postgres' ? 'SMALLINT' : 'INTEGER';
  // Clustered on the primary key in SQLite, so a range of days is one contiguous read.
  const clustered = dialect === 'sqlite' ? ' WITHOUT ROWID' : '';
  return [
    `CREATE TABLE IF NOT EXISTS insights_questions (
      request_id TEXT PRIMARY KEY,
      time ${time} NOT NULL,
      bot_id TEXT NOT NULL,
      question TEXT NOT NULL,
      question_key TEXT NOT NULL,
      answer_found ${flag} NOT NULL,
      outcome TEXT NOT NULL,
      cache TEXT,
      sources TEXT NOT NULL,
      duration_ms INTEGER NOT NULL
    )`,
    'CREATE INDEX IF NOT EXISTS insights_questions_time ON insights_questions (time)',
    'CREATE INDEX IF NOT EXISTS insights_questions_bot_time ON insights_questions (bot_id, time)',
    'CREATE INDEX IF NOT EXISTS insights_questions_key ON insights_questions (question_key, time)',
    `CREATE TABLE IF NOT EXISTS insights_key_days (
      day INTEGER NOT NULL,
      bot_id TEXT NOT NULL,
      question_key TEXT NOT NULL,
      asked INTEGER NOT NULL,
      found INTEGER NOT NULL,
      refused INTEGER NOT NULL,
      failed INTEGER NOT NULL,
      PRIMARY KEY (day, bot_id, question_key)
    )${clustered}`,
    `CREATE TABLE IF NOT EXISTS insights_page_days (
      day INTEGER NOT NULL,
      bot_id TEXT NOT NULL,
      url TEXT NOT NULL,
      cited INTEGER NOT NULL,
      PRIMARY KEY (day, bot_id, url)
    )${clustered}`,
    `CREATE TABLE IF NOT EXISTS insights_feedback (
      request_id TEXT PRIMARY KEY,
      time ${time} NOT NULL,
      bot_id TEXT NOT NULL,
      rating TEXT NOT NULL,
      comment TEXT
    )`,
    'CREATE INDEX IF NOT EXISTS insights_feedback_time ON insights_feedback (time)',
    'CREATE INDEX IF NOT EXISTS insights_feedback_bot_time ON insights_feedback (bot_id, time)',
    `CREATE TABLE IF NOT EXISTS insights_bots (
      bot_id TEXT PRIMARY KEY,
      last_seen ${time} NOT NULL
    )`,
  ];
}

/**
 * Version 2: the not-sure outcome (`answer_found: false` with the closest pages as sources),
 * which version 1 stored as `refused`. Those rows are renamed by the same rule the proxy derives
 * the outcome with, and their day counts move from `refused` to the new `not_sure` column.
 */
function version2(): string[] {
  return [
    'ALTER TABLE insights_key_days ADD COLUMN not_sure INTEGER NOT NULL DEFAULT 0',
    "UPDATE insights_questions SET outcome = 'not_sure' WHERE outcome = 'refused' AND sources <> ''",
    `UPDATE insights_key_days SET not_sure = (
      SELECT COUNT(*) FROM insights_questions q WHERE q.outcome = 'not_sure' AND q.question_key = insights_key_days.question_key
        AND q.bot_id = insights_key_days.bot_id AND q.time / ${DAY_MS} = insights_key_days.day
    ) WHERE refused > 0`,
    'UPDATE insights_key_days SET refused = refused - not_sure WHERE not_sure > 0',
  ];
}

/** Every schema version, in order, for a dialect. */
export function migrations(dialect: SqlDialect): Migration[] {
  return [
    { version: 1, statements: version1(dialect) },
    { version: 2, statements: version2() },
    // Version 3: the question keys of this release (contractions read as their words, negation kept), with their day counts.
    { version: 3, statements: [], run: rekeyQuestions(dialect) },
  ];
}
