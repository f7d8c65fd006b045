import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { OUT_DIR, readViteConfig } from './build-browser.js';

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

/** The baseline config's plugin that builds its translation scripts (the benchmarks load none). */
const LOCALES_PLUGIN = 'bot-answer:locales';

/**
 * Builds the element as it was at {@link BASELINE_COMMIT}, with that commit's own Vite config (and
 * {@link CLASS_FIELDS_FIX}), into `out/baseline/`: its sources come from git (`git archive`), its
 * dependencies from this checkout's node_modules. Only what the benchmarks load, its ES module: not its
 * classic script nor its translation scripts. `missing`, with the reason, when the commit is not in this
 * clone (a shallow CI checkout).
 */
export async function buildBaseline(): Promise<{ es: string } | { missing: string }> {
  const src = `${OUT_DIR}baseline-src/`;
  const outDir = `${OUT_DIR}baseline`;
  const es = `${outDir}/bot-answer.js`;
  if (existsSync(`${src}.built-${BASELINE_COMMIT}`) && existsSync(es)) return { es };
  try {
    execFileSync('git', ['cat-file', '-e', `${BASELINE_COMMIT}^{commit}`], { cwd: ROOT, stdio: 'ignore' });
  } catch {
    return { missing: `commit ${BASELINE_COMMIT.slice(0, 12)} is not in this clone (fetch the full history for the baseline row)` };
  }
  await rm(src, { recursive: true, force: true });
  await mkdir(src, { recursive: true });
  const archive = execFileSync('git', ['archive', BASELINE_COMMIT, 'src/widget', 'src/protocol', 'vite.config.ts'], { cwd: ROOT, maxBuffer: 64 << 20 });
  execFileSync('tar', ['-x', '-C', src], { input: archive });
  const file = `${src}vite.config.ts`;
  const text = await readFile(file, 'utf8');
  if (!text.includes('export default defineConfig({')) throw new Error('baseline vite.config.ts: defineConfig({ not found');
  await writeFile(file, text.replace('export default defineConfig({', `export default defineConfig({\n  ${CLASS_FIELDS_FIX}`));
  const config = await readViteConfig(file);
  const lib = config.build?.lib;
  if (!lib) throw new Error('baseline vite.config.ts: no build.lib');
  await build({
    ...config,
    configFile: false,
    root: src,
    logLevel: 'error',
    build: { ...config.build, outDir, emptyOutDir: true, sourcemap: false, lib: { ...lib, formats: ['es'] } },
    plugins: config.plugins?.filter((plugin) => !(plugin && 'name' in plugin && plugin.name === LOCALES_PLUGIN)),
  });
  await rm(`${src}node_modules`, { force: true });
  execFileSync('touch', [`${src}.built-${BASELINE_COMMIT}`]);
  return { es };
}
