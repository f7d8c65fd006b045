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

/**
 * Opens insights at start: creates or migrates the schema, then deletes rows past retention in
 * the background. A SQLite file that cannot be opened stops the start with the reason (it is
 * this machine's configuration). A PostgreSQL server that does not answer within 5 s does not:
 * answers are served, one line says so, and questions are written once it answers (a shared
 * database may be restarting while proxies start), and neither does a store passed in code.
 */
export async function openInsightsAtStart(insights: InsightsControl, db: string | undefined, log: (line: string) => void): Promise<void> {
  const where = db === undefined ? 'insights store' : describeInsightsDb(db);
  const retain = () =>
    void insights.retain().catch((error: unknown) => log(logLine('warn', 'insights: old rows could not be deleted at start; the next write tries again', { error: (error as { code?: string }).code ?? (error as Error).message })));
  if (db !== undefined && !isPostgresUrl(db)) {
    try {
      await insights.open();
    } catch (error) {
      throw new Error(`INSIGHTS_DB: could not open the ${where}: ${(error as Error).message.replace(/^SQLite [^:]*: /, '')}`);
    }
    return retain();
  }
  try {
    await deadline(insights.open(), 5_000, () => Promise.reject(new Error('no answer within 5 s')));
    retain();
  } catch (error) {
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    log(logLine('warn', `insights: the ${where} could not be opened at start; answers are served, and questions are written once it answers`, { error: reason }));
  }
}
