import type { ProxyHandler, WebHandler } from '../../../packages/bot-answer-proxy/src/proxy/handler.js';
import { startProxy as startRealProxy, type StartProxyOptions } from '../../../packages/bot-answer-proxy/src/proxy/server.js';

/** The real proxy (handler, pooled upstream client and node:http adapter) on a loopback port, its log lines captured. */
export interface RunningProxy {
  url: string;
  handler: ProxyHandler;
  logs: string[];
  close(): Promise<void>;
}

export type ProxyOptions = StartProxyOptions & { apiKey: string; baseUrl: string; compose?: (proxy: ProxyHandler) => WebHandler };

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const logs: string[] = [];
  const running = await startRealProxy({ port: 0, host: '127.0.0.1', shutdownTimeoutMs: 2000, ...options, log: (line) => logs.push(line) });
  return { url: running.url, handler: running.handler, logs, close: () => running.close() };
}
