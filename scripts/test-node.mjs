// Runs Node's built-in test runner over the TypeScript tests in the given folders
// (or files; default: every folder under test/ except the browser tests and those that
// need the built package), through tsx.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const BROWSER_DIRS = new Set(['test/widget', 'test/e2e', 'test/adversarial', 'test/package', 'test/frameworks']);
const args = process.argv.slice(2);
const roots = args.length ? args : readdirSync('test').map((d) => join('test', d)).filter((d) => statSync(d).isDirectory() && !BROWSER_DIRS.has(d));

const files = roots.filter(existsSync).flatMap(collect).sort();
if (files.length === 0) {
  console.error(`bot-answer: no *.test.ts files under ${roots.join(', ')}`);
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);

function collect(dir) {
  if (statSync(dir).isFile()) return [dir];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return collect(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
