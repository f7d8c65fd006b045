import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadBots } from '../../packages/bot-answer-engine/src/upstream/bots.js';
import { loadKnowledgeBase, parseHtmlDocument, resolveSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { readHtmlPage } from '../../packages/bot-answer-engine/src/upstream/folder/html-page.js';
import { KbIndex } from '../../packages/bot-answer-engine/src/upstream/index/kb-index.js';
import { passageTerms } from '../../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';

/** A page as docs generators build them: the content amid navigation, banners and footers. */
function page(main: string, head = ''): string {
  return `<!doctype html><html><head><title>Page title | Example Docs</title>${head}<script>window.tracking = "TRACKING-SCRIPT"</script><style>.x{color:red}</style></head>
<body><a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><a href="/">Example Docs</a><nav><ul><li><a href="/a">Guides NAV-LINK</a></li><li><a href="/b">API</a></li></ul></nav></header>
<div id="cookie-consent">We use cookies COOKIE-BANNER. <button>Accept</button></div>
<div class="layout"><aside class="sidebar"><ul><li><a href="/x">SIDEBAR-LINK</a></li></ul></aside>
${main}
</div><footer class="site-footer">FOOTER-TEXT Copyright</footer></body></html>`;
}

const BOILERPLATE = /TRACKING-SCRIPT|NAV-LINK|COOKIE-BANNER|SIDEBAR-LINK|FOOTER-TEXT|Skip to content|Edit this page|color:red|¶/;

describe('built HTML pages', () => {
  it('reads the main content only, as Markdown sections with the headings\' own ids', () => {
    const html = page(`<main><article><header><h1 id="install">Install<a class="hash-link" href="#install">#</a></h1></header>
<p>Run <code>npm i pino</code> to <strong>install</strong> it; see <a href="../api/#child">the API</a>.</p>
<section id="options"><h2>Options<a class="headerlink" href="#options">¶</a></h2>
<pre><code class="language-js">const log = pino({ level: 'info' });
if (a &lt; b) {}</code></pre>
<table><thead><tr><th>Option</th><th>Default</th></tr></thead><tbody><tr><td>level</td><td><code>info</code></td></tr></tbody></table>
<ul><li>one<ul><li>nested</li></ul></li><li>two</li></ul>
<table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>1\n2</pre></div></td><td class="code"><div class="highlight"><pre><span>a = 1</span>\n<span>b = 2</span></pre></div></td></tr></table></section>
<a class="theme-edit-this-page" href="https://example.com/edit">Edit this page</a>
<footer class="theme-doc-footer">FOOTER-TEXT</footer></article></main>`);
    const read = readHtmlPage(html, 'https://docs.example.com/guide/install/');
    assert.equal(read.title, 'Install');
    assert.doesNotMatch(read.markdown, BOILERPLATE);
    assert.equal(
      read.markdown,
      [
        '# Install {#install}',
        'Run `npm i pino` to **install** it; see [the API](https://docs.example.com/guide/api/#child).',
        '## Options {#options}',
        "```js\nconst log = pino({ level: 'info' });\nif (a < b) {}\n```",
        '| Option | Default |\n| --- | --- |\n| level | `info` |',
        '- one\n  - nested\n- two',
        '```\na = 1\nb = 2\n```',
      ].join('\n\n'),
    );
  });

  it('finds the content of a page that marks none, leaving link lists out; the title from <title> less the site', () => {
    const html = page(`<div class="content"><ul><li><a href="/1">One</a></li><li><a href="/2">Two</a></li><li><a href="/3">Three</a></li></ul>
<div><p>Plain hand-written page text about <a href="x.html">one link</a> among many words of prose.</p></div></div>`);
    const read = readHtmlPage(html);
    assert.equal(read.title, 'Page title');
    assert.equal(read.markdown, 'Plain hand-written page text about [one link](x.html) among many words of prose.');
  });

  it('takes the id of the section a heading opens (Sphinx), hidden tab panels\' text, and the canonical link as the URL', () => {
    const html = page(
      `<div role="main"><section id="the-api"><h2>The API</h2><p>Text.</p><div role="tabpanel" hidden><p>Or with yarn.</p></div><div class="mobile-menu" hidden><a href="/">Home</a></div></section></div>`,
      '<link rel="canonical" href="https://docs.example.com/api.html">',
    );
    const { source, body, anchors } = parseHtmlDocument(html, 'api.html', { baseUrl: 'https://elsewhere.example.com/' });
    assert.equal(source.url, 'https://docs.example.com/api.html');
    assert.equal(source.title, 'Page title');
    assert.equal(body, '## The API {#the-api}\n\nText.\n\nOr with yarn.');
    assert.equal(anchors, true);
  });

  it('keeps a hostile title and script as text, never as markup, and survives malformed, deeply nested HTML', () => {
    const hostile = `<html><head><title>&lt;img src=x onerror=alert(1)&gt; | Site</title></head><body><main><h1><script>alert(1)</script>Safe &lt;b&gt;</h1>
<p onclick="alert(2)">Text <a href="javascript:alert(3)">click</a> <a href="data:text/html,x">data</a></p>${'<div><span>'.repeat(5000)}deep text</main>`;
    const read = readHtmlPage(hostile);
    assert.equal(read.title, 'Safe <b>');
    assert.doesNotMatch(read.markdown, /alert|javascript:|data:text/);
    assert.match(read.markdown, /deep text/);
    assert.doesNotThrow(() => readHtmlPage('<p>unclosed <b>bold <i>both</p></div></div><<<>>> &bogus; <h2 id="x">Heading'));
  });
});

describe('a built HTML folder', () => {
  let dir: string;
  let indexFolder: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'html-kb-'));
    indexFolder = join(dir, '.index');
    await mkdir(join(dir, 'guide'), { recursive: true });
    await writeFile(join(dir, 'index.html'), page('<main><h1>Welcome</h1><p>The home page says hello.</p></main>'));
    await writeFile(
      join(dir, 'guide', 'index.html'),
      page('<main><h1>Guide</h1><h2 id="rotate-logs">Rotate logs</h2><p>To rotate the log files every day, use the rotation transport with a daily interval.</p><h3>Sizes</h3><p>Or by size.</p></main>'),
    );
    await writeFile(join(dir, 'guide', 'redirect.html'), '<html><head><meta http-equiv="refresh" content="0; url=/guide/"></head><body></body></html>');
    await writeFile(join(dir, 'notes.md'), '# Notes\n\nMarkdown beside HTML is read as before.\n');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads HTML beside Markdown; index.html stands for its folder', async () => {
    const kb = await loadKnowledgeBase(dir, { baseUrl: 'https://docs.example.com/' });
    assert.deepEqual(
      kb.documents.map((d) => [d.path, d.source.title, d.source.url]),
      [
        ['guide/index.html', 'Guide', 'https://docs.example.com/guide/'],
        ['index.html', 'Welcome', 'https://docs.example.com/'],
        ['notes.md', 'Notes', 'https://docs.example.com/notes'],
      ],
    );
    assert.deepEqual(kb.skipped, [{ path: 'guide/redirect.html', reason: 'a page that only redirects' }]);
    // A section links to its heading's id on the page; a heading without one, to the page.
    assert.deepEqual(
      kb.passages.filter((p) => p.document.path === 'guide/index.html').map((p) => [p.headings.join(' › '), p.url]),
      [
        ['Rotate logs', 'https://docs.example.com/guide/#rotate-logs'],
        ['Rotate logs › Sizes', 'https://docs.example.com/guide/'],
      ],
    );
  });

  it('answers from a page, citing its section, never quoting its chrome', async () => {
    const bots = await loadBots(dir, undefined, { kbSettings: { baseUrl: 'https://docs.example.com/' }, indexFolder, watch: false });
    try {
      const answer = bots.get('demo')!.answer('How do I rotate the log files every day?', false);
      assert.equal(answer.answer_found, true);
      assert.equal(answer.sources[0]!.url, 'https://docs.example.com/guide/#rotate-logs');
      assert.doesNotMatch(answer.answer, BOILERPLATE);
    } finally {
      for (const bot of bots.values()) bot.close();
    }
  });
});

