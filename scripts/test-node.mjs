// Runs Node's built-in test runner over the TypeScript tests in the given folders
// (or files; default: every folder under test/ except the browser tests and those that
// need the built package), through tsx.
//
// Several files run at once: most of their time is spent waiting on sockets, child processes
// (servers, Redis, PostgreSQL) and timers, so the runner's default of one file per core but one
// leaves a 2-core machine mostly idle. Each file has its own process, ports and folders. Files
// that drive Chromium run two at once: its rendering takes a core while it lasts.
//
// The end-to-end tests drive the element built from the current sources: it is built once here,
// into a temporary folder (dist/ is left alone), for all of them, instead of once per file.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';

const BROWSER_DIRS = new Set(['test/widget', 'test/e2e', 'test/adversarial', 'test/package', 'test/frameworks']);
const E2E_DIR = join('test', 'e2e');
const args = process.argv.slice(2);
const roots = args.length ? args : readdirSync('test').map((d) => join('test', d)).filter((d) => statSync(d).isDirectory() && !BROWSER_DIRS.has(d));

const files = roots.filter(existsSync).flatMap(collect).sort();
if (files.length === 0) {
  console.error(`bot-answer: no *.test.ts files under ${roots.join(', ')}`);
  process.exit(1);
}

const env = { ...process.env };
const bundle = files.some((f) => f.startsWith(E2E_DIR + sep)) && !env.BOT_ANSWER_E2E_BUNDLE ? buildElement() : undefined;
if (bundle) env.BOT_ANSWER_E2E_BUNDLE = bundle;
const concurrency = files.some((f) => BROWSER_DIRS.has(f.split(sep).slice(0, 2).join('/'))) ? 2 : 4;
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], { stdio: 'inherit', env });
if (bundle) rmSync(bundle, { recursive: true, force: true });
process.exit(result.status ?? 1);

function collect(dir) {
  if (statSync(dir).isFile()) return [dir];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return collect(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Builds the element's bundles (its package's Vite config) into a fresh temporary folder, and names it. */
function buildElement() {
  const dir = mkdtempSync(join(tmpdir(), 'bot-answer-e2e-'));
  const built = spawnSync(process.execPath, [join(process.cwd(), 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'error'], { cwd: join('packages', 'bot-answer'), stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) {
    console.error('bot-answer: building the element for the end-to-end tests failed');
    rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  }
  return dir;
}
