import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** Where the benchmarks put what they build (git-ignored). */
export const OUT_DIR = fileURLToPath(new URL('../out/', import.meta.url));
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Builds a browser entry exactly as vite.config.ts builds the real bundle (its plugins, target and
 * minifier), only the entry and names changed: ES module and IIFE in `out/<name>/`, no source maps.
 */
export async function buildLibrary(name: string, entry: string, globalName: string): Promise<{ es: string; iife: string }> {
  const outDir = `${OUT_DIR}${name}`;
  await build({
    configFile: here('../../packages/bot-answer/vite.config.ts'),
    logLevel: 'error',
    build: {
      sourcemap: false,
      emptyOutDir: true,
      outDir,
      lib: { entry, name: globalName, formats: ['es', 'iife'], fileName: (format) => (format === 'es' ? `${name}.js` : `${name}.iife.js`) },
    },
  });
  return { es: `${outDir}/${name}.js`, iife: `${outDir}/${name}.iife.js` };
}

/** The floor element of the size and start-up benchmarks. */
export function buildFloor() {
  return buildLibrary('floor', here('../floor/floor-element.js'), 'FloorElement');
}

/** The naive whole-text re-rendering element, baseline (b) of the render benchmark. */
export function buildNaive() {
  return buildLibrary('naive', here('../browser/naive-element.js'), 'NaiveAnswer');
}
