// Runs Node's built-in test runner over the TypeScript tests in the given folders
// (or files; default: every folder under test/ except the browser tests and those that
// need the built package), through tsx.
//
// The files are dealt into a few shards, each one process that runs its files one after another
// (`--test-isolation=none`), the shards at the same time. A process per file loaded tsx and
// compiled the shared modules 65 times: the Node tests took 180 s of CPU that way, about 87 s in
// four shards. Several shards run at once because most of a file's time is spent waiting on sockets,
// child processes (servers, Redis, PostgreSQL) and timers; four keep a 2-core machine busy. Files
// that drive Chromium run in two: its rendering takes a core while it lasts. Each file still has
// its own ports and folders; a shard's output is printed whole when it ends.
//
// The end-to-end tests drive the element built from the current sources: it is built once here,
// into a temporary folder (dist/ is left alone), for all of them, instead of once per file.
import { spawn, spawnSync } from 'node:child_process';
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
const shards = Math.min(files.some((f) => BROWSER_DIRS.has(f.split(sep).slice(0, 2).join('/'))) ? 2 : 4, files.length);
// Node 22 names the option as experimental; 23.6 and later name it plainly.
const isolation = Number(process.versions.node.split('.')[0]) >= 23 ? '--test-isolation=none' : '--experimental-test-isolation=none';
const statuses = await Promise.all(Array.from({ length: shards }, (_, i) => runShard(i + 1)));
if (bundle) rmSync(bundle, { recursive: true, force: true });
process.exit(statuses.every((status) => status === 0) ? 0 : 1);

/** Runs shard `n` of the files in one process; prints its report once it ends, and resolves to its exit status. */
function runShard(n) {
  const args = ['--import', 'tsx', '--test', isolation, ...(shards > 1 ? [`--test-shard=${n}/${shards}`] : []), '--test-reporter=spec', ...files];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (status, signal) => {
      process.stdout.write(`${shards > 1 ? `── shard ${n} of ${shards}\n` : ''}${Buffer.concat(output).toString()}`);
      if (signal) console.error(`bot-answer: shard ${n} of ${shards} was ended by ${signal}`);
      resolve(status ?? 1);
    });
  });
}

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
