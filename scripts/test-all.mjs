// `npm test`: every suite, then each one's time. With `--also-node=DIR` (the CI), the suites that can
// fail on one Node.js line and not another run again with the Node.js in DIR; with
// `--floor-node=DIR`, the packages are installed and started with the oldest Node.js they allow.
//
// The suites run side by side as far as the machine's cores allow: most of them spend most of
// their time waiting (on sockets, child servers, Chromium, timers), so one after another left a
// 2-core machine half idle. Each suite says about how many cores it keeps busy (its CPU time over
// its wall time in earlier runs); one starts when its inputs are ready and the suites running leave
// room for it, in the list's order (the longest and busiest first), and the first suite waiting for
// the build keeps room for itself. The build runs once, before the suites that read what it writes. A suite's second run (another Node line) never overlaps its first: the same
// files then never start the same servers on the same folders at once. Output is printed as each
// suite ends, so suites never interleave. At the first failure no new suite starts; those running
// finish, and the run fails.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

/** The other Node.js lines to run suites on: `--also-node=DIR` (a supported line: the suites' `again`), `--floor-node=DIR` (the oldest supported release: their `floor`). */
const lines = process.argv.slice(2).flatMap((arg) => {
  const [, kind, dir] = /^--(also|floor)-node=(.+)$/.exec(arg) ?? [];
  if (!kind) return [];
  if (!existsSync(join(dir, process.platform === 'win32' ? 'node.exe' : 'node'))) {
    console.error(`npm test: --${kind}-node names ${dir}, which holds no node binary`);
    process.exit(2);
  }
  return [{ kind: kind === 'also' ? 'again' : 'floor', dir: resolve(dir), version: versionOf(dir) }];
});

/**
 * The suites. `cores`: how many cores it keeps busy while it runs (CPU / wall time, runs on a
 * 2-core machine); `needs`: the suite whose output it reads; `again`: its command on another
 * supported Node line (`true`: the same), absent when one run says all (the type check,
 * the build, Chromium's own rendering, the framework recipes, the quick benchmark); `floor`: its
 * command on the oldest release `engines` allows (the packages installed and started
 * as a user would; the rest is checked on the supported lines).
 */
const SUITES = [
  { name: 'type check', command: 'npm run typecheck', cores: 1 },
  { name: 'build', command: 'npm run build', cores: 1 },
  { name: 'Node tests', command: 'npm run test:node', cores: 1.9, needs: 'build', again: true },
  { name: 'quick benchmark', command: 'node --import tsx bench/run.ts --quick', cores: 0.9, needs: 'build' },
  // Its hostile-content file checks what Chromium renders: the other files check the proxy's bytes, on both lines.
  { name: 'adversarial', command: 'npm run test:adversarial', cores: 0.6, again: 'npm run test:adversarial -- clients secrecy shutdown streams' },
  { name: 'end-to-end', command: 'npm run test:e2e', cores: 0.8, needs: 'build', again: true },
  { name: 'package', command: 'node scripts/test-node.mjs test/package', cores: 1.3, needs: 'build', again: true, floor: 'node scripts/test-node.mjs test/package/pack.test.ts' },
  { name: 'frameworks', command: 'node scripts/test-node.mjs test/frameworks', cores: 1, needs: 'build' },
  { name: 'browser tests', command: 'npm run test:browser', cores: 0.4 },
];

const CAPACITY = availableParallelism() * 1.25;
const mainLine = process.versions.node;
// The parent each suite runs under: runs the command in a shell, then writes its CPU seconds to fd 3.
const CPU_PARENT = `
const { spawn } = require('node:child_process');
const { readFileSync, writeSync } = require('node:fs');
spawn(process.argv[1], { stdio: 'inherit', shell: true }).on('close', (status) => {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    writeSync(3, String((Number(fields[13]) + Number(fields[14])) / 100));
  } catch {}
  process.exit(status ?? 1);
});`;

const steps = SUITES.flatMap((suite) => {
  const on = lines.filter((line) => suite[line.kind]);
  const first = { ...suite, id: suite.name, label: on.length ? `${suite.name}, Node ${mainLine}` : suite.name };
  // Each further run of a suite waits for the one before it.
  return [first, ...on.map((line, i) => ({ ...suite, id: `${suite.name} on ${line.version}`, label: `${suite.name}, Node ${line.version}`, command: suite[line.kind] === true ? suite.command : suite[line.kind], node: line.dir, after: i === 0 ? suite.name : `${suite.name} on ${on[i - 1].version}` }))];
});

