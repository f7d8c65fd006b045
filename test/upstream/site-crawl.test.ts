import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { execFile, type ChildProcess } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { loadBots } from '../../packages/bot-answer-engine/src/upstream/bots.js';
import { crawlSite, type CrawlOptions } from '../../packages/bot-answer-engine/src/upstream/site/crawl-site.js';
import { SiteMirror } from '../../packages/bot-answer-engine/src/upstream/site/site-mirror.js';

type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on loopback whose routes each test sets, recording every request. */
class TestSite {
  server!: Server;
  origin = '';
  routes = new Map<string, Route>();
  requests: IncomingMessage[] = [];
  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.requests.push(req);
      const route = this.routes.get(req.url ?? '');
      if (route) route(req, res);
      else res.writeHead(404).end('not found');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  html(path: string, body: string, headers: Record<string, string> = {}): void {
    this.routes.set(path, (req, res) => {
      if (headers.etag && req.headers['if-none-match'] === headers.etag) return void res.writeHead(304).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
    });
  }
  text(path: string, type: string, body: string): void {
    this.routes.set(path, (_req, res) => res.writeHead(200, { 'content-type': type }).end(body));
  }
  paths(): string[] {
    return this.requests.map((r) => r.url!);
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const doc = (title: string, text: string): string =>
  `<html><head><title>${title} | Site</title></head><body><nav><a href="/docs/">Home</a></nav><main><h1>${title}</h1><p>${text}</p></main></body></html>`;

describe('crawling a live site', () => {
  const site = new TestSite();
  const other = new TestSite();
  let dir: string;
  let logs: string[];
  const crawl = async (options: Partial<CrawlOptions> = {}) => crawlSite({ start: `${site.origin}/docs/`, mirror: await SiteMirror.open(join(dir, 'mirror')), log: (l) => logs.push(l), ...options });

  before(async () => {
    await site.start();
    await other.start();
  });
  after(async () => {
    await site.close();
    await other.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-crawl-'));
    logs = [];
    site.routes.clear();
    site.requests = [];
    other.requests = [];
  });

  it('reads robots.txt and a sitemap index, fetching only allowed pages of its origin and path, as bot-answer', async () => {
    site.text('/robots.txt', 'text/plain', `User-agent: *\nDisallow: /docs/private/\n\nUser-agent: bot-answer\nDisallow: /docs/secret\n\nSitemap: ${site.origin}/sitemap-index.xml\nSitemap: ${other.origin}/sitemap.xml`);
    site.text('/sitemap-index.xml', 'application/xml', `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.origin}/pages.xml</loc></sitemap></sitemapindex>`);
    site.text(
      '/pages.xml',
      'application/xml',
      `<urlset>${[`${site.origin}/docs/a`, `${site.origin}/docs/b.html`, `${site.origin}/docs/private/x`, `${site.origin}/docs/secret`, `${site.origin}/blog/post`, `${other.origin}/docs/evil`]
        .map((u) => `<url><loc>${u}</loc></url>`)
        .join('')}</urlset>`,
    );
    site.html('/docs/a', doc('Page A', 'About alpha.'));
    site.html('/docs/b.html', doc('Page B', 'About beta.'));
    const outcome = await crawl();
    assert.deepEqual([outcome.saved, outcome.failed], [2, 2]);
    assert.deepEqual(site.paths().filter((p) => p.startsWith('/docs/')).sort(), ['/docs/a', '/docs/b.html', '/docs/sitemap.xml']);
    assert.equal(other.requests.length, 0);
    assert.ok(site.requests.every((r) => /bot-answer/.test(r.headers['user-agent'] ?? '')));
    assert.ok(logs.some((l) => /docs\/secret skipped: robots\.txt disallows it/.test(l)));
    const saved = await readFile(join(dir, 'mirror', 'a', 'index.html'), 'utf8');
    assert.match(saved, new RegExp(`^<link rel="canonical" href="${site.origin}/docs/a">`));
  });

  it('follows links under the start path when there is no sitemap, up to the page limit', async () => {
    site.html('/docs/', doc('Home', '<a href="one">One</a> <a href="/docs/two">Two</a> <a href="/other/">Out</a> <a href="three?x=1">Q</a> <a href="four">Four</a>'));
    site.html('/docs/one', doc('One', '<a href="/docs/two#part">Two again</a>'));
    site.html('/docs/two', doc('Two', 'Text.'));
    site.html('/docs/four', doc('Four', 'Text.'));
    const outcome = await crawl({ maxPages: 3 });
    assert.equal(outcome.saved, 3);
    assert.deepEqual(site.paths().filter((p) => !/robots|sitemap/.test(p)), ['/docs/', '/docs/one', '/docs/two']);
  });

  it('asks again with ETag and Last-Modified, and keeps what did not change; a page gone is removed', async () => {
    site.html('/docs/', doc('Home', '<a href="a">A</a> <a href="b">B</a>'), { etag: '"v1"' });
    site.html('/docs/a', doc('A', 'Text.'), { etag: '"a1"' });
    site.routes.set('/docs/b', (req, res) => {
      if (req.headers['if-modified-since'] === 'Wed, 01 Jan 2025 00:00:00 GMT') return void res.writeHead(304).end();
      res.writeHead(200, { 'content-type': 'text/html', 'last-modified': 'Wed, 01 Jan 2025 00:00:00 GMT' }).end(doc('B', 'Text.'));
    });
    assert.equal((await crawl()).saved, 3);
    site.requests = [];
    const again = await crawl();
    assert.deepEqual([again.saved, again.unchanged], [0, 3]);
    const pages = site.requests.filter((r) => r.url!.startsWith('/docs/') && !r.url!.endsWith('.xml'));
    assert.ok(pages.every((r) => r.headers['if-none-match'] || r.headers['if-modified-since']));
    site.routes.delete('/docs/b');
    site.html('/docs/', doc('Home', '<a href="a">A</a>'), { etag: '"v2"' });
    const third = await crawl();
    assert.equal(third.removed, 1);
    await assert.rejects(readFile(join(dir, 'mirror', 'b', 'index.html')));
  });

  it('refuses redirects that leave the origin or path, and redirect loops, with one log line each', async () => {
    site.html('/docs/', doc('Home', '<a href="away">Away</a> <a href="loop">Loop</a> <a href="up">Up</a> <a href="moved">Moved</a>'));
    site.routes.set('/docs/away', (_req, res) => res.writeHead(302, { location: `${other.origin}/docs/x` }).end());
    site.routes.set('/docs/loop', (_req, res) => res.writeHead(301, { location: '/docs/loop2' }).end());
    site.routes.set('/docs/loop2', (_req, res) => res.writeHead(301, { location: '/docs/loop' }).end());
    site.routes.set('/docs/up', (_req, res) => res.writeHead(302, { location: '/admin' }).end());
    site.routes.set('/docs/moved', (_req, res) => res.writeHead(301, { location: '/docs/new' }).end());
    site.html('/docs/new', doc('New', 'Text.'));
    const outcome = await crawl();
    assert.equal(outcome.saved, 2);
    assert.equal(other.requests.length, 0);
    assert.ok(!site.paths().includes('/admin'));
    assert.ok(logs.some((l) => /docs\/away skipped: a redirect to http:\/\/127\.0\.0\.1:\d+\/docs\/x, outside/.test(l)));
    assert.ok(logs.some((l) => /docs\/loop skipped: a redirect loop/.test(l)));
  });

  it('refuses to connect to a private address unless the start URL is on one (a name that rebinds to loopback)', async () => {
    let calls = 0;
    const port = new URL(site.origin).port;
    const outcome = await crawl({
      start: `http://docs.test:${port}/docs/`,
      // The start is checked on a public address; every connection then finds loopback.
      resolve: async () => (calls++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]),
    });
    assert.equal(outcome.saved, 0);
    assert.equal(site.requests.length, 0);
    assert.ok(logs.some((l) => /refused: docs\.test resolves to 127\.0\.0\.1, a private or loopback address/.test(l)));
  });

  it('skips failing, slow, large and non-HTML pages with one line each, keeping what it had', async () => {
    site.html('/docs/', doc('Home', '<a href="ok">OK</a> <a href="error">E</a> <a href="slow">S</a> <a href="big">B</a> <a href="pdf">P</a>'));
    site.html('/docs/ok', doc('OK', 'Text.'));
    site.html('/docs/error', doc('Error', 'Was fine once.'));
    assert.equal((await crawl()).saved, 3);
    logs = [];
    site.routes.set('/docs/error', (_req, res) => res.writeHead(500).end());
    site.routes.set('/docs/slow', () => {});
    site.routes.set('/docs/big', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<p>' + 'x'.repeat(64 * 1024));
      res.end('x'.repeat(64 * 1024));
    });
    site.text('/docs/pdf', 'application/pdf', '%PDF');
    const long = 'n'.repeat(300);
    site.html('/docs/', doc('Home', `<a href="ok">OK</a> <a href="error">E</a> <a href="slow">S</a> <a href="big">B</a> <a href="pdf">P</a> <a href="${long}">L</a>`));
    site.html(`/docs/${long}`, doc('Long', 'A name no disk keeps.'));
    const outcome = await crawl({ pageTimeoutMs: 300, maxPageBytes: 100_000 });
    assert.equal(outcome.failed, 5);
    assert.equal(outcome.complete, true);
    for (const [page, why] of [
      ['error', 'status 500'],
      ['slow', 'no answer within 300 ms'],
      ['big', 'too large'],
      ['pdf', 'not HTML \\(application/pdf\\)'],
      [long, 'cannot be kept \\(ENAMETOOLONG\\)'],
    ]) {
      assert.equal(logs.filter((l) => new RegExp(`docs/${page} skipped: ${why}`).test(l)).length, 1, page);
    }
    assert.match(await readFile(join(dir, 'mirror', 'error', 'index.html'), 'utf8'), /Was fine once/);
  });

  it('takes no more than the page limit from a sitemap of 100,000 URLs', async () => {
    site.text('/docs/sitemap.xml', 'application/xml', `<urlset>${Array.from({ length: 100_000 }, (_, i) => `<url><loc>${site.origin}/docs/p${i}</loc></url>`).join('')}</urlset>`);
    for (let i = 0; i < 5; i++) site.html(`/docs/p${i}`, doc(`P${i}`, 'Text.'));
    const outcome = await crawl({ maxPages: 5, maxPageBytes: 10 * 1024 * 1024 });
    assert.equal(outcome.saved, 5, logs.join('\n'));
    assert.ok(logs.some((l) => /the sitemaps list 100000 pages; 5 taken/.test(l)));
  });

  it('keeps every page as UTF-8 text without NUL: a UTF-8 page as it came, one in another charset or with bad bytes re-encoded', async () => {
    const sitemap = (paths: string[]): string => `<urlset>${paths.map((p) => `<url><loc>${site.origin}/docs/${p}</loc></url>`).join('')}</urlset>`;
    site.text('/docs/sitemap.xml', 'application/xml', sitemap(['utf8', 'latin1', 'broken', 'nul']));
    const raw = (path: string, type: string, body: Buffer): void => void site.routes.set(`/docs/${path}`, (_req, res) => res.writeHead(200, { 'content-type': type }).end(body));
    const utf8 = doc('Café', 'Ünïcode ✓, 日本語.');
    raw('utf8', 'text/html; charset=utf-8', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(utf8)]));
    raw('latin1', 'text/html; charset=iso-8859-1', Buffer.from(doc('Latin', 'Entrée libre.'), 'latin1'));
    raw('broken', 'text/html', Buffer.concat([Buffer.from(doc('Broken', 'Before')), Buffer.from([0xff, 0xfe]), Buffer.from('after.')]));
    raw('nul', 'text/html', Buffer.from(doc('Nul', 'A\0B.')));
    assert.equal((await crawl()).saved, 4, logs.join('\n'));
    const kept = async (path: string): Promise<string> => {
      const bytes = await readFile(join(dir, 'mirror', path, 'index.html'));
      // What the folder reader takes: strict UTF-8, no NUL.
      assert.ok(!bytes.includes(0), path);
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^<link rel="canonical" href="[^"]+">\n/, '');
    };
    assert.equal(await kept('utf8'), utf8);
    assert.equal(await kept('latin1'), doc('Latin', 'Entrée libre.'));
    assert.match(await kept('broken'), /<\/html>\uFFFD\uFFFDafter\.$/);
    assert.match(await kept('nul'), /AB\./);
  });

  it('takes a canonical link from the head only, however long the head; one in the body is not the page\'s address', async () => {
    site.text('/docs/sitemap.xml', 'application/xml', `<urlset><url><loc>${site.origin}/docs/long-head</loc></url><url><loc>${site.origin}/docs/in-body</loc></url></urlset>`);
    const style = `<style>${'.x{color:red}'.repeat(2000)}</style>`;
    site.html('/docs/long-head', `<html><head><title>L</title>${style}<link rel="canonical" href="/docs/named"></head><body><h1>Long head</h1><p>Text.</p></body></html>`);
    site.html('/docs/in-body', `<html><head><title>B</title></head><body><h1>In body</h1><link rel="canonical" href="/docs/elsewhere"><p>Text.</p></body></html>`);
    assert.equal((await crawl()).saved, 2, logs.join('\n'));
    const cited = async (path: string): Promise<string | undefined> => /^<link rel="canonical" href="([^"]+)">/.exec(await readFile(join(dir, 'mirror', path, 'index.html'), 'utf8'))?.[1];
    assert.equal(await cited('long-head'), `${site.origin}/docs/named`);
    assert.equal(await cited('in-body'), `${site.origin}/docs/in-body`);
  });

  it('lets each request\'s timer go when the request ends, not when its timeout would have run out', async () => {
    const timeoutMs = 43_210;
    const pending = new Set<number>();
    const hook = createHook({
      init(id, type, _trigger, resource) {
        if (type === 'Timeout' && (resource as { _idleTimeout?: number })._idleTimeout === timeoutMs) pending.add(id);
      },
      destroy(id) {
        pending.delete(id);
      },
    }).enable();
    try {
      site.text('/docs/sitemap.xml', 'application/xml', `<urlset>${[0, 1, 2].map((i) => `<url><loc>${site.origin}/docs/p${i}</loc></url>`).join('')}</urlset>`);
      for (const i of [0, 1, 2]) site.html(`/docs/p${i}`, doc(`P${i}`, 'Text.'));
      assert.equal((await crawl({ pageTimeoutMs: timeoutMs })).saved, 3);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(pending.size, 0);
    } finally {
      hook.disable();
    }
  });

  it('parses responses with no WebAssembly compiled in the crawling process', async () => {
    // undici's parser is WebAssembly, which V8 compiles again with its optimising tier once a
    // crawl makes it hot: megabytes of compiler memory the serving process keeps. A fresh
    // process, as this one may have loaded undici for other tests.
    site.text('/docs/sitemap.xml', 'application/xml', `<urlset>${[0, 1, 2].map((i) => `<url><loc>${site.origin}/docs/p${i}</loc></url>`).join('')}</urlset>`);
    for (const i of [0, 1, 2]) site.html(`/docs/p${i}`, doc(`P${i}`, 'Text.'));
    const script = `
      let compiled = 0;
      for (const name of ['Module', 'Instance']) WebAssembly[name] = new Proxy(WebAssembly[name], { construct: (target, args) => (compiled++, Reflect.construct(target, args)) });
      for (const name of ['compile', 'instantiate']) WebAssembly[name] = new Proxy(WebAssembly[name], { apply: (target, self, args) => (compiled++, Reflect.apply(target, self, args)) });
      const { crawlSite } = await import(process.argv[1]);
      const { SiteMirror } = await import(process.argv[2]);
      const outcome = await crawlSite({ start: process.argv[3], mirror: await SiteMirror.open(process.argv[4]) });
      process.stdout.write(JSON.stringify({ saved: outcome.saved, compiled }));`;
    const module = (path: string): string => new URL(`../../packages/bot-answer-engine/src/upstream/site/${path}`, import.meta.url).href;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script, module('crawl-site.ts'), module('site-mirror.ts'), `${site.origin}/docs/`, join(dir, 'mirror')]);
    assert.deepEqual(JSON.parse(stdout), { saved: 3, compiled: 0 });
  });
});

