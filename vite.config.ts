import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, defineConfig, type Plugin, type UserConfig } from 'vite';

const LOCALES_DIR = fileURLToPath(new URL('src/widget/locales/', import.meta.url));

/**
 * Bundles DOMPurify from the TypeScript source its package ships (the same release as its dist files),
 * compiled for our target like our own code. Its dist files are compiled for old browsers and carry
 * Babel helpers (array destructuring, async generators, rest arguments): about 650 B gzip more.
 */
function dompurifyFromSource(): Plugin {
  const dir = join(dirname(createRequire(import.meta.url).resolve('dompurify')), '..');
  const entry = join(dir, 'src', 'purify.ts');
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  return {
    name: 'bot-answer:dompurify-source',
    enforce: 'pre',
    resolveId(id) {
      if (id != 'dompurify') return;
      if (!existsSync(entry)) throw new Error(`dompurify ${version} ships no src/purify.ts: bundle its dist or update this plugin`);
      return entry;
    },
    transform(code, id) {
      if (id != entry) return;
      // Its own build replaces this constant; fail rather than ship a DOMPurify without its version.
      const out = code.replace(/= VERSION;/, `= ${JSON.stringify(version)};`);
      if (out == code) throw new Error('dompurify: DOMPurify.version = VERSION not found in src/purify.ts');
      // One token on one line changes: no line moves, so the source map can map this file as it is.
      return { code: out, map: null };
    },
  };
}

/** Prints the gzip size of the classic-script bundle: the size a site owner's visitors download. */
function reportGzipSize(): Plugin {
  return {
    name: 'bot-answer:gzip-size',
    apply: 'build',
    writeBundle(_options, bundle) {
      const chunk = bundle['bot-answer.iife.js'];
      if (chunk?.type !== 'chunk') return;
      const bytes = gzipSync(chunk.code, { level: 9 }).length;
      console.log(`\ndist/bot-answer.iife.js: ${(bytes / 1024).toFixed(2)} KiB gzip (budget 40 KiB)`);
    },
  };
}

/**
 * Builds each translation in src/widget/locales/ to `<outDir>/locales/<lang>.js`: a small standalone script
 * (no import, no export) that registers its strings, so one file serves both as a classic script beside the
 * IIFE bundle and as an ES module beside the module bundle. Never part of the main bundle.
 */
function localeScripts(): Plugin {
  let outDir = '';
  let element = false;
  return {
    name: 'bot-answer:locales',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      // Only beside the element's bundle (the benchmarks build other entries with this config).
      const lib = config.build.lib;
      element = !!lib && String(lib.entry).endsWith('src/widget/index.ts');
    },
    // After the main bundle is written (which may empty the output folder first).
    async closeBundle() {
      if (!element) return;
      const files = readdirSync(LOCALES_DIR).filter((f) => /^[a-z]{2}(-[A-Za-z]+)?\.ts$/.test(f));
      await Promise.all(files.map((file) => {
        const lang = file.slice(0, -3);
        return build({
          configFile: false,
          logLevel: 'error',
          build: {
            ...sharedBuild,
            sourcemap: false,
            emptyOutDir: false,
            outDir,
            lib: { entry: join(LOCALES_DIR, file), formats: ['iife'], name: 'botAnswerLocale', fileName: () => `locales/${lang}.js` },
          },
        });
      }));
    },
  };
}

/** What the main bundle and the translation scripts share: target and minifier. */
const sharedBuild: UserConfig['build'] = {
  // ES2022 (Chrome 94, Safari 15.4, Firefox 93) keeps class fields and optional chaining native: smaller output.
  target: 'es2022',
  // Terser's extra passes save a few hundred bytes over the default minifier; the bundle budget is tight.
  // It also minifies library-mode ES output, which Vite otherwise leaves unminified.
  minify: 'terser',
  // Terser is the slow step by design (three passes); the bundler's note that it takes most of the build is noise.
  rolldownOptions: { checks: { bundlerTimings: false } },
  terserOptions: {
    ecma: 2020,
    compress: { passes: 3 },
    // ASCII only, other characters as escapes: a page in Shift_JIS or windows-1252 reads a script served without
    // a charset in its own encoding, which would garble every non-ASCII character of the element's strings.
    format: { comments: false, ascii_only: true },
    // The element's private members (`_turns`, `_answer`, ...) get short names. Every other property name in the
    // bundle is left alone, and terser never picks a name used as a property anywhere in it; marked's own
    // `_backpedal` rule is kept by name.
    mangle: { properties: { regex: /^_[a-z]/, reserved: ['_backpedal'] } },
  },
};

export default defineConfig({
  build: {
    ...sharedBuild,
    sourcemap: true,
    emptyOutDir: true,
    lib: {
      entry: 'src/widget/index.ts',
      name: 'BotAnswer',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'bot-answer.js' : `bot-answer.${format}.js`),
    },
  },
  plugins: [dompurifyFromSource(), reportGzipSize(), localeScripts()],
});
