import type pg from 'pg';
import { requirePeer } from '../../proxy/optional-peer.js';
import { SqlInsightsStore } from './store.js';
import { newerSchemaError, VERSION_TABLE, type Migration, type MigrationStep, type SqlClient, type SqlResult, type SqlStatement } from './client.js';

/** Any two instances migrating the same database take this lock in turn (`pg_advisory_xact_lock`). */
export const MIGRATION_LOCK = 7_205_114_331;

const numbered = new Map<string, string>();
/** `?` placeholders as PostgreSQL's `$1, $2, ...` (the project's SQL has no `?` elsewhere). */
function toPostgres(sql: string): string {
  let found = numbered.get(sql);
  if (found === undefined) {
    let n = 0;
    found = sql.replace(/\?/g, () => `$${++n}`);
    if (numbered.size > 500) numbered.clear();
    numbered.set(sql, found);
  }
  return found;
}

const toResult = (result: pg.QueryResult): SqlResult => ({ rows: result.rows, changes: result.rowCount ?? 0 });

/** Runs a migration's step on the migration's connection, inside its transaction. */
async function runStep(client: pg.PoolClient, step: MigrationStep): Promise<void> {
  const query = ({ sql, params }: SqlStatement) => client.query(toPostgres(sql), params as unknown[]);
  let after: string | undefined;
  do {
    const page = step.write((await query(step.read(after))).rows);
    for (const statement of page.statements) await query(statement);
    after = page.after;
  } while (after !== undefined);
  for (const statement of step.finish?.() ?? []) await query(statement);
}

/** Options of {@link postgresInsightsStore}. */
export interface PostgresInsightsOptions {
  /** `postgres://user:password@host:port/database` (or `postgresql://`). Ignored when `pool` is given. */
  url?: string;
  /** A pool of your own (`pg`); you end it. */
  pool?: pg.Pool;
}

/**
 * A PostgreSQL database through a `pg` pool (four connections), shared by every proxy instance.
 * Connecting gives up after 2 s and a statement after 15 s, so an unreachable or stuck server
 * fails fast and the recorder holds its rows until it is back.
 */
export function postgresClient(options: PostgresInsightsOptions): SqlClient {
  const own = !options.pool;
  if (own && !options.url) throw new TypeError('bot-answer insights: PostgreSQL needs a url or a pool');
  const pool =
    options.pool ??
    new (requirePeer<typeof pg>('pg', 'A PostgreSQL INSIGHTS_DB').Pool)({
      connectionString: options.url,
      max: 4,
      connectionTimeoutMillis: 2_000,
      idleTimeoutMillis: 10_000,
      query_timeout: 15_000,
      statement_timeout: 15_000,
      keepAlive: true,
      allowExitOnIdle: true,
    });
  // A connection the server closes (a restart) reports an error event, which would be thrown
  // without a listener: the pool's for idle ones, each connection's own for one in use (the
  // statement running on it fails too, and that failure is what the recorder acts on).
  if (own) {
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
  }

  const inTransaction = async <T>(body: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    // A checked-out connection's errors are its own (the pool listens to idle ones only): one
    // arriving between two statements (the server shutting down) must not be thrown.
    let lost: Error | undefined;
    const onError = (error: Error) => (lost = error);
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const value = await body(client);
      await client.query('COMMIT');
      if (lost) throw lost;
      client.off('error', onError);
      client.release();
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      // A connection that failed mid-transaction is not put back in the pool.
      client.off('error', onError);
      client.release((lost ?? error) as Error);
      throw error;
    }
  };

  return {
    dialect: 'postgres',
    async run(statements: readonly SqlStatement[], options?: { transaction?: boolean }) {
      if (options?.transaction) {
        return inTransaction(async (client) => {
          const results: SqlResult[] = [];
          for (const { sql, params } of statements) results.push(toResult(await client.query(toPostgres(sql), params as unknown[])));
          return results;
        });
      }
      // Reads go out together, over the pool's connections.
      return Promise.all(statements.map(async ({ sql, params }) => toResult(await pool.query(toPostgres(sql), params as unknown[]))));
    },
    migrate(migrations: readonly Migration[]) {
      return inTransaction(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        await client.query(`CREATE TABLE IF NOT EXISTS ${VERSION_TABLE} (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`);
        const current = Number((await client.query(`SELECT MAX(version) AS v FROM ${VERSION_TABLE}`)).rows[0]?.v ?? 0);
        const last = migrations.at(-1)?.version ?? 0;
        if (current > last) throw newerSchemaError(current, last);
        for (const migration of migrations) {
          if (migration.version <= current) continue;
          for (const sql of migration.statements) await client.query(sql);
          if (migration.run) await runStep(client, migration.run);
          await client.query(`INSERT INTO ${VERSION_TABLE} (version, applied_at) VALUES ($1, $2)`, [migration.version, Date.now()]);
        }
      });
    },
    async close() {
      if (own) await pool.end();
    },
  };
}

/**
 * Insights in PostgreSQL, the same schema as SQLite, created or migrated at start: one database
 * shared by every proxy instance.
 */
export function postgresInsightsStore(options: PostgresInsightsOptions | string): SqlInsightsStore {
  return new SqlInsightsStore(postgresClient(typeof options === 'string' ? { url: options } : options));
}