describe('a built HTML page is indexed as its Markdown source is', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'html-terms-'));
    await mkdir(join(root, 'html', 'api'), { recursive: true });
    await mkdir(join(root, 'md', 'api'), { recursive: true });
    // The reader writes the built page's links absolute; its source wrote the link to its own site relative.
    await writeFile(
      join(root, 'html', 'api', 'MockAgent.html'),
      page(
        '<main><h1>MockAgent</h1><p>Intercepts requests; see <a href="/api/Agent.html">the Agent</a>, <a href="https://docs.example.com/api/Pool.html">the Pool</a> and <a href="https://nodejs.org/api/http.html">the http module</a>.</p><pre><code>fetch("https://docs.example.com/api/")</code></pre></main>',
        '<link rel="canonical" href="https://docs.example.com/api/MockAgent.html">',
      ),
    );
    await writeFile(
      join(root, 'md', 'api', 'MockAgent.md'),
      '# MockAgent\n\nIntercepts requests; see [the Agent](/api/Agent.html), [the Pool](./Pool.html) and [the http module](https://nodejs.org/api/http.html).\n\n```\nfetch("https://docs.example.com/api/")\n```\n',
    );
  });
  after(() => rm(root, { recursive: true, force: true }));

  /** How many passages of the folder's index hold each term in their body. */
  async function bodyFrequencies(folder: string, terms: string[]): Promise<number[]> {
    const dir = join(root, folder);
    const index = await KbIndex.open({ dir, settings: resolveSettings(dir, { baseUrl: 'https://docs.example.com/', urlExtension: '.html' }), folder: join(root, `${folder}-index`), botId: 'demo' });
    try {
      await index.sync();
      return terms.map((term) => index.frequencies(term).body);
    } finally {
      index.close();
    }
  }

  it('a link to its own site by its path, as a relative link; another site\'s host and code kept', async () => {
    // "exampl" and "com": the site's domain, once in the code block (kept) and not from the links;
    // "nodej": the other site's host; "agent", "pool": the linked pages' names.
    const terms = ['exampl', 'com', 'nodej', 'agent', 'pool'];
    assert.deepEqual(await bodyFrequencies('html', terms), [1, 1, 1, 1, 1]);
    assert.deepEqual(await bodyFrequencies('md', terms), [1, 1, 1, 1, 1]);
    const html = passageTerms('MockAgent', [], '[the Pool](https://docs.example.com/api/Pool.html) of docs.example.com', 'api/MockAgent.html', 'https://docs.example.com');
    assert.deepEqual(html.body, passageTerms('MockAgent', [], '[the Pool](/api/Pool.html) of docs.example.com', 'api/MockAgent.md').body);
    // Control: without the document's own site, the link's host words are indexed.
    assert.ok(passageTerms('MockAgent', [], '[the Pool](https://docs.example.com/api/Pool.html)', 'api/MockAgent.html').body.includes('exampl'));
  });

  it('no word of the file\'s extension in its path, and its name whole', () => {
    assert.deepEqual(passageTerms('MockAgent', [], 'text', 'api/MockAgent.html').path, ['api', 'mock', 'agent', 'mockagent']);
    assert.deepEqual(passageTerms('MockAgent', [], 'text', 'api/MockAgent.htm').path, passageTerms('MockAgent', [], 'text', 'api/MockAgent.md').path);
  });
});
