// `npm test`: every suite in order, stopping at the first that fails, then each one's time.
// The build runs once, before the suites that need the built files, and they use it: the
// runtime recipes its server packages (no build of their own, which would rewrite its files).
// Steps in one group run at the same time (the type check and the build: each one compiler on one
// core of two, neither reading what the other writes); their output is printed as each one ends.
// The other suites run one at a time: side by side on two cores they took more CPU in all (Node
// tests 211 s instead of 183, adversarial 147 instead of 95) and timing-bound tests lost their
// timing, so the run was no shorter.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const GROUPS = [
  [
    ['type check', 'npm run typecheck'],
    ['build', 'npm run build'],
  ],
  [['Node tests', 'npm run test:node']],
  [['browser tests', 'npm run test:browser']],
  [['end-to-end', 'npm run test:e2e']],
  [['package', 'node scripts/test-node.mjs test/package']],
  [['frameworks', 'node scripts/test-node.mjs test/frameworks']],
  [['adversarial', 'npm run test:adversarial']],
  [['quick benchmark', 'node --import tsx bench/run.ts --quick']],
];

const times = [];
/** Once the build has passed: the suites after it read its output. */
let built = false;
const failed = [];
for (const group of GROUPS) {
  const cpuBefore = childrenCpu();
  const results = await Promise.all(group.map(([name, command]) => run(name, command, group.length > 1)));
  const cpu = cpuBefore === undefined ? '' : `   cpu ${String(Math.round(childrenCpu() - cpuBefore)).padStart(5)} s${group.length > 1 ? ' (together)' : ''}`;
  results.forEach(({ name, seconds, status }, i) => {
    times.push(`  ${name.padEnd(18)} ${String(seconds).padStart(5)} s${i === results.length - 1 ? cpu : ''}${status === 0 ? '' : '  FAILED'}`);
    if (status !== 0) failed.push(name);
  });
  if (failed.length) break;
  if (group.some(([name]) => name === 'build')) built = true;
}
console.log(`npm test: steps on Node ${process.versions.node} (wall time; cpu: user + system of the step's processes)\n${times.join('\n')}`);
if (failed.length) {
  console.error(`npm test: ${failed.join(', ')} failed`);
  process.exit(1);
}

/** Runs one step; beside others, its output is held and printed when it ends, so theirs do not interleave. */
function run(name, command, beside) {
  const began = Date.now();
  const child = spawn(command, { stdio: beside ? ['ignore', 'pipe', 'pipe'] : 'inherit', shell: true, env: { ...process.env, ...(built && { BOT_ANSWER_BUILT: '1' }) } });
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
