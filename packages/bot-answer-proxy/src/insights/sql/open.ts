import { logLine } from '../../proxy/access-log.js';
import { deadline } from '../../proxy/timers.js';
import type { InsightsControl } from '../insights.js';
import type { InsightsStore } from '../types.js';
import { postgresInsightsStore } from './postgres.js';
import { sqliteInsightsStore } from './sqlite.js';

/** Whether an `INSIGHTS_DB` value names a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (db: string): boolean => /^postgres(ql)?:\/\//i.test(db);

/**
 * The store `INSIGHTS_DB` names: a `postgres://` (or `postgresql://`) URL is a PostgreSQL
 * database shared by every instance; anything else is the path of a SQLite file (created when
 * missing).
 */
export function openInsightsStore(db: string): InsightsStore {
  return isPostgresUrl(db) ? postgresInsightsStore(db) : sqliteInsightsStore(db);
}

/** How `INSIGHTS_DB` is shown in logs: the file, or the server without user and password. */
export function describeInsightsDb(db: string): string {
  if (!isPostgresUrl(db)) return `SQLite file ${db}`;
  const url = URL.canParse(db) ? new URL(db) : undefined;
  return url ? `PostgreSQL at ${url.host}${url.pathname}` : 'PostgreSQL';
}

/** How long the start waits for a PostgreSQL store to open before serving without it. */
const START_WAIT_MS = 5_000;

/**
 * Opens insights at start: creates or migrates the schema, then deletes rows past retention in
 * the background. A SQLite file that cannot be opened stops the start with the reason (it is
 * this machine's configuration). A PostgreSQL store that has not opened within 5 s does not: the
 * server may be restarting while proxies start, or a migration may be running (this instance's
 * or another's, which this one waits for). Answers are served, one line says so, questions are
 * written once it opens, and one line more says when it has opened or why it could not. A
 * store passed in code is treated the same way.
 */
export async function openInsightsAtStart(insights: InsightsControl, db: string | undefined, log: (line: string) => void): Promise<void> {
  const where = db === undefined ? 'insights store' : describeInsightsDb(db);
  const reasonOf = (error: unknown) => (error as { code?: string }).code ?? (error as Error).message;
  const retain = () => void insights.retain().catch((error: unknown) => log(logLine('warn', 'insights: old rows could not be deleted at start; the next write tries again', { error: reasonOf(error) })));
  const failed = (error: unknown) => log(logLine('warn', `insights: the ${where} could not be opened at start; answers are served, and questions are written once it answers`, { error: reasonOf(error) }));
  if (db !== undefined && !isPostgresUrl(db)) {
    try {
      await insights.open();
    } catch (error) {
      throw new Error(`INSIGHTS_DB: could not open the ${where}: ${(error as Error).message.replace(/^SQLite [^:]*: /, '')}`);
    }
    return retain();
  }
  const started = Date.now();
  const opening = insights.open();
  const timedOut = Symbol('timed out');
  let outcome: unknown;
  try {
    outcome = await deadline<unknown>(opening, START_WAIT_MS, () => Promise.resolve(timedOut));
  } catch (error) {
    return failed(error);
  }
  if (outcome !== timedOut) return retain();
  log(logLine('warn', `insights: the ${where} has not opened within ${START_WAIT_MS / 1_000} s (the server does not answer, or a migration is running); answers are served, and questions are written once it opens`));
  // The start goes on without it; the same opening is followed to its end, so the log says how it ended.
  opening.then(
    () => {
      log(logLine('info', `insights: the ${where} is open now; questions are being written`, { waited_ms: Date.now() - started }));
      retain();
    },
    failed,
  );
}
