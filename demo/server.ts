/**
 * The demo server: the real proxy with the demo page and the built bundles in front of it.
 * `npm start` runs it through `demo/start.ts`; the end-to-end tests and the screenshot script
 * start it in-process.
 */
import { startProxy, type RunningProxy, type StartProxyOptions } from '../packages/bot-answer-proxy/src/proxy/node.js';
import { startAnswerApi, type AnswerApiOptions, type RunningAnswerApi } from '../packages/bot-answer-engine/src/upstream/index.js';
import { createDemoRoutes } from './static-routes.js';

/** Options of {@link startDemoServer}: the proxy's, plus where the bundles are and how to run the local Answer API. */
export interface DemoServerOptions extends Omit<StartProxyOptions, 'compose'> {
  /** Folder holding the built bundles. Default: the element package's `dist/`. */
  distDir?: string;
  /**
   * In demo mode (no `apiKey`), start the local Answer API with these options instead of
   * the proxy's defaults, and expose it as `upstream` (tests use it to slow the pace and
   * watch what the upstream sees). Ignored when `apiKey` is set.
   */
  upstream?: AnswerApiOptions;
}

/** A running demo server. */
export interface RunningDemo extends RunningProxy {
  /** The local Answer API, when started here through `options.upstream`. */
  upstream?: RunningAnswerApi;
}

/**
 * Starts the proxy serving the demo page at `/` and the bundles at `/bot-answer.js` and
 * `/bot-answer.iife.js`. Without an API key it runs in demo mode: the local Answer API
 * answers from its sample knowledge base, in-process.
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<RunningDemo> {
  const { distDir, upstream: upstreamOptions, ...proxyOptions } = options;
  const mode = proxyOptions.apiKey ? 'upstream' : 'demo';
  let upstream: RunningAnswerApi | undefined;
  if (mode === 'demo' && upstreamOptions) {
    upstream = await startAnswerApi({ port: 0, host: '127.0.0.1', ...upstreamOptions });
    proxyOptions.apiKey = upstream.keys[0];
    proxyOptions.baseUrl = upstream.url;
    // It is the local Answer API, which takes the conversation.
    proxyOptions.upstreamHistory ??= 'send';
  }
  // Which model writes the answers, if one does: the page says so.
  const answers = upstream?.answers;
  const writtenBy = mode !== 'demo' ? undefined : answers ? (answers.mode === 'written' ? answers.model : undefined) : proxyOptions.localAnswerApi?.llmModel;
  let proxy: RunningProxy;
  try {
    const insightsPath = proxyOptions.insightsToken ? (proxyOptions.insightsPath ?? '/insights') : undefined;
    proxy = await startProxy({ ...proxyOptions, compose: (handler) => createDemoRoutes({ mode, writtenBy, distDir, next: handler, insightsPath }) });
  } catch (error) {
    await upstream?.close();
    throw error;
  }
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      await proxy.close();
      await upstream?.close();
    })());
  return { ...proxy, upstream, close };
}
