import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, defineConfig, type Plugin, type UserConfig } from 'vite';
import { STAGE_FILES } from './src/widget/stage-url.js';

const WIDGET = fileURLToPath(new URL('src/widget/', import.meta.url));
const LOCALES_DIR = WIDGET + 'locales/';
const { version: VERSION } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as { version: string };
const KiB = 1024;

/**
 * Bundles DOMPurify from the TypeScript source its package ships (the same release as its dist files),
 * compiled for our target like our own code. Its dist files are compiled for old browsers and carry
 * Babel helpers (array destructuring, async generators, rest arguments): about 650 B gzip more.
 *
 * Its default allow-lists of attributes (HTML, SVG, MathML, XML) and of HTML elements are shipped empty:
 * DOMPurify reads them only for a configuration without `ALLOWED_ATTR`/`ALLOWED_TAGS` or with `USE_PROFILES`,
 * and ours (src/widget/markdown/sanitizer.ts) always names both. An empty default allows less, never more.
 * The SVG and MathML element lists stay: DOMPurify's namespace checks read them.
 */
function dompurifyFromSource(): Plugin {
  const dir = join(dirname(createRequire(import.meta.url).resolve('dompurify')), '..');
  const entry = join(dir, 'src', 'purify.ts');
  const attrs = join(dir, 'src', 'attrs.ts');
  const tags = join(dir, 'src', 'tags.ts');
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
      if (id == attrs) {
        const names = [...code.matchAll(/^export const (\w+) = freeze\(\[$/gm)].map((m) => m[1]!);
        if (!names.length) throw new Error('dompurify: no attribute lists found in src/attrs.ts');
        return { code: `export const ${names.map((n) => `${n} = []`).join(', ')};`, map: null };
      }
      if (id == tags) {
        // The same number of lines, so the source map can map this file as it is.
        const out = code.replace(/^export const html = freeze\(\[\n[^\]]*\] as const\);$/m, (m) => 'export const html = [];' + '\n'.repeat(m.split('\n').length - 1));
        if (out == code) throw new Error('dompurify: the HTML element list not found in src/tags.ts');
        return { code: out, map: null };
      }
      if (id != entry) return;
      // Its own build replaces this constant; fail rather than ship a DOMPurify without its version.
      const out = code.replace(/= VERSION;/, `= ${JSON.stringify(version)};`);
      if (out == code) throw new Error('dompurify: DOMPurify.version = VERSION not found in src/purify.ts');
      // One token on one line changes: no line moves, so the source map can map this file as it is.
      return { code: out, map: null };
    },
  };
}

/**
 * Bundles marked without its default instance (`marked()`, `marked.use()`, `parse`, `lexer`... as functions):
 * the element makes its own `Marked` instances, but the default one is made when the module loads, so no bundler
 * can leave it out (about 170 B gzip). Every export of the classes stays; the build fails if marked's file no
 * longer has that shape.
 */
