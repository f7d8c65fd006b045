import { writeSync } from 'node:fs';
import { logLine } from './access-log.js';
import type { ProxyConfig } from './config.js';
import { createProxyHandler, type ProxyHandler, type WebHandler } from './handler.js';
import { undiciUpstream } from './node-upstream.js';
import { exitOnSignals, serveNode, type NodeServer, type ServeNodeOptions } from './node-server.js';
import { describeInsightsDb, openInsightsAtStart, openInsightsStore } from '../insights/sql/open.js';
import { openStores, type SharedStateOptions } from './stores/redis.js';
import type { AnswerApiOptions } from 'bot-answer-engine';
import { importPeer } from './optional-peer.js';

/** Options of {@link startProxy}: the handler's options (key and base URL optional) plus the server's. */
export interface StartProxyOptions extends Omit<ProxyConfig, 'apiKey' | 'baseUrl'>, Omit<ServeNodeOptions, 'log' | 'onShutdown'>, SharedStateOptions {
  /** Upstream API key. Unset or empty: demo mode (the local Answer API runs in-process). */
  apiKey?: string;
  /** Upstream base URL; required with `apiKey`. */
  baseUrl?: string;
  /**
   * Builds the served handler around the proxy, e.g. to add static routes:
   * `(proxy) => (req, ctx) => isStatic(req) ? serveFile(req) : proxy(req, ctx)`. Default: the proxy alone.
   */
  compose?: (proxy: ProxyHandler) => WebHandler;
  /** In demo mode, what the embedded local Answer API serves (`kb`, `kbBaseUrl`, ...). Default: its sample knowledge base. */
  localAnswerApi?: Partial<AnswerApiOptions>;
  /**
   * Where insights are recorded: a SQLite file path, or a `postgres://` URL shared by every
   * instance (`INSIGHTS_DB`). Opened (schema created or migrated) at start; rows past retention
   * are deleted at start and hourly. Ignored when `insightsStore` is given.
   */
  insightsDb?: string;
}

/** The local Answer API engine (`bot-answer-engine`, an optional peer dependency), loaded for demo mode only. */
export function loadAnswerEngine(): Promise<typeof import('bot-answer-engine')> {
  return importPeer('bot-answer-engine', 'Demo mode (ANSWER_API_KEY unset) runs the local Answer API, which', () => import('bot-answer-engine'));
}

/** A running proxy server. */
export interface RunningProxy extends NodeServer {
  handler: ProxyHandler;
  /** True when the embedded local Answer API serves the answers. */
  demo: boolean;
}

/**
 * Starts the proxy on Node with a pooled keep-alive upstream client (undici). Without an API key it
 * starts the local Answer API in-process (demo mode), forwards to it with its generated key,
 * and says so in the log (never printing the key).
 */
export async function startProxy(options: StartProxyOptions = {}): Promise<RunningProxy> {
  const stdoutLog = options.log === undefined ? batchedStdout() : undefined;
  const log = options.log === false ? () => {} : (options.log ?? stdoutLog!.write);
  let apiKey = options.apiKey;
  let baseUrl = options.baseUrl;
  let closeUpstream: (() => Promise<void>) | undefined;
  const demo = !apiKey;
  if (demo) {
    const { startAnswerApi } = await loadAnswerEngine();
    const upstream = await startAnswerApi({ ...options.localAnswerApi, port: 0, host: '127.0.0.1' });
    apiKey = upstream.keys[0]!;
    baseUrl = upstream.url;
    closeUpstream = () => upstream.close();
    const kb = options.localAnswerApi?.kb ? `the documents in ${options.localAnswerApi.kb}` : 'its sample knowledge base';
    const how = upstream.answers.mode === 'written' ? `, written by ${upstream.answers.model}` : '';
    const msg = `demo mode: ANSWER_API_KEY is not set, so the embedded local Answer API runs in-process at ${upstream.url} and answers from ${kb}${how}`;
    log(logLine('warn', msg, { ignored_base_url: options.baseUrl ? true : undefined }));
  } else if (!baseUrl) {
    throw new TypeError('bot-answer proxy: ANSWER_BASE_URL is required when ANSWER_API_KEY is set');
  }
  const pooled = options.upstreamClient || options.fetch ? undefined : undiciUpstream();
  const stores = await openStores(options, log);
  // The embedded local Answer API takes the conversation; other upstreams get what the setting says.
  const upstreamHistory = options.upstreamHistory ?? (demo ? 'send' : undefined);
  let insightsStore = options.insightsStore;
  let handler: ProxyHandler;
  try {
    if (!insightsStore && options.insightsDb) insightsStore = openInsightsStore(options.insightsDb);
    handler = createProxyHandler({ ...options, ...stores.config, insightsStore, apiKey: apiKey!, baseUrl: baseUrl!, upstreamClient: options.upstreamClient ?? pooled, log, upstreamHistory });
    if (handler.insights) await openInsightsAtStart(handler.insights, options.insightsStore ? undefined : options.insightsDb, log);
  } catch (error) {
    if (!options.insightsStore) await insightsStore?.close();
    await stores.close();
    await pooled?.close();
    await closeUpstream?.();
    throw error;
  }
  // Retention also runs when nothing is asked: hourly, without keeping the process alive.
  const retention = handler.insights ? setInterval(() => void handler.insights!.retain().catch(() => {}), 3_600_000).unref() : undefined;
  const served = options.compose ? options.compose(handler) : handler;
  const server = await serveNode(served, {
    ...options,
    handleSignals: false,
    overrideGlobalObjects: options.overrideGlobalObjects ?? true,
    log,
    onShutdown: (deadlineMs) => handler.shutdown(deadlineMs),
  });
  log(logLine('info', `bot-answer proxy listening on ${server.url}`, { url: server.url, demo }));
  if (options.insightsDb && !options.insightsStore) {
    const path = handler.insights && options.insightsToken ? `${server.url}${options.insightsPath ?? '/insights'}` : undefined;
    log(logLine('info', `insights: recording questions in the ${describeInsightsDb(options.insightsDb)}${path ? `; the page is at ${path}` : '; set INSIGHTS_TOKEN to open the page'}`, { page: path }));
  }
  const closeServer = server.close;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      await closeServer();
      clearInterval(retention);
      await handler.insights?.flush();
      if (!options.insightsStore) await insightsStore?.close();
      await pooled?.close();
      await closeUpstream?.();
      await stores.close();
      stdoutLog?.flush();
    })());
  if (options.handleSignals) exitOnSignals(close, log, () => ({ open_streams: handler.activeStreams }));
  return { ...server, close, handler, demo };
}

/**
 * Log lines to stdout, gathered per event-loop turn: one write for all the requests that
 * finished together instead of a system call per line. Flushed synchronously at exit.
 */
function batchedStdout(): { write: (line: string) => void; flush: () => void } {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    process.stdout.write(text);
  };
  process.once('exit', () => {
    if (pending !== '') writeSync(1, pending);
    pending = '';
  });
  return {
    write(line: string) {
      pending += `${line}\n`;
      if (pending.length > 64 * 1024) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
