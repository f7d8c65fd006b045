import { Miniflare } from 'miniflare';
import type { D1DatabaseLike } from '../../../packages/bot-answer-proxy/src/insights/sql/d1.js';

/** A Worker that runs the statements it is sent on its D1 binding, alone (`all`) or as one `batch`. */
const SCRIPT = `export default {
  async fetch(request, env) {
    const { batch, statements } = await request.json();
    const prepared = statements.map((s) => env.DB.prepare(s.sql).bind(...s.params));
    try {
      const results = batch ? await env.DB.batch(prepared) : [await prepared[0].all()];
      return Response.json(results.map((r) => ({ results: r.results, meta: { changes: r.meta.changes } })));
    } catch (error) {
      return Response.json({ error: String(error && error.message || error) }, { status: 500 });
    }
  },
};`;

/** A statement as the shim holds it until it is run. */
interface Statement {
  sql: string;
  params: unknown[];
  bind(...values: unknown[]): Statement;
  all(): Promise<{ results?: Array<Record<string, unknown>>; meta?: { changes?: number } }>;
}

/**
 * A D1 database in workerd (Miniflare), reached by one HTTP request per `all` or `batch`: the
 * statements run in the Worker on the real binding, with D1's own transactions.
 *
 * Miniflare's `getD1Database()` proxy makes every `prepare` and `bind` a synchronous call to
 * workerd; a migration's pages are thousands of them, and its synchronous channel once answered
 * a call with no message (an assertion inside Miniflare, on a loaded machine). Here the
 * statements are built in Node and sent whole.
 */
export async function d1OverFetch(): Promise<{ db: D1DatabaseLike; dispose(): Promise<void> }> {
  const mf = new Miniflare({ modules: true, script: SCRIPT, compatibilityDate: '2024-09-23', d1Databases: ['DB'] });
  await mf.ready;
  const send = async (statements: Statement[], batch: boolean) => {
    const response = await mf.dispatchFetch('http://d1.test/', {
      method: 'POST',
      body: JSON.stringify({ batch, statements: statements.map(({ sql, params }) => ({ sql, params })) }),
    });
    const body = (await response.json()) as Array<{ results?: Array<Record<string, unknown>>; meta?: { changes?: number } }> | { error: string };
    if (!Array.isArray(body)) throw new Error(body.error);
    return body;
  };
  const statement = (sql: string, params: unknown[]): Statement => ({
    sql,
    params,
    bind: (...values) => statement(sql, values),
    all: async () => (await send([statement(sql, params)], false))[0]!,
  });
  return {
    db: {
      prepare: (sql) => statement(sql, []),
      batch: async (statements) => send(statements as Statement[], true),
    },
    dispose: () => mf.dispose(),
  };
}
