/**
 * Shared set-up of the end-to-end tests: the widget built from the current sources, the demo
 * server in-process, headless Chromium through playwright-core, and a page wrapper that
 * records everything the page sends and receives (to look for the API key) and keeps every
 * request on loopback.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { build } from 'vite';
import { startDemoServer, type DemoServerOptions, type RunningDemo } from '../../demo/server.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ELEMENT = join(ROOT, 'packages', 'bot-answer');

/**
 * The widget bundles built from the current sources, in a temporary folder (dist/ is left alone):
 * the one `scripts/test-node.mjs` built for every file of its run (named by `BOT_ANSWER_E2E_BUNDLE`,
 * removed by that script), else one built here for this file.
 */
export async function buildWidget(): Promise<{ dir: string; remove(): Promise<void> }> {
  const shared = process.env.BOT_ANSWER_E2E_BUNDLE;
  if (shared) return { dir: shared, remove: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'bot-answer-e2e-'));
  // The library config prints the bundle's gzip size; that line is noise in a test run.
  const log = console.log;
  console.log = () => {};
  try {
    await build({ configFile: join(ELEMENT, 'vite.config.ts'), root: ELEMENT, logLevel: 'error', build: { outDir: dir, emptyOutDir: true } });
  } finally {
    console.log = log;
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The browser finder shared with the browser test runner: plain JavaScript, so typed here. */
interface FindChrome {
  requireChrome(): string;
  CHROME_ARGS: string[];
}

/** Launches the system Chromium headless (one clear line and exit when there is none). */
export async function launchChromium(): Promise<Browser> {
  const finder = '../../scripts/find-chrome.mjs';
  const { requireChrome, CHROME_ARGS } = (await import(finder)) as FindChrome;
  return chromium.launch({ executablePath: requireChrome(), args: CHROME_ARGS, headless: true });
}

let shared: Promise<Browser> | undefined;
let users = 0;

/**
 * Headless Chromium shared by the test files of this process: `scripts/test-node.mjs` runs a shard's files
 * in one process, where every file's `before` hooks run first and every `after` hook last, so each file
 * launching its own meant several at once, and a launch costs about 1 core-s. Each file still opens its
 * own contexts. Pair with `closeChromium()` once the file is done.
 */
export function useChromium(): Promise<Browser> {
  users++;
  return (shared ??= launchChromium());
}

/** Ends one file's use of the shared Chromium; the last one closes it. */
export async function closeChromium(): Promise<void> {
  if (users === 0 || --users > 0 || !shared) return;
  const browser = shared;
  shared = undefined;
  await browser.then((b) => b.close(), () => {});
}

/** Starts the demo server on a free loopback port, quiet, serving the bundles from `distDir`. */
export function startDemo(distDir: string, options: DemoServerOptions = {}): Promise<RunningDemo> {
  return startDemoServer({ port: 0, host: '127.0.0.1', log: false, distDir, ...options });
}

/** A page on the demo, with what it sent and received. */
export interface DemoPage {
  context: BrowserContext;
  page: Page;
  /** Requests to anything but the demo server, answered locally by a stub (never sent to the network). */
  external: string[];
  /** Console errors and uncaught page errors. */
  errors: string[];
  /** Every request URL, header and body and every response header and body seen, as text (bodies once complete). */
  traffic(): Promise<string[]>;
  /** The page's whole DOM as HTML, shadow roots included, plus the widget's persisted state. */
  snapshot(): Promise<string>;
  /** The widget with this id on the page. */
  widget(id: string): Widget;
  close(): Promise<void>;
}

/** Locators into one `<bot-answer>` (Playwright's CSS locators pierce open shadow roots). */
export interface Widget {
  root: Locator;
  input: Locator;
  send: Locator;
  stop: Locator;
  status: Locator;
  /** The last turn (`article.turn`, whose class names its state). */
  lastTurn: Locator;
  /** The last turn's answer container. */
  lastAnswer: Locator;
}

/**
 * Runs in the page (as a string: this Node-typed file has no DOM types): the whole DOM as HTML with
 * every open shadow root's, plus session and local storage and cookies.
 */
const SNAPSHOT = `(() => {
  const html = (root) => [...root.querySelectorAll('*')].reduce(
    (all, el) => (el.shadowRoot ? all + html(el.shadowRoot) : all),
    root === document ? document.documentElement.outerHTML : root.innerHTML,
  );
  return html(document) + JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) + document.cookie;
})()`;

// A 1x1 transparent PNG, for author photos.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** Opens the demo page in a fresh browser context. */
export async function openDemo(browser: Browser, server: { url: string }): Promise<DemoPage> {
  const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC', reducedMotion: 'reduce' });
  const external: string[] = [];
  const errors: string[] = [];
  const captured: Array<Promise<string>> = [];

  // Sources and author photos point at made-up hosts: answer them here, so nothing leaves loopback.
  await context.route(
    (url) => url.protocol !== 'data:' && url.hostname !== '127.0.0.1' && url.hostname !== 'localhost',
    (route) => {
      const request = route.request();
      external.push(request.url());
      if (request.resourceType() === 'image') return route.fulfill({ status: 200, contentType: 'image/png', body: PNG });
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Source</title><p>A source page.</p>' });
    },
  );
  context.on('request', (request) => {
    captured.push(
      (async () => {
        const headers = await request.allHeaders().catch(() => ({}));
        return [request.url(), JSON.stringify(headers), request.postData() ?? ''].join('\n');
      })(),
    );
  });
  context.on('response', (response) => {
    captured.push(
      (async () => {
        const headers = await response.allHeaders().catch(() => ({}));
        // A stream that was stopped has no complete body; what the page received was shown, and the snapshot covers it.
        const body = await response.text().catch(() => '');
        return [response.url(), JSON.stringify(headers), body].join('\n');
      })(),
    );
  });

  // Well under the test runner's patience, so a missing state fails with a clear message.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}/`);
  await page.locator('#inline-widget [part="input"]').waitFor();

  return {
    context,
    page,
    external,
    errors,
    traffic: async () => Promise.all(captured),
    snapshot: () => page.evaluate<string>(SNAPSHOT),
    widget: (id) => {
      const root = page.locator(`#${id}`);
      return {
        root,
        input: root.locator('[part="input"]'),
        send: root.locator('[part="send"]'),
        stop: root.locator('[part="stop"]'),
        status: root.locator('[part="status"]'),
        lastTurn: root.locator('article.turn').last(),
        lastAnswer: root.locator('article.turn [part="answer"]').last(),
      };
    },
    close: () => context.close(),
  };
}

/** Resolves with `promise`, or rejects after `ms` with `what` (so a missing event fails the test instead of hanging it). */
export function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Asks the local Answer API directly (as a spec client would) for the reference answer to `message`. */
export async function referenceAnswer(upstream: { url: string; keys: string[] }, message: string): Promise<{ answer: string; answer_found: boolean; sources: Array<{ url?: string; title?: string }> }> {
  const response = await fetch(`${upstream.url}/v1/answer`, {
    method: 'POST',
    headers: { authorization: `Bearer ${upstream.keys[0]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message, bot_id: 'demo', inline_sources: true, stream: false }),
  });
  if (!response.ok) throw new Error(`reference answer: HTTP ${response.status}`);
  return response.json() as Promise<{ answer: string; answer_found: boolean; sources: Array<{ url?: string; title?: string }> }>;
}
