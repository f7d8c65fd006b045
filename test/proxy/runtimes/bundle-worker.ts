import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * A Worker's source as a site would bundle it (wrangler uses esbuild the same way): one ES
 * module, `bot-answer-proxy` resolved to this checkout's source.
 */
export async function bundleWorker(entry: string): Promise<string> {
  const bundle = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    alias: { 'bot-answer-proxy': fileURLToPath(new URL('../../../packages/bot-answer-proxy/src/proxy/index.ts', import.meta.url)) },
  });
  return bundle.outputFiles[0]!.text;
}
