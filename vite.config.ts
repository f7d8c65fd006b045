import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig({
  build: {
    // ES2022 (Chrome 94, Safari 15.4, Firefox 93) keeps class fields and optional chaining native: smaller output.
    target: 'es2022',
    sourcemap: true,
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
      // The element's private members (`_turns`, `_run`, ...) get short names. Every other property name in the
      // bundle is left alone, and terser never picks a name used as a property anywhere in it; marked's own
      // `_backpedal` rule is kept by name.
      mangle: { properties: { regex: /^_[a-z]/, reserved: ['_backpedal'] } },
    },
    emptyOutDir: true,
    lib: {
      entry: 'src/widget/index.ts',
      name: 'BotAnswer',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'bot-answer.js' : `bot-answer.${format}.js`),
    },
  },
  plugins: [dompurifyFromSource(), reportGzipSize()],
});
