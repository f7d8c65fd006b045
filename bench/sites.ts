/**
 * Sites: answers from built HTML and from a crawled live site, against the same documents read
 * as Markdown. Markdown sets of the retrieval benchmark (pino and undici; a quick run pino only) are rendered with marked
 * into full HTML pages wrapped in heavy chrome (header, navigation, a sidebar listing every page,
 * a cookie banner, "edit this page", a footer, scripts and styles), with ids on headings and
 * canonical links, as a docs generator builds them. Measured: top-1 and top-3 on the HTML folder
 * beside the Markdown folder (goal: within one question), answers quoting chrome (goal 0); then
 * a loopback site of 1,000 such pages crawled (goal <= 60 s), a restart (goal: serving within 3 s,
 * only conditional requests), and the peak memory of a process crawling beside that of one
 * indexing the same pages as a folder (each a process of its own doing that job alone:
 * `sites-job.ts`).
 */
import { fork } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { marked, type Tokens } from 'marked';
import { loadBots, type Bot } from '../packages/bot-answer-engine/src/upstream/bots.js';
import { HeadingSlugger } from '../packages/bot-answer-engine/src/upstream/folder/markdown-text.js';
import type { Report } from './lib/report.js';
import { median } from './lib/stats.js';
import { startEngine } from './retrieval/engines.js';
import { evaluate, summarise } from './retrieval/evaluate.js';
import { questionSets, type QuestionSet } from './retrieval/sets.js';

const SECTION = 'sites';
/** Words of the chrome only: an answer holding one quotes boilerplate. */
const CHROME_MARKERS = ['Accept all cookies', 'Edit this page on GitHub', 'Skip to main content', 'Was this page helpful', 'Subscribe to our newsletter', 'All rights reserved', 'Toggle navigation', 'CHROME-SCRIPT'];

/** The HTML path a Markdown file is built to: `api.md` is `api.html`, a README or index is its folder's `index.html`. */
function htmlPath(path: string): string {
  return path.replace(/(?:^|\/)(?:README|index)\.mdx?$/i, (m) => m.replace(/[^/]+$/, 'index.html')).replace(/\.mdx?$/i, '.html');
}

/** Renders one Markdown page into a full HTML page in a docs theme's chrome. */
function renderPage(markdown: string, title: string, url: string, pages: Array<{ title: string; href: string }>): string {
  const slugger = new HeadingSlugger();
  const renderer = new marked.Renderer();
  renderer.heading = function ({ tokens, depth, text }: Tokens.Heading): string {
    return `<h${depth} id="${slugger.slug(text)}">${this.parser.parseInline(tokens)}<a class="headerlink" href="#" title="Permalink">¶</a></h${depth}>\n`;
  };
  const body = marked.parse(markdown.replace(/^---\n[\s\S]*?\n---\n/, ''), { renderer, async: false }) as string;
  const sidebar = pages.map((p) => `<li class="md-nav__item"><a class="md-nav__link" href="${p.href}">${p.title}</a></li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title} | Example Docs</title>
<link rel="canonical" href="${url}"><link rel="stylesheet" href="/assets/site.css">
<style>.md-header{position:sticky} body{font-family:sans-serif}</style>
<script>window.dataLayer=[];function gtag(){dataLayer.push(arguments)} /* CHROME-SCRIPT */</script></head>
<body><a class="skip-link" href="#content">Skip to main content</a>
<div class="cookie-banner" role="dialog"><p>We use cookies to improve your experience. Accept all cookies or manage your preferences.</p><button>Accept all cookies</button></div>
<header class="md-header"><a class="logo" href="/">Example Docs</a><button class="menu">Toggle navigation</button>
<nav class="top-nav"><ul><li><a href="/docs/">Docs</a></li><li><a href="/blog/">Blog</a></li><li><a href="/community/">Community</a></li></ul></nav>
<form class="search" role="search"><input placeholder="Search the docs"></form></header>
<div class="md-container"><aside class="md-sidebar md-sidebar--primary"><nav class="md-nav"><ul>${sidebar}</ul></nav></aside>
<main class="md-main" id="content"><article class="md-content__inner">${body}
<div class="page-feedback">Was this page helpful? <button>Yes</button> <button>No</button></div>
<a class="edit-this-page" href="https://github.com/example/docs/edit/main/page.md">Edit this page on GitHub</a></article></main>
<aside class="md-sidebar md-sidebar--secondary"><div class="toc">On this page</div></aside></div>
<footer class="md-footer"><div class="newsletter">Subscribe to our newsletter</div><p>© 2026 Example Docs. All rights reserved.</p></footer>
<script src="/assets/bundle.js"></script></body></html>`;
}

/** Builds a set's Markdown folder as HTML pages into `out` (`copies` times, in `copy-N/` folders when more than one). */
async function buildHtml(set: QuestionSet, out: string, copies = 1): Promise<number> {
  const files = (await readdir(set.dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && /\.mdx?$/.test(e.name));
  const sources = await Promise.all(files.map(async (e) => {
    const path = join(e.parentPath, e.name).slice(set.dir.length + 1);
    const text = await readFile(join(set.dir, path), 'utf8');
    return { path, text, title: /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? path };
  }));
  const base = set.settings.baseUrl!.endsWith('/') ? set.settings.baseUrl! : `${set.settings.baseUrl!}/`;
  let written = 0;
  for (let copy = 0; copy < copies; copy++) {
    const prefix = copies > 1 ? `copy-${copy}/` : '';
    const pages = sources.map((s) => ({ title: s.title, href: new URL(`${prefix}${htmlPath(s.path)}`.replace(/index\.html$/, ''), base).href }));
    for (const [i, source] of sources.entries()) {
      const file = join(out, prefix, htmlPath(source.path));
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, renderPage(source.text, source.title, pages[i]!.href, pages));
      written++;
    }
  }
  return written;
}

/** What a job of `sites-job.ts` answers: its process's peak resident memory (MB), seconds and documents indexed. */
type JobFigures = { peakMb: number; seconds: number; documents: number };

/** Runs one job of `sites-job.ts` in a process of its own and resolves with its figures. */
function runJob(args: string[]): Promise<JobFigures> {
  const child = fork(fileURLToPath(new URL('./sites-job.ts', import.meta.url)), args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let figures: JobFigures | undefined;
    child.once('message', (message) => (figures = message as JobFigures));
    child.once('error', reject);
    child.once('exit', (code) => (figures ? resolve(figures) : reject(new Error(`a sites job (${args[0]}) exited with ${code}`))));
  });
}

