/**
 * The thread that holds the SQLite database (better-sqlite3 is synchronous): writes, retention
 * and the page's aggregates run here, so none of them ever blocks the thread serving answers.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { importPeer } from '../../proxy/optional-peer.js';
import { newerSchemaError, VERSION_TABLE, type Migration, type MigrationStep, type SqlResult, type SqlStatement } from './client.js';
import { migrations as schemaMigrations } from './schema.js';

type Request = { id: number } & ({ op: 'run'; statements: SqlStatement[]; transaction: boolean } | { op: 'migrate'; migrations: Migration[] } | { op: 'close' });

let db: Database.Database;
try {
  const { default: Sqlite } = await importPeer('better-sqlite3', 'A SQLite INSIGHTS_DB', () => import('better-sqlite3'));
  db = new Sqlite((workerData as { path: string }).path);
  // WAL: readers (the page) and the writer do not block each other; NORMAL is durable across
  // application crashes, and loses at most the last transactions on a power cut.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Another process on the same file (a second proxy) waits its turn instead of failing at once.
  db.pragma('busy_timeout = 5000');
} catch (error) {
  // Reported as the answer to the start-up message (id 0).
  parentPort!.postMessage({ id: 0, ok: false, message: (error as Error).message, code: (error as { code?: string }).code });
  process.exit(0);
}

const prepared = new Map<string, Database.Statement>();
function statement(sql: string): Database.Statement {
  let found = prepared.get(sql);
  if (!found) {
    found = db.prepare(sql);
    if (prepared.size > 500) prepared.clear();
    prepared.set(sql, found);
  }
  return found;
}

function runOne({ sql, params }: SqlStatement): SqlResult {
  const prepared = statement(sql);
  if (prepared.reader) return { rows: prepared.all(...params) as SqlResult['rows'], changes: 0 };
  return { rows: [], changes: prepared.run(...params).changes };
}

const runAll = (statements: SqlStatement[]) => statements.map(runOne);
const runInTransaction = db.transaction(runAll);

/** The steps in code of this release's migrations, by version: functions do not cross to this thread with the message. */
const steps = new Map(schemaMigrations('sqlite').flatMap((m): Array<[number, MigrationStep]> => (m.run ? [[m.version, m.run]] : [])));

function runStep(step: MigrationStep): void {
  let after: string | undefined;
  do {
    const page = step.write(runOne(step.read(after)).rows);
    page.statements.forEach(runOne);
    after = page.after;
  } while (after !== undefined);
  step.finish?.().forEach(runOne);
}

const migrate = db.transaction((migrations: Migration[]) => {
  db.exec(`CREATE TABLE IF NOT EXISTS ${VERSION_TABLE} (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`);
  const current = (db.prepare(`SELECT MAX(version) AS v FROM ${VERSION_TABLE}`).get() as { v: number | null }).v ?? 0;
  const last = migrations.at(-1)?.version ?? 0;
  if (current > last) throw newerSchemaError(current, last);
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    for (const sql of migration.statements) db.exec(sql);
    const step = steps.get(migration.version);
    if (step) runStep(step);
    db.prepare(`INSERT INTO ${VERSION_TABLE} (version, applied_at) VALUES (?, ?)`).run(migration.version, Date.now());
  }
});

parentPort!.postMessage({ id: 0, ok: true, value: null });
parentPort!.on('message', (request: Request) => {
  try {
    let value: unknown;
    if (request.op === 'run') value = request.transaction ? runInTransaction(request.statements) : runAll(request.statements);
    else if (request.op === 'migrate') value = migrate.immediate(request.migrations);
    else {
      db.close();
      value = null;
    }
    parentPort!.postMessage({ id: request.id, ok: true, value });
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string };
    parentPort!.postMessage({ id: request.id, ok: false, message: message ?? String(error), code });
  }
});
