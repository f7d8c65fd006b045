import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

test('package.json, the README and CI name the same Node.js versions', () => {
  const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; devDependencies: Record<string, string> };
  const floor = /^>=(\d+)\.(\d+)$/.exec(pkg.engines.node);
  assert.ok(floor, `engines.node is a floor: ${pkg.engines.node}`);
  const [, major, minor] = floor;
  for (const name of ['bot-answer', 'bot-answer-proxy', 'bot-answer-engine']) {
    assert.equal((JSON.parse(read(`packages/${name}/package.json`)) as { engines: { node: string } }).engines.node, pkg.engines.node, `${name} says the same engines`);
  }
  const readme = read('README.md');
  assert.match(readme, new RegExp(`Node\\.js ${major}\\.${minor} or later \\(tested on 24 and 26\\)`));
  assert.doesNotMatch(readme, /Node(\.js)? (>= ?)?(1\d|20|21)\.\d+/, 'no older floor left in the README');
  const ci = read('.ci/run');
  // npm test on 24, with 26 as its other line and, for the install test, the floor engines names.
  assert.match(ci, /FLOOR=\$\(node -p "require\('\.\/package\.json'\)\.engines\.node/);
  assert.match(ci, /on 24 npm test -- --also="\$\(bin 26\)" --floor="\$\(bin "\$FLOOR"\)"/);
  const all = read('scripts/test-all.mjs');
  assert.match(all, /\['Node tests', 'npm run test:node', 'also'\]/);
  assert.match(all, /\['package install', 'node scripts\/test-node\.mjs test\/package\/pack\.test\.ts', 'floor'\]/);
  // Install and start, and the server-side import, on 26 too.
  assert.match(all, /\['package, Node side', `node scripts\/test-node\.mjs \$\{PACKAGE_NODE\}`, 'also'\]/);
  assert.match(all, /const PACKAGE_NODE = 'test\/package\/pack\.test\.ts test\/package\/ssr\.test\.ts';/);
  // Types of the floor's Node.js: an API newer than the floor does not type-check.
  assert.match(pkg.devDependencies['@types/node']!, new RegExp(`^\\^${major}\\.`));
  // The running Node.js is one the package supports (CI runs this on each line).
  const [runMajor, runMinor] = process.versions.node.split('.').map(Number);
  assert.ok(runMajor! > Number(major) || (runMajor === Number(major) && runMinor! >= Number(minor)), `Node.js ${process.version} is ${pkg.engines.node}`);
});
