import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { OUT_DIR } from './build-browser.js';

/**
 * The last commit whose `<bot-answer>` was one bundle (Lit, marked, DOMPurify and the thread, all fetched,
 * parsed and run before the launcher shows): the page-cost benchmark's baseline row.
 */
export const BASELINE_COMMIT = 'c72e99a1cf134e6c792d295d6642a46a4db4e7c2';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What the baseline's build needed to work: its Vite config let the TypeScript transform define class fields
 * over Lit's reactive accessors (so `show()` from a script, or the launcher's click, did not open the
 * dialog). Built with `useDefineForClassFields: false` honoured, as the loader is, the baseline behaves as
 * its sources and tests do.
 */
const CLASS_FIELDS_FIX = 'oxc: { assumptions: { setPublicClassFields: true }, typescript: { removeClassFieldsWithoutInitializer: true } },';

/**
 * Builds the element as it was at {@link BASELINE_COMMIT}, with that commit's own Vite config (and
 * {@link CLASS_FIELDS_FIX}), into `out/baseline/`: its sources come from git (`git archive`), its
 * dependencies from this checkout's node_modules. `missing`, with the reason, when the commit is not in this
 * clone (a shallow CI checkout).
 */
export async function buildBaseline(): Promise<{ es: string; iife: string } | { missing: string }> {
  const src = `${OUT_DIR}baseline-src/`;
  const outDir = `${OUT_DIR}baseline`;
  const es = `${outDir}/bot-answer.js`;
  const iife = `${outDir}/bot-answer.iife.js`;
  if (existsSync(`${src}.built-${BASELINE_COMMIT}`) && existsSync(es) && existsSync(iife)) return { es, iife };
  try {
    execFileSync('git', ['cat-file', '-e', `${BASELINE_COMMIT}^{commit}`], { cwd: ROOT, stdio: 'ignore' });
  } catch {
    return { missing: `commit ${BASELINE_COMMIT.slice(0, 12)} is not in this clone (fetch the full history for the baseline row)` };
  }
  await rm(src, { recursive: true, force: true });
  await mkdir(src, { recursive: true });
  const archive = execFileSync('git', ['archive', BASELINE_COMMIT, 'src/widget', 'src/protocol', 'vite.config.ts'], { cwd: ROOT, maxBuffer: 64 << 20 });
  execFileSync('tar', ['-x', '-C', src], { input: archive });
  const config = `${src}vite.config.ts`;
  const text = await readFile(config, 'utf8');
  if (!text.includes('export default defineConfig({')) throw new Error('baseline vite.config.ts: defineConfig({ not found');
  await writeFile(config, text.replace('export default defineConfig({', `export default defineConfig({\n  ${CLASS_FIELDS_FIX}`));
  const log = console.log;
  // Its config prints the bundle's gzip size; noise here.
  console.log = () => {};
  try {
    await build({ configFile: config, root: src, logLevel: 'error', build: { outDir, emptyOutDir: true, sourcemap: false } });
  } finally {
    console.log = log;
  }
  await rm(`${src}node_modules`, { force: true });
  execFileSync('touch', [`${src}.built-${BASELINE_COMMIT}`]);
  return { es, iife };
}