/**
 * `crawlPages`: the crawl's size; `memoryRuns`: runs of each memory job, alternating (3; a quick
 * run, whose figures are not judged, takes 1); `sets`: the retrieval sets built to HTML.
 */
export async function benchSites(report: Report, options: { crawlPages: number; memoryRuns: number; sets: string[] }): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-sites-'));
  try {
    for (const set of questionSets().filter((s) => options.sets.includes(s.id))) {
      const htmlDir = join(work, `${set.id}-html`);
      await buildHtml(set, htmlDir);
      const markdown = await startEngine('current', set, join(work, `${set.id}-md-index`));
      const html = await startEngine('current', { ...set, dir: htmlDir }, join(work, `${set.id}-html-index`));
      try {
        const mdOutcome = evaluate(markdown, set);
        const md = summarise(mdOutcome.questions);
        const htmlOutcome = evaluate(html, set);
        const got = summarise(htmlOutcome.questions);
        const chrome = set.questions.filter((q) => {
          const answer = html.answer(q.question);
          return answer.answer_found && CHROME_MARKERS.some((m) => answer.answer.includes(m));
        }).length;
        const note = `${set.questions.length} questions; the ${set.id} docs built to HTML in heavy chrome, against the same folder read as Markdown`;
        const base = { label: 'Markdown', value: 0 };
        report.add({ section: SECTION, id: `${set.id}.html.top1`, label: `${set.id} as HTML: top-1`, value: got.top1, unit: `of ${set.questions.length}`, baseline: { ...base, value: md.top1 }, goal: 'Markdown - 1', met: got.top1 >= md.top1 - 1, note });
        report.add({ section: SECTION, id: `${set.id}.html.top3`, label: `${set.id} as HTML: top-3`, value: got.top3, unit: `of ${set.questions.length}`, baseline: { ...base, value: md.top3 }, goal: 'Markdown - 1', met: got.top3 >= md.top3 - 1, note });
        const noisy = (questions: typeof htmlOutcome.questions): number => questions.filter((q) => q.noise.length).length;
        report.add({ section: SECTION, id: `${set.id}.html.noise`, label: `${set.id} as HTML: answers quoting markup or metadata`, value: noisy(htmlOutcome.questions), unit: `of ${set.questions.length}`, baseline: { ...base, value: noisy(mdOutcome.questions) }, note: 'the retrieval section\'s noise kinds (HTML tags, comments, metadata blocks, badges)' });
        report.add({ section: SECTION, id: `${set.id}.html.chrome`, label: `${set.id} as HTML: answers quoting chrome`, value: chrome, unit: `of ${set.questions.length}`, goal: '0', met: chrome === 0, note });
      } finally {
        markdown.close();
        html.close();
      }
    }
    await benchCrawl(report, work, options.crawlPages, options.memoryRuns);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** A site of `pages` pages on loopback (the pino docs built into copies), with a sitemap, ETags and Last-Modified. */
async function benchCrawl(report: Report, work: string, pages: number, runs: number): Promise<void> {
  const set = questionSets().find((s) => s.id === 'pino')!;
  const perCopy = (await readdir(set.dir)).filter((n) => n.endsWith('.md')).length;
  const siteDir = join(work, 'site');
  const built = await buildHtml({ ...set, settings: { ...set.settings, baseUrl: 'http://127.0.0.1:0/docs/' } }, siteDir, Math.ceil(pages / perCopy));
  const files = (await readdir(siteDir, { recursive: true })).filter((f) => f.endsWith('.html')).slice(0, pages);
  // Only what is asserted: keeping the requests themselves would keep their sockets, and count in the crawl's memory.
  const requests: Array<{ url: string; headers: IncomingMessage['headers'] }> = [];
  const modified = new Date(Date.UTC(2026, 0, 1)).toUTCString();
  let origin = '';
  const server = createServer(async (req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    const path = (req.url ?? '/').replace(/^\/docs\//, '');
    if (req.url === '/docs/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset>${files.map((f) => `<url><loc>${origin}/docs/${f}</loc></url>`).join('')}</urlset>`);
      return;
    }
    if (!files.includes(path)) return void res.writeHead(404).end();
    const etag = `"${path}"`;
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
    // The canonical links name the real host: a page names itself here.
    const html = (await readFile(join(siteDir, path), 'utf8')).replace(/http:\/\/127\.0\.0\.1:0/g, origin);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag, 'last-modified': modified }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const note = `${files.length} pages (of ${built} built) from a loopback server in the benchmark's process; sitemap, ETag, Last-Modified`;
  try {
    // Each figure is the peak of a process of its own doing that job alone, the folder and the
    // crawl alternating, each over a fresh index: medians of `runs`.
    const folders: JobFigures[] = [];
    const crawls: JobFigures[] = [];
    for (let run = 0; run < runs; run++) {
      folders.push(await runJob(['folder', siteDir, join(work, `folder-index-${run}`)]));
      crawls.push(await runJob(['crawl', `${origin}/docs/`, String(pages), join(work, `crawl-index-${run}`)]));
    }
    const indexFolder = join(work, `crawl-index-${runs - 1}`);
    const crawlSeconds = median(crawls.map((c) => c.seconds));
    const indexedAll = crawls.every((c) => c.documents === files.length);
    const folderPeak = median(folders.map((f) => f.peakMb));
    const crawlPeak = median(crawls.map((c) => c.peakMb));
    const each = (jobs: JobFigures[]): string => jobs.map((j) => j.peakMb.toFixed(1)).join(', ');
    report.add({ section: SECTION, id: 'crawl.seconds', label: `crawl of ${files.length} loopback pages, until indexed`, value: crawlSeconds, unit: 's', goal: '<= 60', met: crawlSeconds <= 60 && indexedAll, note: `${note}; median of ${runs} crawls (${crawls.map((c) => c.seconds.toFixed(1)).join(', ')} s), each indexing ${crawls.map((c) => c.documents).join(', ')} documents` });
    report.add({ section: SECTION, id: 'crawl.memory', label: 'peak RSS crawling and indexing them', value: crawlPeak, unit: 'MB', baseline: { label: 'the same pages as a folder', value: folderPeak }, goal: '<= folder + 25%', met: crawlPeak <= folderPeak * 1.25, note: `peak RSS of a process of its own doing the job alone, median of ${runs} alternating runs: crawl ${each(crawls)}; folder ${each(folders)}` });

    let crawled = false;
    const open = (): Promise<Map<string, Bot>> =>
      loadBots(undefined, undefined, { site: { url: `${origin}/docs/`, maxPages: pages, refreshMs: 0 }, indexFolder, watch: false, log: (l) => void (crawled ||= /crawled in/.test(l)) });
    requests.length = 0;
    const restarted = performance.now();
    const bots = await open();
    const serveSeconds = (performance.now() - restarted) / 1000;
    // Served from the index: the answer cites pages of it, quoted or (not sure) as related pages.
    const served = bots.get('demo')!.answer('How do I redact fields from the log?', false).sources.length > 0;
    while (!crawled) await new Promise((r) => setTimeout(r, 20));
    for (const bot of bots.values()) bot.close();
    const pageRequests = requests.filter((r) => r.url.endsWith('.html'));
    const unconditional = pageRequests.filter((r) => !r.headers['if-none-match'] && !r.headers['if-modified-since']).length;
    report.add({ section: SECTION, id: 'restart.serve', label: 'restart: serving from the index', value: serveSeconds, unit: 's', goal: '<= 3', met: serveSeconds <= 3 && served, note: 'loadBots resolved, an answer found before the refresh crawl ends' });
    report.add({ section: SECTION, id: 'restart.unconditional', label: 'restart: page requests without a validator', value: unconditional, unit: `of ${pageRequests.length}`, goal: '0', met: unconditional === 0 && pageRequests.length === files.length, note });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
