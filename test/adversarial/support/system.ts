import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { ProxyConfig } from '../../../src/proxy/config.js';
import { createProxyHandler, type ProxyHandler } from '../../../src/proxy/handler.js';

/** The real proxy, in-process on a loopback port, with its log lines captured. */
export interface RunningProxy {
  url: string;
  handler: ProxyHandler;
  server: Server;
  logs: string[];
  close(): Promise<void>;
}

export async function startProxy(config: ProxyConfig): Promise<RunningProxy> {
  const logs: string[] = [];
  const handler = createProxyHandler({ ...config, log: (line) => logs.push(line) });
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const url = `http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`;
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(url, { method: req.method, headers: req.headers as Record<string, string>, body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined, signal: controller.signal, duplex: 'half' } as RequestInit);
    const response = await handler(request, { clientAddress: req.socket.remoteAddress });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.flushHeaders();
    if (!response.body) return void res.end();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (!res.write(chunk)) await new Promise((r) => res.once('drain', r).once('close', r));
      }
      res.end();
    } catch {
      res.destroy();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    handler,
    server,
    logs,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
