import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'bot-answer-engine';

/**
 * The folder holding this package's package.json, found by walking up from this module,
 * so the same lookup works from `src/` (run through tsx) and from `dist/node/` (built).
 */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && readName(manifest) === PACKAGE_NAME) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Cannot find the ${PACKAGE_NAME} package root above ${from}`);
    dir = parent;
  }
}

/** The sample knowledge base shipped with the package: the default for bot `demo`. */
export function sampleKnowledgeBaseDir(): string {
  return join(packageRoot(), 'src', 'upstream', 'sample-kb');
}

function readName(manifest: string): unknown {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}
