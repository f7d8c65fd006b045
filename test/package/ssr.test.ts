/**
 * The package imported on a server, as Next.js, Nuxt, SvelteKit and Astro do: no DOM, Node's
 * `node` export condition. Runs the built package (`npm run build` first) in child processes, so
 * nothing this test process has loaded can stand in for a missing global.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');

/** Runs an ES module script with plain Node in the repository (so `bot-answer` resolves through the package's own exports). */
function runNode(script: string): { status: number | null; stdout: string; stderr: string } {
  const { status, stdout, stderr } = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  return { status, stdout, stderr };
}

test('importing bot-answer in Node (no DOM) neither throws nor needs a global', () => {
  const { status, stdout, stderr } = runNode(`
    const before = typeof HTMLElement;
    const { BotAnswer } = await import('bot-answer');
    console.log(JSON.stringify({ before, cls: typeof BotAnswer, defined: globalThis.customElements?.get('bot-answer') === BotAnswer, after: typeof HTMLElement }));
  `);
  assert.equal(status, 0, stderr);
  // There was no DOM; the element class exists and is registered in Lit's server-side registry, and code
  // that looks for a DOM by HTMLElement still finds none.
  assert.deepEqual(JSON.parse(stdout), { before: 'undefined', cls: 'function', defined: true, after: 'undefined' });
});

test('the node condition comes before import in the exports map, so Node never gets the browser bundle', () => {
  const pkg = runNode(`
    import { readFileSync } from 'node:fs';
    const { exports } = JSON.parse(readFileSync('packages/bot-answer/package.json', 'utf8'));
    console.log(JSON.stringify(exports['.']));
  `);
  assert.equal(pkg.status, 0, pkg.stderr);
  const entry = JSON.parse(pkg.stdout) as Record<string, string>;
  // Conditions are matched in order; a browser (or a bundler building for one) never matches `node`.
  assert.deepEqual(Object.keys(entry), ['types', 'node', 'import']);
  const resolved = runNode(`console.log(import.meta.resolve('bot-answer'))`);
  assert.match(resolved.stdout.trim(), /\/dist\/ssr\/widget\/server\.js$/);
});

test('importing it a second time does not throw: the definition is guarded', () => {
  const { status, stderr, stdout } = runNode(`
    const entry = import.meta.resolve('bot-answer');
    const first = await import(entry);
    await import(entry + '?again');
    console.log(customElements.get('bot-answer') === first.BotAnswer);
  `);
  assert.equal(status, 0, stderr);
  assert.equal(stdout.trim(), 'true');
});