// Suites after the build read its output: the element's bundles for the end-to-end tests, the
// server packages for the runtime recipes (no second build of their own, which would rewrite
// files other suites are reading).
const built = { BOT_ANSWER_E2E_BUNDLE: resolve('packages/bot-answer/dist'), BOT_ANSWER_BUILT: '1' };

const began = Date.now();
const state = new Map(steps.map((s) => [s.id, 'waiting']));
const results = [];
let stopping = false;
await new Promise((done) => {
  const running = new Set();
  const ready = (s) => state.get(s.id) === 'waiting' && (!s.needs || state.get(s.needs) === 'passed') && (!s.after || ['passed', 'failed'].includes(state.get(s.after)));
  const busy = () => [...running].reduce((sum, s) => sum + s.cores, 0);
  const launch = () => {
    if (!stopping) {
      // The first suite waiting for a running one's output keeps room for itself: the build's first reader starts as soon as the build ends.
      const waiting = steps.find((s) => state.get(s.id) === 'waiting' && s.needs && state.get(s.needs) === 'running');
      for (const s of steps) {
        if (!ready(s)) continue;
        if (running.size > 0 && busy() + s.cores + (waiting && waiting !== s ? waiting.cores : 0) > CAPACITY) continue;
        running.add(s);
        state.set(s.id, 'running');
        run(s).then((result) => {
          running.delete(s);
          state.set(s.id, result.status === 0 ? 'passed' : 'failed');
          results.push(result);
          if (result.status !== 0) stopping = true;
          launch();
        });
      }
    }
    if (running.size === 0) done();
  };
  launch();
});

const order = new Map(steps.map((s, i) => [s.id, i]));
results.sort((a, b) => order.get(a.id) - order.get(b.id));
const width = Math.max(...results.map((r) => r.label.length));
const rows = results.map((r) => `  ${r.label.padEnd(width)}  ${fmt(r.seconds)} s   starts at ${fmt(r.start)} s   cpu ${r.cpu === undefined ? '    ?' : fmt(r.cpu)} s${r.status === 0 ? '' : '  FAILED'}`);
const skipped = steps.filter((s) => state.get(s.id) === 'waiting').map((s) => s.label);
console.log(`npm test: suites on Node ${[mainLine, ...lines.map((l) => l.version)].join(', ')}, side by side on ${availableParallelism()} cores (wall time; cpu: user + system of the suite's processes)\n${rows.join('\n')}\n  all: ${fmt((Date.now() - began) / 1000)} s`);
const failed = results.filter((r) => r.status !== 0).map((r) => r.label);
if (failed.length) {
  console.error(`npm test: ${failed.join(', ')} failed${skipped.length ? `; not run: ${skipped.join(', ')}` : ''}`);
  process.exit(1);
}

/**
 * Runs one suite with its output held, printed whole when it ends. It runs under a small Node
 * parent that reports, once the suite ends, the CPU time of the suite's processes (Linux: /proc,
 * the finished children of that parent and theirs): suites side by side share one process here.
 */
function run(step) {
  const start = (Date.now() - began) / 1000;
  const env = { ...process.env, ...(step.needs === 'build' ? built : {}), ...(step.node ? { PATH: step.node + delimiter + process.env.PATH } : {}) };
  const child = spawn(process.execPath, ['-e', CPU_PARENT, step.command], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], env });
  const output = [];
  let cpu = '';
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  child.stdio[3].on('data', (chunk) => (cpu += chunk));
  console.log(`npm test: -- ${step.label} started`);
  return new Promise((resolveRun) => {
    child.on('close', (status) => {
      const seconds = (Date.now() - began) / 1000 - start;
      process.stdout.write(`npm test: -- ${step.label} (${fmt(seconds)} s${status === 0 ? '' : ', FAILED'})\n${Buffer.concat(output).toString()}`);
      resolveRun({ id: step.id, label: step.label, seconds, start, status, cpu: cpu ? Number(cpu) : undefined });
    });
  });
}

function fmt(seconds) {
  return String(Math.round(seconds)).padStart(5);
}

/** The version of the node binary in `dir`. */
function versionOf(dir) {
  const { stdout, status } = spawnSync(join(dir, 'node'), ['-p', 'process.versions.node']);
  if (status !== 0) {
    console.error(`npm test: ${join(dir, 'node')} does not run`);
    process.exit(2);
  }
  return String(stdout).trim();
}
