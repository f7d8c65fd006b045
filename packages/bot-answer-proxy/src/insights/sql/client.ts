/** The SQL databases insights run on; they differ in a few types and statements. */
export type SqlDialect = 'sqlite' | 'postgres';

/** One statement with `?` placeholders (a PostgreSQL client numbers them). */
export interface SqlStatement {
  sql: string;
  params: readonly unknown[];
}

/** What a statement gave back: its rows, and how many rows it changed. */
export interface SqlResult {
  rows: Array<Record<string, unknown>>;
  changes: number;
}

/** One schema version: the statements that bring the previous one to it, then a step over the rows if it has one. */
export interface Migration {
  version: number;
  statements: readonly string[];
  /**
   * A step in code after the statements, over the rows page by page: SQLite runs it in its
   * thread and PostgreSQL in the migration's transaction, D1 a batch per page (with where the
   * next starts, so a step cut short resumes there) and the version row after the last.
   */
  run?: MigrationStep;
}

/**
 * A migration's step over stored rows, one page at a time. `read` selects the page after
 * `after` (the first page when it is undefined); `write` gives the statements for the rows read
 * (none when nothing changes) and where the next page starts (undefined after the last page);
 * `finish`, if there is one, the statements after the last page. In the SQLite dialect a page's
 * statements must change nothing when run again: D1 runs each page as a batch of its own, and
 * two isolates starting together may both run one.
 */
export interface MigrationStep {
  read(after: string | undefined): SqlStatement;
  write(rows: ReadonlyArray<Record<string, unknown>>): { statements: SqlStatement[]; after: string | undefined };
  finish?(): SqlStatement[];
}

/**
 * What the insights store needs of a database connection. The SQLite client (a worker thread
 * holding better-sqlite3), the PostgreSQL client (a `pg` pool) and the D1 client implement it.
 */
export interface SqlClient {
  readonly dialect: SqlDialect;
  /** Runs statements in order, in one transaction when `transaction` is set. */
  run(statements: readonly SqlStatement[], options?: { transaction?: boolean }): Promise<SqlResult[]>;
  /**
   * Brings the schema to the last migration: creates the version table when missing, applies the
   * versions not yet recorded (each recorded in the same transaction), under a lock when several
   * instances may start together. Refuses a database whose version is newer than the last one.
   */
  migrate(migrations: readonly Migration[]): Promise<void>;
  close(): Promise<void>;
}

/** The version table every dialect shares. */
export const VERSION_TABLE = 'insights_schema';

/** The error for a database written by a newer release. */
export function newerSchemaError(found: number, known: number): Error {
  return new Error(`the insights database has schema version ${found}, newer than this release of bot-answer knows (${known}): upgrade bot-answer, or point INSIGHTS_DB at another database`);
}
