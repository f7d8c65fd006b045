import { SqlInsightsStore } from './store.js';
import { newerSchemaError, VERSION_TABLE, type Migration, type SqlClient, type SqlResult, type SqlStatement } from './client.js';

/** A D1 result, as much of it as the store reads. */
interface D1ResultLike {
  results?: Array<Record<string, unknown>>;
  meta?: { changes?: number };
}

/** A prepared D1 statement. */
interface D1StatementLike {
  bind(...values: unknown[]): D1StatementLike;
  all(): Promise<D1ResultLike>;
}

/** What the store needs of a Cloudflare D1 binding (`env.DB`): `prepare` and `batch`. */
export interface D1DatabaseLike {
  prepare(sql: string): D1StatementLike;
  /** Runs statements in one transaction. */
  batch(statements: D1StatementLike[]): Promise<D1ResultLike[]>;
}

/** Where each migration step cut short resumes (D1 only: SQLite and PostgreSQL run a step in one transaction). */
const PROGRESS_TABLE = `${VERSION_TABLE}_progress`;

const toResult = (result: D1ResultLike): SqlResult => ({ rows: result.results ?? [], changes: result.meta?.changes ?? 0 });

/** A D1 database (SQLite at Cloudflare) as the insights store's SQL client: the SQLite dialect, transactions as `batch`. */
export function d1Client(db: D1DatabaseLike): SqlClient {
  const prepare = ({ sql, params }: SqlStatement) => db.prepare(sql).bind(...params);
  return {
    dialect: 'sqlite',
    async run(statements: readonly SqlStatement[], options?: { transaction?: boolean }) {
      if (statements.length === 0) return [];
      if (options?.transaction) return (await db.batch(statements.map(prepare))).map(toResult);
      return Promise.all(statements.map(async (statement) => toResult(await prepare(statement).all())));
    },
    async migrate(migrations: readonly Migration[]) {
      await db.batch([
        db.prepare(`CREATE TABLE IF NOT EXISTS ${VERSION_TABLE} (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`),
        db.prepare(`CREATE TABLE IF NOT EXISTS ${PROGRESS_TABLE} (version INTEGER PRIMARY KEY, after TEXT NOT NULL)`),
      ]);
      const current = Number((await db.prepare(`SELECT MAX(version) AS v FROM ${VERSION_TABLE}`).all()).results?.[0]?.v ?? 0);
      const last = migrations.at(-1)?.version ?? 0;
      if (current > last) throw newerSchemaError(current, last);
      for (const migration of migrations) {
        if (migration.version <= current) continue;
        // The statements are idempotent, and the version row is written with them (after a step's
        // last page): two isolates migrating at once agree.
        const version = db.prepare(`INSERT INTO ${VERSION_TABLE} (version, applied_at) VALUES (?, ?) ON CONFLICT (version) DO NOTHING`).bind(migration.version, Date.now());
        const statements = migration.statements.map((sql) => db.prepare(sql));
        if (!migration.run) {
          await db.batch([...statements, version]);
          continue;
        }
        if (statements.length > 0) await db.batch(statements);
        // A Worker invocation has a budget of queries and CPU time that a large database's step
        // can outlast: each page's batch records where the next starts, and a step cut short
        // resumes there at the next start instead of from its first page.
        const saved = (await db.prepare(`SELECT after FROM ${PROGRESS_TABLE} WHERE version = ?`).bind(migration.version).all()).results?.[0]?.after;
        let after = typeof saved === 'string' ? saved : undefined;
        do {
          const page = migration.run.write((await prepare(migration.run.read(after)).all()).results ?? []);
          after = page.after;
          // One batch per page, its progress with it: all of it or none, and a page run again (two isolates) moves nothing twice.
          const progress = after === undefined ? [] : [db.prepare(`INSERT INTO ${PROGRESS_TABLE} (version, after) VALUES (?, ?) ON CONFLICT (version) DO UPDATE SET after = excluded.after`).bind(migration.version, after)];
          if (page.statements.length > 0 || progress.length > 0) await db.batch([...page.statements.map(prepare), ...progress]);
        } while (after !== undefined);
        await db.batch([...(migration.run.finish?.() ?? []).map(prepare), db.prepare(`DELETE FROM ${PROGRESS_TABLE} WHERE version = ?`).bind(migration.version), version]);
      }
    },
    async close() {},
  };
}

/**
 * Insights in Cloudflare D1, for the handler on Workers: the same schema and queries as the
 * SQLite store. Pass the binding: `insightsStore: d1InsightsStore(env.INSIGHTS_DB)`, and the
 * request's `waitUntil` as the handler's context, so rows are written after the response.
 */
export function d1InsightsStore(db: D1DatabaseLike): SqlInsightsStore {
  return new SqlInsightsStore(d1Client(db));
}