function markedWithoutDefaultInstance(): Plugin {
  return {
    name: 'bot-answer:marked-classes',
    transform(code, id) {
      if (!/\/marked\/lib\/marked\.esm\.js$/.test(id)) return;
      const start = /var ([\w$]+)=new [\w$]+;function [\w$]+\([\w$]+,[\w$]+\)\{return \1\.parse\(/.exec(code)?.index;
      const end = code.lastIndexOf('export{');
      if (start === undefined || end < start) throw new Error('marked: the default instance not found in marked.esm.js');
      const tail = code.slice(start, end);
      const gone = new Set([...tail.matchAll(/(?:\bvar |\bfunction |,)([\w$]+)(?:=|\()/g)].map((m) => m[1]));
      const exports = code.slice(end).replace(/export\{([^}]*)\}/, (_, list: string) =>
        `export{${list.split(',').filter((e) => !gone.has(e.split(' as ')[0]!)).join(',')}}`,
      );
      return { code: code.slice(0, start) + exports, map: null };
    },
  };
}

/**
 * The ES loader (`bot-answer.js`) keeps its `import('./box/index.js')` and `import('./chat/index.js')` as
 * dynamic imports of those files beside it (`bot-answer-box.js`, `bot-answer-chat.js`), so apps that bundle
 * the package split each into a chunk of its own, and a page loading the loader directly fetches them from
 * the same folder (a CDN's version folder included).
 */
function stagesBeside(): Plugin {
  return {
    name: 'bot-answer:stages-beside',
    enforce: 'pre',
    resolveId(id, importer) {
      const stage = /^\.\/(box|chat)\/index\.js$/.exec(id)?.[1] as keyof typeof STAGE_FILES | undefined;
      if (stage && importer?.endsWith('src/widget/index.ts')) return { id: `./${STAGE_FILES[stage]}`, external: true };
    },
  };
}

/**
 * After the ES loader is written (which may empty the output folder first), builds the rest of the element
 * beside it: the classic-script loader (`bot-answer.iife.js`), the box and the chat (`bot-answer-box.js`,
 * `bot-answer-chat.js`: ES modules both loaders import, each self-contained) and each translation (`locales/<lang>.js`: a small standalone script, no import
 * or export, that registers its strings, so one file serves as a classic script and as an ES module; never
 * part of a bundle). Then prints the gzip sizes a page pays: the loader before intent, the whole once open.
 */
function otherFiles(): Plugin {
  let outDir = '';
  let element = false;
  let sourcemap: boolean | 'inline' | 'hidden' = false;
  return {
    name: 'bot-answer:other-files',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      sourcemap = config.build.sourcemap;
      // Only beside the element's loader (the benchmarks build other entries with this config).
      const lib = config.build.lib;
      element = !!lib && String(lib.entry).endsWith('src/widget/index.ts');
    },
    async closeBundle() {
      if (!element) return;
      const file = (entry: string, fileName: string, format: 'es' | 'iife', options: UserConfig = {}, map = sourcemap) =>
        build({
          ...shared,
          ...options,
          configFile: false,
          logLevel: 'error',
          build: {
            ...shared.build,
            sourcemap: map,
            emptyOutDir: false,
            outDir,
            lib: { entry, formats: [format], name: 'BotAnswer', fileName: () => fileName },
            // No Symbol.toStringTag on window.BotAnswer: bytes every page would pay for nothing.
            rolldownOptions: { ...shared.build.rolldownOptions, output: { generatedCode: { symbols: false } } },
            ...(entry.endsWith('classic.ts') && { terserOptions: loaderTerser }),
          },
        });
      const locales = readdirSync(LOCALES_DIR).filter((f) => /^[a-z]{2}(-[A-Za-z]+)?\.ts$/.test(f));
      await Promise.all([
        file(WIDGET + 'classic.ts', 'bot-answer.iife.js', 'iife', { define: { __BOT_ANSWER_VERSION__: JSON.stringify(VERSION) } }),
        file(WIDGET + 'box/index.ts', STAGE_FILES.box, 'es'),
        file(WIDGET + 'chat/index.ts', STAGE_FILES.chat, 'es', { plugins: [dompurifyFromSource(), markedWithoutDefaultInstance()] }),
        ...locales.map((f) => file(LOCALES_DIR + f, `locales/${f.slice(0, -3)}.js`, 'iife', {}, false)),
      ]);
      const size = (name: string) => gzipSync(readFileSync(join(outDir, name)), { level: 9 }).length;
      const [classic, module, box, chat] = ['bot-answer.iife.js', 'bot-answer.js', STAGE_FILES.box, STAGE_FILES.chat].map(size) as number[] as [number, number, number, number];
      const loader = Math.max(classic, module);
      const kib = (n: number) => `${(n / KiB).toFixed(2)} KiB (${n} B)`;
      console.log(
        `\ngzip sizes: loader ${kib(classic)} (dist/bot-answer.iife.js), ${kib(module)} (dist/bot-answer.js); box ${kib(box)}; chat ${kib(chat)}` +
          `\nbefore intent: floating ${kib(loader)} (budget 3 KiB), inline ${kib(loader + box)} (budget 4 KiB); once open: ${kib(loader + box + chat)} (budget 42 KiB)`,
      );
    },
  };
}

/** What every file of the element shares: how TypeScript compiles, the target and the minifier. */
const shared = {
  // TypeScript's `useDefineForClassFields: false` (tsconfig.json; tsc and esbuild honour it): a field's
  // initializer assigns through the class's accessors (the element's reactive properties) rather than
  // defining an own property over them.
  oxc: { assumptions: { setPublicClassFields: true }, typescript: { removeClassFieldsWithoutInitializer: true } },
  build: {
    // ES2022 (Chrome 94, Safari 15.4, Firefox 93) keeps class fields and optional chaining native: smaller output.
    target: 'es2022',
    // Terser's extra passes save a few hundred bytes over the default minifier; the loader's budget is tight.
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
      // The element's private members (`_turns`, `_answer`, ...) get short names. Every other property name in a
      // file is left alone, and terser never picks a name used as a property anywhere in it; marked's own
      // `_backpedal` rule is kept by name. Each file is minified on its own, so the loader and the chat stage
      // meet through public names only (src/widget/stage.ts).
      mangle: { properties: { regex: /^_[a-z]/, reserved: ['_backpedal'] } },
    },
  },
} satisfies UserConfig;

/**
 * The loaders' minifier also takes reads of properties to have no side effects (the loaders' code has no getter
 * that changes anything): about 10 B gzip off each, where the budget is tight. The box and the chat, which
 * bundle libraries, keep terser's default.
 */
const loaderTerser = { ...shared.build.terserOptions, compress: { ...shared.build.terserOptions.compress, pure_getters: true } };

export default defineConfig({
  ...shared,
  build: {
    ...shared.build,
    terserOptions: loaderTerser,
    sourcemap: true,
    emptyOutDir: true,
    lib: { entry: WIDGET + 'index.ts', formats: ['es'], fileName: () => 'bot-answer.js' },
  },
  plugins: [stagesBeside(), otherFiles()],
});
