import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SqlInsightsStore } from './store.js';
import type { Migration, SqlClient, SqlResult, SqlStatement } from './client.js';

/**
 * The database thread: the built `sqlite-worker.js` beside this file, or, run from the sources
 * (tests, `npm start`), `sqlite-worker.ts` through tsx, whose loader a worker does not inherit.
 */
function spawnWorker(path: string): Worker {
  const built = new URL('./sqlite-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return new Worker(built, { workerData: { path } });
  const source = new URL('./sqlite-worker.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true, workerData: { path } });
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string; code?: string };

/**
 * A SQLite database file (better-sqlite3) held by a worker thread: every statement runs there,
 * so a write, a retention sweep or the page's aggregates over a million rows never block the
 * thread that serves answers. The thread starts on the first call and is not kept alive for its
 * own sake: only while calls are pending.
 */
export function sqliteClient(path: string): SqlClient {
  let worker: Worker | undefined;
  let started: Promise<void> | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  const fail = (error: Error) => {
    for (const call of pending.values()) call.reject(error);
    pending.clear();
    worker = undefined;
    started = undefined;
  };

  const start = () =>
    (started ??= new Promise<void>((resolve, reject) => {
      const thread = spawnWorker(path);
      worker = thread;
      pending.set(0, { resolve: () => resolve(), reject });
      thread.on('message', (reply: Reply) => {
        const call = pending.get(reply.id);
        if (!call) return;
        pending.delete(reply.id);
        if (pending.size === 0) thread.unref();
        if (reply.ok) call.resolve(reply.value);
        else call.reject(Object.assign(new Error(`SQLite ${path}: ${reply.message}`), { code: reply.code }));
      });
      thread.on('error', (error) => {
        if (worker === thread) fail(new Error(`SQLite ${path}: ${error.message}`));
      });
      thread.on('exit', (code) => {
        if (worker === thread) fail(new Error(`SQLite ${path}: the database thread stopped (exit ${code})`));
      });
    }));

  const call = async <T>(message: Record<string, unknown>): Promise<T> => {
    await start();
    const thread = worker!;
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      thread.ref();
      thread.postMessage({ ...message, id });
    });
  };

  return {
    dialect: 'sqlite',
    run: (statements: readonly SqlStatement[], options?: { transaction?: boolean }) => call<SqlResult[]>({ op: 'run', statements, transaction: options?.transaction ?? false }),
    // A step in code is run by the thread from its own copy of the schema (a function cannot be posted).
    migrate: (migrations: readonly Migration[]) => call<void>({ op: 'migrate', migrations: migrations.map(({ version, statements }) => ({ version, statements })) }),
    async close() {
      const thread = worker;
      if (!thread) return;
      await call({ op: 'close' }).catch(() => {});
      worker = undefined;
      started = undefined;
      await thread.terminate();
    },
  };
}

/**
 * Insights in a SQLite file (created when missing, with its schema), through better-sqlite3 in
 * a worker thread. One file per proxy instance; instances sharing rows use PostgreSQL.
 */
export function sqliteInsightsStore(path: string): SqlInsightsStore {
  return new SqlInsightsStore(sqliteClient(path));
}
