// `npm test`: every suite in order, stopping at the first that fails, then each one's time.
// The build runs once, before the suites that need the built files.
import { spawnSync } from 'node:child_process';

const STEPS = [
  ['type check', 'npm run typecheck'],
  ['build', 'npm run build'],
  ['Node tests', 'npm run test:node'],
  ['browser tests', 'npm run test:browser'],
  ['end-to-end', 'npm run test:e2e'],
  ['package', 'node scripts/test-node.mjs test/package'],
  ['frameworks', 'node scripts/test-node.mjs test/frameworks'],
  ['adversarial', 'npm run test:adversarial'],
  ['quick benchmark', 'node --import tsx bench/run.ts --quick'],
];

const times = [];
let failed;
for (const [name, command] of STEPS) {
  const began = Date.now();
  const { status } = spawnSync(command, { stdio: 'inherit', shell: true });
  times.push(`  ${name.padEnd(18)} ${String(Math.round((Date.now() - began) / 1000)).padStart(5)} s${status === 0 ? '' : '  FAILED'}`);
  if (status !== 0) {
    failed = name;
    break;
  }
}
console.log(`npm test: steps on Node ${process.versions.node}\n${times.join('\n')}`);
if (failed) {
  console.error(`npm test: ${failed} failed`);
  process.exit(1);
}
