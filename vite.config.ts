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
    target: 'es2021',
    sourcemap: true,
    minify: true,
    emptyOutDir: true,
    // Vite leaves whitespace in library-mode ES output; the ES bundle is served to browsers as is, so minify it fully too.
    rolldownOptions: { output: { minify: true } },
    lib: {
      entry: 'src/widget/index.ts',
      name: 'BotAnswer',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'bot-answer.js' : `bot-answer.${format}.js`),
    },
  },
  plugins: [reportGzipSize()],
});
