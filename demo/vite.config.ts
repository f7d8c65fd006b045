/**
 * `npm run dev`: the demo page on Vite's dev server, the element loaded from its TypeScript
 * sources (reloaded on change), and the answer endpoint served by the real proxy running
 * in-process behind Vite's proxy. Configured from the environment like `npm start`.
 * The library build stays in the root vite.config.ts.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { optionsFrom } from '../packages/bot-answer-proxy/src/proxy/cli-options.js';
import { startDemoServer, type RunningDemo } from './server.js';

const DEMO_DIR = fileURLToPath(new URL('.', import.meta.url));
const WIDGET_ENTRY = fileURLToPath(new URL('../packages/bot-answer/src/widget/index.ts', import.meta.url));
const WIDGET_BOX = fileURLToPath(new URL('../packages/bot-answer/src/widget/box/index.ts', import.meta.url));

/** Starts the proxy (with the demo's info route) on a free port and sends the page's API calls to it. */
function demoBackend(): Plugin {
  let backend: RunningDemo | undefined;
  return {
    name: 'bot-answer:demo-backend',
    apply: 'serve',
    enforce: 'pre',
    async config() {
      const options = await optionsFrom([], process.env);
      if (options === 'help') throw new Error('unexpected --help');
      backend = await startDemoServer({ ...options, port: 0, host: '127.0.0.1', handleSignals: false });
      const target = backend.url;
      console.log(`bot-answer dev: proxy at ${target} (${backend.demo ? 'demo mode: local Answer API' : 'ANSWER_BASE_URL'})`);
      return { server: { proxy: { '/api/': { target }, '/healthz': { target }, '/demo-info.json': { target } } } };
    },
    configureServer(server) {
      server.httpServer?.once('close', () => void backend?.close());
    },
    // The page loads the element as a site owner does, from /bot-answer.js (and preloads its box): here they
    // come from the sources.
    resolveId(id) {
      if (id === '/bot-answer-box.js') return WIDGET_BOX;
      return id === '/bot-answer.js' || id === '/bot-answer.iife.js' ? WIDGET_ENTRY : undefined;
    },
  };
}

export default defineConfig({
  root: DEMO_DIR,
  publicDir: false,
  server: { host: '127.0.0.1', port: 5173 },
  plugins: [demoBackend()],
});
