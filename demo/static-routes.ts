/**
 * The demo's own routes, as a Web-standard handler in front of the proxy's: the demo page
 * and its assets, and the built bundles a site owner's page loads. Everything else (the
 * answer endpoint, health check, errors) goes to the proxy handler unchanged.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WebHandler } from '../packages/bot-answer-proxy/src/proxy/index.js';

export interface DemoRoutesOptions {
  /** Folder holding `bot-answer.js`, `bot-answer.iife.js` and their source maps. Default: the element package's `dist/`. */
  distDir?: string;
  /** Folder holding the demo page. Default: this folder. */
  demoDir?: string;
  /** `demo` when answers come from the embedded local Answer API, `upstream` when from a configured one. */
  mode: 'demo' | 'upstream';
  /** In demo mode, the model that writes the answers (`ANSWER_LLM_MODEL`); unset: they quote the docs. */
  writtenBy?: string;
  /** Gets every request the demo does not serve itself. */
  next: WebHandler;
  /** Where the insights page is, when it is on: the demo page links it. */
  insightsPath?: string;
}

/**
 * The page's policy: scripts only from this origin (no inline script, no eval), Trusted
 * Types required for every DOM sink, answers fetched only from this origin, images only from
 * it (the demo's box does not show answers' images, and the element never loads author photos).
 */
export const DEMO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types bot-answer lit-html',
].join('; ');

const HERE = fileURLToPath(new URL('.', import.meta.url));
const DEFAULT_DIST = join(HERE, '..', 'packages', 'bot-answer', 'dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Demo page files, by URL path. */
const PAGE_FILES: Record<string, string> = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/demo.js': 'demo.js',
  '/demo.css': 'demo.css',
  '/restyled.css': 'restyled.css',
};

/**
 * Whether `pathname` is a built file: the loaders (`/bot-answer.js`, `/bot-answer.iife.js`), the box and the
 * chat they fetch beside them (`/bot-answer-box.js`, `/bot-answer-chat.js`), their source maps, or a
 * translation script (`/locales/de.js`).
 */
const isBuilt = (pathname: string) => /^\/(bot-answer(-box|-chat)?\.js|bot-answer\.iife\.js)(\.map)?$|^\/locales\/[a-z]{2}\.js$/.test(pathname);

/** Returns a handler serving the demo page and the bundles, delegating everything else to `options.next`. */
export function createDemoRoutes(options: DemoRoutesOptions): WebHandler {
  const distDir = options.distDir ?? DEFAULT_DIST;
  const demoDir = options.demoDir ?? HERE;
  const info = JSON.stringify({
    mode: options.mode,
    answers: options.writtenBy ? 'written' : options.mode === 'demo' ? 'extractive' : undefined,
    model: options.writtenBy,
    ...(options.insightsPath ? { insights: options.insightsPath } : {}),
  });

  return async (request, context) => {
    const { pathname } = new URL(request.url);
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (!isRead || !(pathname in PAGE_FILES || isBuilt(pathname) || pathname === '/demo-info.json')) {
      return options.next(request, context);
    }
    if (pathname === '/demo-info.json') {
      return respond(request, info, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    }
    if (isBuilt(pathname)) {
      const body = await readOrUndefined(join(distDir, pathname.slice(1)));
      if (body === undefined) {
        return Response.json(
          { error: { code: 'not_found', message: `${pathname.slice(1)} is not built yet: run \`npm run build\`.` } },
          { status: 404 },
        );
      }
      return respond(request, body, {
        'content-type': typeFor(pathname),
        'cache-control': 'no-cache',
        // Other sites load the bundle as a module script, which browsers fetch in CORS mode. It is public and credential-free.
        'access-control-allow-origin': '*',
        'cross-origin-resource-policy': 'cross-origin',
      });
    }
    const file = PAGE_FILES[pathname]!;
    const body = await readFile(join(demoDir, file));
    const headers: Record<string, string> = { 'content-type': typeFor(file), 'cache-control': 'no-cache' };
    if (file.endsWith('.html')) {
      headers['content-security-policy'] = DEMO_CSP;
      headers['referrer-policy'] = 'no-referrer';
    }
    return respond(request, body, headers);
  };
}

function respond(request: Request, body: string | Uint8Array, headers: Record<string, string>): Response {
  return new Response(request.method === 'HEAD' ? null : body, {
    status: 200,
    headers: { ...headers, 'x-content-type-options': 'nosniff' },
  });
}

function typeFor(path: string): string {
  const dot = path.lastIndexOf('.');
  return TYPES[path.slice(dot)] ?? 'application/octet-stream';
}

async function readOrUndefined(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
