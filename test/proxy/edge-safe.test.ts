import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../packages/bot-answer-proxy/src/proxy');
const builtins = new Set(builtinModules);

/** Every module specifier reachable from `entry` through relative imports, with the files it was found in. */
function importGraph(entry: string): Map<string, string> {
  const bare = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, spec] of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      if (spec!.startsWith('.')) visit(resolve(dirname(file), spec!.replace(/\.js$/, '.ts')));
      else bare.set(spec!, file);
    }
  };
  visit(entry);
  return bare;
}

test('bot-answer-proxy imports no Node built-in, so the handler runs on edge runtimes', () => {
  const bare = importGraph(resolve(root, 'index.ts'));
  const nodeOnly = [...bare].filter(([spec]) => spec.startsWith('node:') || builtins.has(spec.split('/')[0]!));
  assert.deepEqual(nodeOnly, []);
  // Nor a database driver: insights take a store passed in there.
  assert.ok(!bare.has('pg') && !bare.has('better-sqlite3'), 'no Node database driver in the edge entry');
  // The graph is real: the handler's own dependencies are found.
  assert.ok(bare.has('eventsource-parser'));
  assert.ok(bare.has('stemmer'), 'insights grouping is in it');
});

test('bot-answer-proxy/node does reach the Node server (the scan can fail)', () => {
  const bare = importGraph(resolve(root, 'node.ts'));
  assert.ok([...bare.keys()].some((spec) => spec === 'node:http'));
  assert.ok(bare.has('pg') && bare.has('node:worker_threads'), 'the Node entry has the insights stores (SQLite in a worker thread)');
});
