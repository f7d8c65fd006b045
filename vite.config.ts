import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

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
    terserOptions: {
      ecma: 2020,
      compress: { passes: 3 },
      format: { comments: false },
    },
    emptyOutDir: true,
    lib: {
      entry: 'src/widget/index.ts',
      name: 'BotAnswer',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'bot-answer.js' : `bot-answer.${format}.js`),
    },
  },
  plugins: [reportGzipSize()],
});