describe('a bot answering from a live site', () => {
  const site = new TestSite();
  let dir: string;
  before(async () => {
    await site.start();
    dir = await mkdtemp(join(tmpdir(), 'site-bot-'));
    site.html('/docs/', doc('Home', '<a href="rotate">Rotation</a>'), { etag: '"h"' });
    site.html(
      '/docs/rotate',
      `<html><head><link rel="canonical" href="${'https://evil.example.com/'}"></head><body><div class="cookie-banner">COOKIE-BANNER</div><main><h1>Rotation</h1><h2 id="daily">Daily rotation</h2><p>To rotate log files every day, set the interval of the rotating transport to one day.</p></main></body></html>`,
      { etag: '"r"' },
    );
  });
  after(async () => {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('crawls in the background, answers with the pages\' own URLs, and serves them at once after a restart', async () => {
    const logs: string[] = [];
    const options = { site: { url: `${site.origin}/docs/`, refreshMs: 0 }, indexFolder: dir, watch: false, log: (l: string) => logs.push(l) };
    let bots = await loadBots(undefined, undefined, options);
    const question = 'How do I rotate log files every day?';
    // Started before the crawl ends: answers come once the pages are indexed.
    while (!logs.some((l) => /crawled in/.test(l))) await new Promise((r) => setTimeout(r, 20));
    let answer = bots.get('demo')!.answer(question, false);
    assert.equal(answer.answer_found, true);
    assert.equal(answer.sources[0]!.url, `${site.origin}/docs/rotate#daily`);
    assert.doesNotMatch(answer.answer, /COOKIE-BANNER/);
    for (const bot of bots.values()) bot.close();

    site.requests = [];
    logs.length = 0;
    bots = await loadBots(undefined, undefined, options);
    try {
      answer = bots.get('demo')!.answer(question, false);
      assert.equal(answer.answer_found, true, 'served from the index before any request');
      while (!logs.some((l) => /crawled in/.test(l))) await new Promise((r) => setTimeout(r, 20));
      const pages = site.requests.filter((r) => r.url!.startsWith('/docs/') && !r.url!.endsWith('.xml'));
      assert.equal(pages.length, 2);
      assert.ok(pages.every((r) => r.headers['if-none-match']));
    } finally {
      for (const bot of bots.values()) bot.close();
    }
  });

  it('serves several bots, one from a folder and one from a site (ANSWER_BOTS "site")', async () => {
    const bots = join(dir, 'bots.json');
    await writeFile(bots, JSON.stringify({ bots: [{ id: 'live', site: `${site.origin}/docs/`, max_pages: 10, refresh: 'off' }] }));
    const logs: string[] = [];
    const loaded = await loadBots(undefined, bots, { indexFolder: join(dir, 'several'), watch: false, log: (l) => logs.push(l) });
    try {
      while (!logs.some((l) => /bot "live": site .* crawled in/.test(l))) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual([...loaded.keys()], ['demo', 'live']);
      assert.equal(loaded.get('live')!.answer('How do I rotate log files every day?', false).sources[0]!.url, `${site.origin}/docs/rotate#daily`);
      assert.ok(loaded.get('demo')!.documents > 0);
    } finally {
      for (const bot of loaded.values()) bot.close();
    }
  });

  it('indexes the crawled pages in a process of its own, where a small folder is indexed in the server', async () => {
    // Published as each child process is made, before it is spawned: its arguments are read after.
    const started: ChildProcess[] = [];
    const onProcess = (message: unknown): void => void started.push((message as { process: ChildProcess }).process);
    const builds = (): number => started.filter((child) => child.spawnargs.some((arg) => /build-process\.[jt]s$/.test(arg))).length;
    subscribe('child_process', onProcess);
    try {
      const folder = await loadBots(undefined, undefined, { indexFolder: join(dir, 'in-process-folder'), watch: false });
      for (const bot of folder.values()) bot.close();
      assert.equal(builds(), 0, 'the sample folder (a few KB) is indexed in the server');

      const logs: string[] = [];
      const bots = await loadBots(undefined, undefined, { site: { url: `${site.origin}/docs/`, refreshMs: 0 }, indexFolder: join(dir, 'elsewhere'), watch: false, log: (l) => logs.push(l) });
      try {
        while (!logs.some((l) => /crawled in/.test(l))) await new Promise((r) => setTimeout(r, 20));
        assert.ok(builds() >= 1, 'the crawl\'s syncs run in a build process');
        assert.equal(bots.get('demo')!.answer('How do I rotate log files every day?', false).sources[0]!.url, `${site.origin}/docs/rotate#daily`);
      } finally {
        for (const bot of bots.values()) bot.close();
      }
    } finally {
      unsubscribe('child_process', onProcess);
    }
  });

  it('crawls again on its schedule, picking up a page that changed', async () => {
    const logs: string[] = [];
    const crawls = (): number => logs.filter((l) => /crawled in/.test(l)).length;
    const bots = await loadBots(undefined, undefined, { site: { url: `${site.origin}/docs/`, refreshMs: 200 }, indexFolder: join(dir, 'refresh'), watch: false, log: (l) => logs.push(l) });
    try {
      while (crawls() < 1) await new Promise((r) => setTimeout(r, 20));
      const question = 'How is zstandard compression configured?';
      assert.equal(bots.get('demo')!.answer(question, false).answer_found, false);
      site.html('/docs/rotate', doc('Rotation', 'Zstandard compression is configured with the level option of the rotating transport.'), { etag: '"r2"' });
      const seen = crawls();
      while (crawls() < seen + 2) await new Promise((r) => setTimeout(r, 20));
      assert.equal(bots.get('demo')!.answer(question, false).answer_found, true);
    } finally {
      for (const bot of bots.values()) bot.close();
    }
  });
});
