import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ENGINE = 'packages/bot-answer-engine';
const SOURCES = [`${ENGINE}/src/upstream`, 'packages/bot-answer/src/protocol'];

/**
 * The local Answer API as its package ships it (`packages/bot-answer-engine/dist/.../index.js`, compiled
 * by its `tsconfig.build.json`), compiled again first when it is missing or older than a source
 * file, so a section run on its own measures the code as it is.
 */
export function nodeBuild(): string {
  const entry = join(root, ENGINE, 'dist', 'bot-answer-engine', 'src', 'upstream', 'index.js');
  const built = existsSync(entry) ? statSync(entry).mtimeMs : 0;
  if (SOURCES.some((dir) => newestIn(join(root, dir)) > built)) {
    process.stderr.write('bench: compiling the local Answer API (tsc -p packages/bot-answer-engine/tsconfig.build.json)...\n');
    const result = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, ENGINE, 'tsconfig.build.json')], { stdio: 'inherit' });
    if (result.status !== 0) throw new Error('tsc -p packages/bot-answer-engine/tsconfig.build.json failed');
  }
  return entry;
}

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * The Node.js flags the package's CLI starts with (its `#!/usr/bin/env -S node ...` line), given
 * the entry `nodeBuild` returns: a benchmark server started with them runs as a deployment does.
 */
export function cliNodeFlags(entry: string): string[] {
  const shebang = readFileSync(join(dirname(entry), 'cli.js'), 'utf8').split('\n', 1)[0]!;
  const flags = /^#!\/usr\/bin\/env(?: -S)? node(.*)$/.exec(shebang);
  if (!flags) throw new Error(`the CLI's first line is not a node shebang: ${shebang}`);
  return flags[1]!.split(' ').filter(Boolean);
}
