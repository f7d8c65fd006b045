// `npm test`: every suite, stopping at the first group that fails, then each step's time and CPU.
// The build runs once, before the suites that need the built files, and they use it: the
// runtime recipes its server packages (no build of their own, which would rewrite its files).
// Beside it the element is built once more, into a temporary folder, for the end-to-end and
// adversarial suites (four builds of their own before: one per end-to-end and adversarial run).
//
// CI also names other Node.js lines: `npm test -- --also=<bin folder> --floor=<bin folder>`. Then
// the suites whose Node side can fail on one line and not the other (the Node tests, which drive
// the proxy, the engine and insights over real HTTP; the package files that run the packages on
// Node: install and start, the server-side import; the Node side of the adversarial suite) run
// again on `--also`, and the packages' install test on `--floor` (the oldest Node.js `engines`
// allows). What Chromium checks runs once: the browser, end-to-end and framework tests, the
// packed element served as a CDN serves it, and the hostile-content file serve the element from
// the same server code the Node tests drive; the manifest's check reads files only. On the other
// lines the install test leaves out its type check of the installed types and its Chromium page
// (BOT_ANSWER_OTHER_LINE): neither depends on the Node.js running it (10 s of CPU a line).
//
// Steps in one group run at the same time, their output printed as each one ends. The adversarial
// suite's Node side waits on sockets and timers for most of its time, so it runs beside a suite
// that leaves a core free. Suites that keep a core busy gain nothing side by side (measured on
// 2 cores: end-to-end on two lines 219 s together against 190 one after the other; frameworks
// beside package 79 s against 79), and timing-bound tests lose their timing, so they run alone.
// Chromium's work counts, and the cpu column below misses most of it: sampled from /proc, the
// end-to-end tests used 2.6 times the CPU that column gives them, the browser tests and the
// adversarial content file 3.2 times (end-to-end in a quiet CI: about 210 s over 117 s of wall).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
/** The Node.js lines of this run: this one, and what CI names (a folder holding a `node` binary). */
const lines = { this: undefined, also: option('also'), floor: option('floor') };
for (const [name, dir] of Object.entries(lines)) {
  if (dir !== undefined && !existsSync(resolve(dir, 'node'))) {
    console.error(`npm test: --${name}=${dir} holds no node binary`);
    process.exit(2);
  }
}

// The element built once for the end-to-end and adversarial suites (run alone, each builds its own), into a
// fresh folder, with the adversarial suite's key in the build's environment: its secrecy test scans this build.
const element = mkdtempSync(join(tmpdir(), 'bot-answer-element-'));
// As the adversarial suite makes its keys: `+`, `/` and `=`, so its encoded forms differ from it.
const key = `sk-adv+${randomBytes(12).toString('base64')}/${randomBytes(6).toString('hex')}=`;
const ELEMENT_ENV = { BOT_ANSWER_E2E_BUNDLE: element, ADVERSARIAL_BUNDLE_DIR: element, ADVERSARIAL_KEY: key };

const ADVERSARIAL_NODE = 'clients secrecy shutdown streams';
/** The package files that run the packages on Node (the CDN one is Chromium's, the manifest one reads files). */
const PACKAGE_NODE = 'test/package/pack.test.ts test/package/ssr.test.ts';
/** `[name, command, line, env]`: the line is `this` unless named; `env` is added to the step's environment. */
const GROUPS = [
  [
    ['type check', 'npm run typecheck'],
    ['build', 'npm run build'],
    ['element, for the suites', `node node_modules/vite/bin/vite.js build packages/bot-answer --outDir "${element}" --emptyOutDir --logLevel error`, 'this', { ANSWER_API_KEY: key }],
  ],
  [['Node tests', 'npm run test:node']],
  [['Node tests', 'npm run test:node', 'also']],
  // Chromium runs the element here, Node only serves it: once is enough. Beside it, the adversarial
  // suite's Node side (floods, slow clients, shutdown, broken streams).
  [
    ['browser tests', 'npm run test:browser'],
    ['adversarial, Node side', `npm run test:adversarial -- ${ADVERSARIAL_NODE}`],
  ],
  // Hostile content rendered inert by Chromium (what it checks is the browser's; the proxy passes
  // bytes through, checked on both lines by the streams file).
  [
    ['adversarial, content', 'npm run test:adversarial -- content'],
    ['adversarial, Node side', `npm run test:adversarial -- ${ADVERSARIAL_NODE}`, 'also'],
  ],
  [['end-to-end', 'npm run test:e2e']],
  [
    ['frameworks', 'node scripts/test-node.mjs test/frameworks'],
    ['package, Node side', `node scripts/test-node.mjs ${PACKAGE_NODE}`, 'also'],
  ],
  [
    ['package', 'node scripts/test-node.mjs test/package'],
    ['package install', 'node scripts/test-node.mjs test/package/pack.test.ts', 'floor'],
  ],
  // That the benchmark runs: its Chromium sections beside its server sections (figures not judged).
  [
    ['quick benchmark, browser', 'node --import tsx bench/run.ts --quick --lane=browser'],
    ['quick benchmark, servers', 'node --import tsx bench/run.ts --quick --lane=servers'],
  ],
]
  .map((group) => group.filter(([, , line = 'this']) => line === 'this' || lines[line] !== undefined))
  .filter((group) => group.length > 0);

