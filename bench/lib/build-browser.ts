import { fileURLToPath } from 'node:url';
import { build, loadConfigFromFile, type UserConfig } from 'vite';

/** Where the benchmarks put what they build (git-ignored). */
export const OUT_DIR = fileURLToPath(new URL('../out/', import.meta.url));
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * A Vite config file as it reads (plugins, target, minifier), for a build that sets its own `build.lib`:
 * an inline config merged over the file's would add its formats to the file's (Vite concatenates arrays)
 * and build each format the file names again.
 */
export async function readViteConfig(file: string): Promise<UserConfig> {
  const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, file, undefined, 'error');
  if (!loaded) throw new Error(`${file}: no Vite config`);
  return loaded.config;
}

/**
 * Builds a browser entry exactly as vite.config.ts builds the real bundle (its plugins, target and
 * minifier), only the entry, the format and the names changed: `out/<name>/<name>.js` (ES module) or
 * `<name>.iife.js`, no source maps. Resolves with the file's path.
 */
export async function buildLibrary(name: string, entry: string, format: 'es' | 'iife', globalName: string): Promise<string> {
  const config = await readViteConfig(here('../../packages/bot-answer/vite.config.ts'));
  const outDir = `${OUT_DIR}${name}`;
  const fileName = format === 'es' ? `${name}.js` : `${name}.iife.js`;
  await build({
    ...config,
    configFile: false,
    logLevel: 'error',
    build: { ...config.build, sourcemap: false, emptyOutDir: true, outDir, lib: { entry, name: globalName, formats: [format], fileName: () => fileName } },
  });
  return `${outDir}/${fileName}`;
}

/** The floor element of the size and start-up benchmarks, as a classic script (both read that one). */
export function buildFloor() {
  return buildLibrary('floor', here('../floor/floor-element.js'), 'iife', 'FloorElement');
}

/** The naive whole-text re-rendering element, baseline (b) of the render benchmark, as an ES module. */
export function buildNaive() {
  return buildLibrary('naive', here('../browser/naive-element.js'), 'es', 'NaiveAnswer');
}
