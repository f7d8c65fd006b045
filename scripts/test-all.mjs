// `npm test`: every suite in order, stopping at the first that fails, then each one's time.
// The build runs once, before the suites that need the built files. Steps in one group run at
// the same time (the type check and the build: each one compiler on one core of two, neither
// reading what the other writes); their output is printed as each one ends.
import { spawn } from 'node:child_process';

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
const failed = [];
for (const group of GROUPS) {
  const results = await Promise.all(group.map(([name, command]) => run(name, command, group.length > 1)));
  for (const { name, seconds, status } of results) {
    times.push(`  ${name.padEnd(18)} ${String(seconds).padStart(5)} s${status === 0 ? '' : '  FAILED'}`);
    if (status !== 0) failed.push(name);
  }
  if (failed.length) break;
}
console.log(`npm test: steps on Node ${process.versions.node}\n${times.join('\n')}`);
if (failed.length) {
  console.error(`npm test: ${failed.join(', ')} failed`);
  process.exit(1);
}

/** Runs one step; beside others, its output is held and printed when it ends, so theirs do not interleave. */
function run(name, command, beside) {
  const began = Date.now();
  const child = spawn(command, { stdio: beside ? ['ignore', 'pipe', 'pipe'] : 'inherit', shell: true });
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
