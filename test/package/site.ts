/**
 * A site for the package and framework tests: the real proxy (demo mode: the local Answer API
 * in-process) on a free loopback port, with a folder of built files and server-rendered pages
 * in front of its answer endpoint, as a site owner would deploy it.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { startProxy, type RunningProxy } from '../../packages/bot-answer-proxy/src/proxy/node.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface SiteOptions {
  /** Folder served as static files (`/` is its `index.html`). */
  dir?: string;
  /** Pages made per request (server-side rendering), by URL path; they win over files. */
  pages?: Record<string, () => string | Promise<string>>;
}

/** Starts the site; `close()` stops the proxy and its local Answer API. */
export function startSite(options: SiteOptions): Promise<RunningProxy> {
  return startProxy({
    port: 0,
    host: '127.0.0.1',
    log: false,
    compose: (next) => async (request, context) => {
      const { pathname } = new URL(request.url);
      if (request.method !== 'GET') return next(request, context);
      const page = options.pages?.[pathname];
      if (page) return new Response(await page(), { headers: { 'content-type': TYPES['.html']! } });
      if (options.dir) {
        const path = normalize(join(options.dir, pathname === '/' ? 'index.html' : decodeURIComponent(pathname)));
        if (path.startsWith(options.dir)) {
          const body = await readFile(path).catch(() => undefined);
          if (body) return new Response(body, { headers: { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' } });
        }
      }
      return next(request, context);
    },
  });
}
