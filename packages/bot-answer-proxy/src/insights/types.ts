/**
 * What insights record and read: one row per answer request, one per rated answer, and the
 * store interface every database implements (SQLite and PostgreSQL on Node, D1 on Workers, or
 * your own).
 */

/**
 * How an answer request ended: one of the answer's three outcomes (the proxy's `outcome`:
 * `answered`, `not_sure` (the closest pages offered, no answer), `refused` (nothing related)),
 * `stopped` (the visitor left before the end), or the error code the visitor got
 * (`upstream_timeout`, `rate_limited`, ...). Stores from before schema version 2 recorded
 * not-sure answers as `refused`; the migration renames them.
 */
export type QuestionOutcome = 'answered' | 'not_sure' | 'refused' | 'stopped' | (string & {});

/** One answer request, as stored (question already redacted and capped). */
export interface QuestionRow {
  /** The proxy's `X-Request-Id` for the answer. */
  request_id: string;
  /** When the request arrived, in milliseconds since the Unix epoch. */
  time: number;
  bot_id: string;
  question: string;
  /** The question normalised for grouping (see `questionKey`). */
  question_key: string;
  answer_found: boolean;
  outcome: QuestionOutcome;
  /** How the answer cache served it (`hit`, `miss`, `shared`); `null` with the cache off. */
  cache: string | null;
  /** The first sources' URLs, in order (at most three): cited pages, or with `not_sure` the closest pages. */
  sources: string[];
  duration_ms: number;
}

/** A visitor's rating of one answer; a later rating of the same answer replaces it, a comment is kept. */
export interface FeedbackRow {
  request_id: string;
  time: number;
  bot_id: string;
  rating: 'up' | 'down';
  comment: string | null;
}

/** Rows written together. */
export interface InsightsBatch {
  questions: QuestionRow[];
  feedback: FeedbackRow[];
}

/** Which rows a view or an export covers: `from` inclusive, `to` exclusive (ms since the epoch), one bot or all. */
export interface InsightsFilter {
  from: number;
  to: number;
  bot?: string;
}

/** Questions asked on one day (UTC). */
export interface DayCount {
  /** Days since the Unix epoch (UTC). */
  day: number;
  asked: number;
  /** With `answer_found: true`. */
  found: number;
  /** With outcome `refused`: nothing related in the docs. */
  refused: number;
  /** With outcome `not_sure`: no answer, the closest pages offered. */
  not_sure: number;
  /** Ended in an error (neither answered, refused nor stopped). */
  failed: number;
}

/** Questions with the same `question_key`, counted. */
export interface KeyCount {
  key: string;
  asked: number;
  found: number;
}

/** A key of unanswered questions: `asked` is `refused` plus `not_sure`. */
export interface UnansweredCount extends KeyCount {
  refused: number;
  not_sure: number;
}

/** One rated answer, with the question it answered. */
export interface RatedAnswer {
  time: number;
  rating: 'up' | 'down';
  comment: string | null;
  question: string;
  bot_id: string;
  answer_found: boolean;
}

/** What the owner's page shows, as the store aggregates it. */
export interface InsightsAggregates {
  days: DayCount[];
  /** Most asked keys first. */
  top: KeyCount[];
  /** Keys of questions refused or answered not sure, most asked first. */
  unanswered: UnansweredCount[];
  /** Cited URLs (answers' sources, not a not-sure answer's closest pages), most cited first. */
  pages: Array<{ url: string; cited: number }>;
  /** Ratings received in the period. */
  ratings: { up: number; down: number };
  /** The latest rated answers whose question is stored: those with a comment first, newest first. */
  rated: RatedAnswer[];
}

/** How many rows each list of {@link InsightsAggregates} holds at most. */
export interface AggregateLimits {
  top: number;
  unanswered: number;
  pages: number;
  rated: number;
}

/** One row of the CSV export: a question with its feedback, if any. */
export interface ExportRow {
  time: number;
  bot_id: string;
  question: string;
  answer_found: boolean;
  cache: string | null;
  sources: string[];
  duration_ms: number;
  rating: 'up' | 'down' | null;
  comment: string | null;
  request_id: string;
  outcome: QuestionOutcome;
}

/** Where the export resumes: after this row. */
export interface ExportCursor {
  time: number;
  request_id: string;
}

/**
 * Where insights are kept. `sqliteInsightsStore` and `postgresInsightsStore`
 * (`bot-answer-proxy/node`) and `d1InsightsStore` (`bot-answer-proxy`, for Cloudflare Workers)
 * implement it; any object with these methods works. A method that fails rejects: the
 * recorder keeps its rows and tries again, the page answers 503.
 */
export interface InsightsStore {
  /** Creates the schema, or migrates it to the current version. Called before anything else; may be called again after a failure. */
  open(): Promise<void>;
  /**
   * Writes rows in one transaction. Idempotent: a question already stored (same `request_id`)
   * is left as it is, so a batch whose outcome was unknown may be written again.
   */
  write(batch: InsightsBatch): Promise<void>;
  /** Deletes questions and feedback older than `time` (ms since the epoch). */
  deleteBefore(time: number): Promise<void>;
  /** The page's figures for a filter. */
  aggregate(filter: InsightsFilter, limits: AggregateLimits): Promise<InsightsAggregates>;
  /** Up to `perKey` wordings of each key in the filter, newest first. */
  wordings(keys: string[], filter: InsightsFilter, perKey: number): Promise<Map<string, string[]>>;
  /** The bot ids that have questions stored, most recently seen first. */
  bots(): Promise<string[]>;
  /** Up to `limit` export rows after `after`, oldest first. */
  exportPage(filter: InsightsFilter, after: ExportCursor | undefined, limit: number): Promise<ExportRow[]>;
  /** Releases the connection (and its thread). */
  close(): Promise<void>;
}