const versions = { this: process.versions.node };
for (const line of ['also', 'floor']) if (lines[line]) versions[line] = nodeVersion(lines[line]);

const times = [];
/** Once the build has passed: the suites after it read its output. */
let built = false;
const failed = [];
for (const group of GROUPS) {
  const cpuBefore = childrenCpu();
  const busyBefore = machineBusy();
  const began = Date.now();
  const results = await Promise.all(group.map(([name, command, line = 'this', env = {}]) => run(`${name}, Node ${versions[line]}`, command, line, group.length > 1, env)));
  const cpu = cpuBefore === undefined ? '' : `   cpu ${String(Math.round(childrenCpu() - cpuBefore)).padStart(5)} s${group.length > 1 ? ' (together)' : ''}`;
  const busy = busyBefore === undefined ? '' : `   busy ${String(Math.round(machineBusy() - busyBefore)).padStart(4)} of ${Math.round(((Date.now() - began) / 1000) * availableParallelism())} core-s`;
  results.forEach(({ name, seconds, status }, i) => {
    times.push(`  ${name.padEnd(36)} ${String(seconds).padStart(5)} s${i === results.length - 1 ? cpu + busy : ''}${status === 0 ? '' : '  FAILED'}`);
    if (status !== 0) failed.push(name);
  });
  if (failed.length) break;
  if (group.some(([name]) => name === 'build')) built = true;
}
rmSync(element, { recursive: true, force: true });
console.log(`npm test: steps (wall time; cpu: user + system of the group's processes, Chromium's pages not counted; busy: the machine's cores at work over the group, everyone's)\n${times.join('\n')}`);
if (failed.length) {
  console.error(`npm test: ${failed.join('; ')} failed`);
  process.exit(1);
}

/** Runs one step on its line; beside others, its output is held and printed when it ends, so theirs do not interleave. */
function run(name, command, line, beside, extra) {
  const began = Date.now();
  const env = {
    ...process.env,
    ...extra,
    ...(built && { BOT_ANSWER_BUILT: '1', ...ELEMENT_ENV }),
    // On another line: the package test leaves out its Chromium and type checks, which ran on this one.
    ...(lines[line] && { PATH: `${resolve(lines[line])}${delimiter}${process.env.PATH}`, BOT_ANSWER_OTHER_LINE: '1' }),
  };
  const child = spawn(command, { stdio: beside ? ['ignore', 'pipe', 'pipe'] : 'inherit', shell: true, env });
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (status) => {
      if (beside) process.stdout.write(`npm test: ── ${name}\n${Buffer.concat(output).toString()}`);
      resolve({ name, seconds: Math.round((Date.now() - began) / 1000), status });
    });
  });
}

/** The version of the node binary in `dir`. */
function nodeVersion(dir) {
  return execFileSync(resolve(dir, 'node'), ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
}

/**
 * Seconds of CPU (user + system) used by the finished child processes and theirs, where the system
 * says (Linux: /proc); on a shared machine CPU time holds still where wall time does not.
 */
function childrenCpu() {
  if (!existsSync('/proc/self/stat')) return undefined;
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // cutime and cstime, fields 16 and 17 of proc(5), in clock ticks (100 a second on Linux).
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/**
 * Seconds of CPU the whole machine has spent at work (Linux: /proc/stat), every process's. Most of
 * Chromium's is missing from childrenCpu: its page processes are not reaped up the chain that leads
 * here (end-to-end, sampled from /proc: 84 s counted of 223 s used). On a quiet machine (CI) this is
 * the suites' own; against the cores the group had, it shows how much of its time was waiting.
 */
function machineBusy() {
  if (!existsSync('/proc/stat')) return undefined;
  // user nice system idle iowait irq softirq steal, in clock ticks (100 a second on Linux).
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq + steal) / 100;
}
