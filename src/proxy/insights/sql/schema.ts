import type { Migration, SqlDialect } from './client.js';

/**
 * The insights schema, the same tables, columns and indexes in every dialect (only the integer
 * types differ). Times are milliseconds since the Unix epoch (UTC).
 *
 * - `insights_questions`: one row per answer request. Two covering indexes serve the page's
 *   aggregates from the index alone, over a time range, for all bots or one:
 *   `(time, question_key, answer_found, outcome)` and `(bot_id, time, question_key, answer_found, outcome)`.
 *   `(question_key, time)` finds a group's latest wordings.
 * - `insights_citations`: the first sources' URLs of each answer, one row each, indexed by
 *   `(time, url)` and `(bot_id, time, url)` for the pages cited most.
 * - `insights_feedback`: one row per rated answer, joined to its question by request id when
 *   read (a rating may be written before its question, or by another instance).
 * - `insights_bots`: the bots seen, for the page's chooser.
 */
function version1(dialect: SqlDialect): string[] {
  const time = dialect === 'postgres' ? 'BIGINT' : 'INTEGER';
  const flag = dialect === 'postgres' ? 'SMALLINT' : 'INTEGER';
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
    'CREATE INDEX IF NOT EXISTS insights_questions_time ON insights_questions (time, question_key, answer_found, outcome)',
    'CREATE INDEX IF NOT EXISTS insights_questions_bot_time ON insights_questions (bot_id, time, question_key, answer_found, outcome)',
    'CREATE INDEX IF NOT EXISTS insights_questions_key ON insights_questions (question_key, time)',
    `CREATE TABLE IF NOT EXISTS insights_citations (
      request_id TEXT NOT NULL,
      source_index INTEGER NOT NULL,
      time ${time} NOT NULL,
      bot_id TEXT NOT NULL,
      url TEXT NOT NULL,
      PRIMARY KEY (request_id, source_index)
    )`,
    'CREATE INDEX IF NOT EXISTS insights_citations_time ON insights_citations (time, url)',
    'CREATE INDEX IF NOT EXISTS insights_citations_bot_time ON insights_citations (bot_id, time, url)',
    `CREATE TABLE IF NOT EXISTS insights_feedback (
      request_id TEXT PRIMARY KEY,
      time ${time} NOT NULL,
      bot_id TEXT NOT NULL,
      rating TEXT NOT NULL,
      comment TEXT
    )`,
    'CREATE INDEX IF NOT EXISTS insights_feedback_time ON insights_feedback (time)',
    `CREATE TABLE IF NOT EXISTS insights_bots (
      bot_id TEXT PRIMARY KEY,
      last_seen ${time} NOT NULL
    )`,
  ];
}

/** Every schema version, in order, for a dialect. */
export function migrations(dialect: SqlDialect): Migration[] {
  return [{ version: 1, statements: version1(dialect) }];
}
