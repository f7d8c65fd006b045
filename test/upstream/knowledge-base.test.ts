import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Lexer, type Tokens } from 'marked';
import { BotsConfigError, loadBots } from '../../packages/bot-answer-engine/src/upstream/bots.js';
import { composeAnswer, snippetOf } from '../../packages/bot-answer-engine/src/upstream/compose/extractive.js';
import { checkUrlSettings, documentUrl } from '../../packages/bot-answer-engine/src/upstream/folder/document-url.js';
import { KnowledgeBaseError, loadKnowledgeBase, parseDocument, resolveSettings, splitSections, type Passage } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { plainHeading } from '../../packages/bot-answer-engine/src/upstream/folder/markdown-text.js';
import { plainText } from '../../packages/bot-answer-engine/src/upstream/search/plain-text.js';
import { KbIndex } from '../../packages/bot-answer-engine/src/upstream/index/kb-index.js';
import { scanWords, stem } from '../../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';
import { Retriever } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { FIXTURE_KB } from './helpers.js';

const FRONT = `---
title: Doc
url: https://wiki.example.com/doc
---
`;

const SITE = { baseUrl: 'https://docs.example.com/' };

/**
 * A folder of these pages, written before the suite's tests, and an empty one for its on-disk
 * index; both removed after. `load` reads the pages as a knowledge base; `indexed` indexes them
 * on disk and hands a retriever over the index, closed after.
 */
function pagesFolder(name: string, pages: Record<string, string>) {
  const made = {
    dir: '',
    folder: '',
    load: () => loadKnowledgeBase(made.dir, SITE),
    async indexed(use: (retriever: Retriever) => void): Promise<void> {
      const index = await KbIndex.open({ dir: made.dir, settings: resolveSettings(made.dir, SITE), folder: made.folder, botId: name });
      try {
        await index.sync();
        use(new Retriever(index));
      } finally {
        index.close();
      }
    },
  };
  before(async () => {
    made.dir = await mkdtemp(join(tmpdir(), `answer-${name}-`));
    made.folder = await mkdtemp(join(tmpdir(), `answer-${name}-index-`));
    for (const [path, text] of Object.entries(pages)) await writeFile(join(made.dir, path), text);
  });
  after(async () => {
    await rm(made.dir, { recursive: true, force: true });
    await rm(made.folder, { recursive: true, force: true });
  });
  return made;
}

describe('knowledge-base documents', () => {
  it('reads every Source field from the front-matter', () => {
    const { source, body } = parseDocument(
      `---\r\ntitle: " Travel "\r\nurl: https://wiki.example.com/t\r\napp_name: Confluence\r\nauthor:\r\n  name: Dana\r\n  email: dana@example.com\r\n  photo: https://a.example.com/d.png\r\nmodified_time: 1730243482\r\n---\r\n# Travel\r\n\r\nText.\r\n`,
      'travel.md',
    );
    assert.deepEqual(source, {
      title: 'Travel',
      url: 'https://wiki.example.com/t',
      app_name: 'Confluence',
      author: { name: 'Dana', email: 'dana@example.com', photo: 'https://a.example.com/d.png' },
      modified_time: 1730243482,
    });
    assert.equal(body, '# Travel\n\nText.');
  });

  it('reads a front matter whose opening line is indented, not quoting it as text', () => {
    const page = '\t---\ntitle: hide-on-enter-vr\ntype: components\n---\n\nHides the entity in VR.\n\n## Example\n\nx';
    const { source, body } = parseDocument(page, 'components/hide-on-enter-vr.md', { baseUrl: 'https://aframe.example/docs/' });
    assert.equal(source.title, 'hide-on-enter-vr');
    assert.equal(body, 'Hides the entity in VR.\n\n## Example\n\nx');
  });

  it("reads an author written as a name (another site generator's front matter) as the author's name, and serves the page", () => {
    const author = (value: string) => parseDocument(`${FRONT.replace('---\n', `---\nauthor: ${value}\n`)}x`, 'a.md').source.author;
    assert.deepEqual(author('Eron Powell'), { name: 'Eron Powell' });
    assert.equal(author('" "'), undefined);
    assert.equal(author(''), undefined);
  });

  it("writes a front-matter field's interpolation (VitePress' `{{ $frontmatter.author }}`) as its value, outside code", () => {
    const page = [
      '---',
      'url: https://docs.example.com/recipe',
      'description: Run a flow once for each item.',
      'author: Eron Powell',
      'directus_version:',
      'tags: [flows]',
      '---',
      '# Flows For-Loop',
      '',
      '> {{ $frontmatter.description }}',
      '',
      ':::tip Author: {{$frontmatter.author}}',
      '',
      '**Directus Version:** {{$frontmatter.directus_version}} {{ $frontmatter.missing }}{{ $frontmatter.tags }} {{ $frontmatter.tags.join(", ") }}',
      '',
      ':::',
      '',
      'Write `{{ $frontmatter.author }}` to show it:',
      '',
      '```md',
      'Layout: {{ $frontmatter.layout }}',
      '```',
    ].join('\n');
    const { body } = parseDocument(page, 'recipe.md');
    assert.equal(
      body,
      [
        '# Flows For-Loop',
        '',
        '> Run a flow once for each item.',
        '',
        ':::tip Author: Eron Powell',
        '',
        '**Directus Version:**  {{ $frontmatter.tags }} {{ $frontmatter.tags.join(", ") }}',
        '',
        ':::',
        '',
        'Write `{{ $frontmatter.author }}` to show it:',
        '',
        '```md',
        'Layout: {{ $frontmatter.layout }}',
        '```',
      ].join('\n'),
    );
  });

  it('takes modified_time in seconds, milliseconds or as an ISO date, always giving seconds', () => {
    const time = (value: string): number | undefined => parseDocument(`${FRONT.replace('---\n', `---\nmodified_time: ${value}\n`)}x`, 'a.md').source.modified_time;
    assert.equal(time('1730243482'), 1730243482);
    assert.equal(time('1730243482123'), 1730243482);
    assert.equal(time('2024-10-29T23:11:22Z'), 1730243482);
    assert.equal(parseDocument(`${FRONT}x`, 'a.md').source.modified_time, undefined);
  });

  it('rejects documents it cannot cite, naming the file and the field', () => {
    const bad: Array<[string, RegExp]> = [
      ['# No front-matter, no base URL', /a\.md: no URL to cite it by: set ANSWER_KB_BASE_URL .* or give the file a "url" in its front-matter/],
      ['---\ntitle: [unclosed\n---\nx', /a\.md: front-matter is not valid YAML/],
      ['---\n- a list\n---\nx', /a\.md: front-matter must be a mapping/],
      ['---\ntitle: T\n---\nx', /a\.md: no URL to cite it by/],
      ['---\ntitle: T\nurl: javascript:alert(1)\n---\nx', /a\.md: front-matter field "url" must be an http\(s\) URL/],
      ['---\ntitle: 42\nurl: https://x.example.com\n---\nx', /"title" must be a non-empty string/],
      ['---\ntitle: T\nurl: https://x.example.com\nauthor: [Dana, Lee]\n---\nx', /"author" must be a mapping/],
      ['---\ntitle: T\nurl: https://x.example.com\nmodified_time: yesterday\n---\nx', /"modified_time" must be Unix seconds/],
    ];
    for (const [text, message] of bad) assert.throws(() => parseDocument(text, 'a.md'), (e: unknown) => e instanceof KnowledgeBaseError && message.test(e.message));
    assert.throws(() => parseDocument('x', 'a.md', { baseUrlSetting: '"base_url" of bot "hr"' }), /set "base_url" of bot "hr"/);
    // A relative front-matter URL needs the base URL to be read against.
    assert.throws(
      () => parseDocument('---\ntitle: T\nurl: /tools\n---\nx', 'a.md'),
      (e: unknown) => e instanceof KnowledgeBaseError && /a\.md: no URL to cite it by: set ANSWER_KB_BASE_URL .* or write its front-matter field "url" whole: "\/tools" is relative/.test(e.message),
    );
  });

  it('reads a relative front-matter URL against the base URL, as a link on the site would be', () => {
    const url = (written: string, baseUrl: string): string => parseDocument(`---\ntitle: T\nurl: ${written}\n---\nx`, 'tools/index.md', { baseUrl }).source.url;
    assert.equal(url('/tools', 'https://eve.example/docs/'), 'https://eve.example/tools');
    assert.equal(url('guide/setup', 'https://docs.example.com/v2'), 'https://docs.example.com/v2/guide/setup');
    assert.equal(url('../faq/#billing', 'https://docs.example.com/v2/'), 'https://docs.example.com/faq/#billing');
    assert.equal(url('https://elsewhere.example/page', 'https://docs.example.com/'), 'https://elsewhere.example/page');
  });

  it('without front-matter: title from the first heading, else the file name; URL from the base URL; time from the file', () => {
    const settings = { baseUrl: 'https://docs.example.com/v2', appName: 'Acme Docs' };
    const first = parseDocument('Intro\n```\n# not this\n```\n## The `setup()` [call](x.md) {#setup}\n\nText.', 'guide/setup.md', settings, 1730243482999);
    assert.deepEqual(first.source, { title: 'The setup() call', url: 'https://docs.example.com/v2/guide/setup', app_name: 'Acme Docs', modified_time: 1730243482 });
    assert.equal(first.anchors, true, 'anchors default to on for formed URLs');
    assert.equal(parseDocument('No heading.', 'guide/getting-started_now.md', settings).source.title, 'getting started now');
    assert.equal(parseDocument('No heading.', 'guide/README.md', settings).source.title, 'guide');
    const front = parseDocument('---\ntitle: Own\nurl: https://wiki.example.com/own\nmodified_time: 5\n---\n# Heading', 'a.md', settings, 9000);
    assert.deepEqual(front.source, { title: 'Own', url: 'https://wiki.example.com/own', app_name: 'Acme Docs', modified_time: 5 });
    assert.equal(front.anchors, false, 'anchors default to off for front-matter URLs');
    assert.equal(parseDocument('---\nurl: https://wiki.example.com/own\n---\nx', 'a.md', { anchors: true }).anchors, true);
    assert.equal(parseDocument('---\n---\n# Empty front-matter', 'a.md', settings).source.title, 'Empty front-matter');
  });

  it('titles a page by its file name when its text opens above a first heading naming something else', () => {
    const title = (text: string, path: string): string => parseDocument(text, path, { baseUrl: 'https://docs.example.com/' }).source.title;
    // A paragraph on the hook, then its first section: the section does not name the page.
    assert.equal(title('The `useSelectOptions` hook prepares options.\n\n## Properties\n\n| Name |\n| --- |\n| options |', 'hooks/useSelectOptions.md'), 'useSelectOptions');
    assert.equal(title('test android\n\n### Options\n\n* `--watch`', 'testing/dev-test-android.md'), 'dev test android');
    // A first heading sharing a word with the file name, a page opening with it, a banner in HTML
    // above it, or a level-1 heading anywhere: the heading titles the page, as before.
    assert.equal(title('An article.\n\n## History behind prototype poisoning', 'Guides/Prototype-Poisoning.md'), 'History behind prototype poisoning');
    assert.equal(title('## Properties\n\nText.', 'hooks/useSelectOptions.md'), 'Properties');
    assert.equal(title('<h1 align="center">Fastify</h1>\n\n## Long Term Support\n\nText.', 'Reference/LTS.md'), 'Long Term Support');
    assert.equal(title('::: slot pause\n## Write a Test with Interactive Pause\n:::', 'index.md'), 'Write a Test with Interactive Pause');
    assert.equal(title('Intro.\n\n## Properties\n\n# Select', 'hooks/useSelectOptions.md'), 'Select');
  });

  it('forms URLs the way docs sites publish files', () => {
    const url = (path: string, urlExtension?: string, baseUrl = 'https://docs.example.com/v2/'): string | undefined => documentUrl(path, { baseUrl, urlExtension });
    assert.equal(url('guide/setup.md'), 'https://docs.example.com/v2/guide/setup');
    assert.equal(url('guide/setup.mdx', '.html'), 'https://docs.example.com/v2/guide/setup.html');
    assert.equal(url('guide/setup.md', '/'), 'https://docs.example.com/v2/guide/setup/');
    assert.equal(url('guide/index.md', '.html'), 'https://docs.example.com/v2/guide/');
    assert.equal(url('guide/README.md'), 'https://docs.example.com/v2/guide/');
    assert.equal(url('Reference/Index.md'), 'https://docs.example.com/v2/Reference/');
    assert.equal(url('index.md', '', 'https://docs.example.com'), 'https://docs.example.com/');
    assert.equal(url('my notes/a b#1?.md'), 'https://docs.example.com/v2/my%20notes/a%20b%231%3F');
    assert.equal(documentUrl('a.md', {}), undefined);
    assert.match(checkUrlSettings({ baseUrl: 'ftp://x' }, { baseUrl: 'B', urlExtension: 'E' })!, /^B must be an http\(s\) URL/);
    assert.match(checkUrlSettings({ urlExtension: 'html' }, { baseUrl: 'B', urlExtension: 'E' })!, /^E must be empty, "\/" or an extension/);
  });

  it('splits at headings, outside code fences, with the trail of headings above', () => {
    const sections = splitSections(
      ['Intro.', '# Doc', 'Under the title.', '## Setup', 'Install:', '```sh', '# not a heading', '```', '### Linux', 'apt', '## Empty', '## Use #', 'Run it.'].join('\n'),
      'Doc',
    );
    assert.deepEqual(sections, [
      { headings: [], markdown: 'Intro.' },
      { headings: [], markdown: 'Under the title.' },
      { headings: ['Setup'], markdown: 'Install:\n```sh\n# not a heading\n```', anchor: 'setup' },
      { headings: ['Setup', 'Linux'], markdown: 'apt', anchor: 'linux' },
      { headings: ['Use'], markdown: 'Run it.', anchor: 'use' },
    ]);
  });

  it('keeps the indentation of a section that opens with an indented code block', () => {
    const sections = splitSections(['## Install', '', '', '    npm i mock-request', '', 'Then enable it.', '## Next', '', '   Indented text.', '## Tab', '\tcode'].join('\n'), 'Doc');
    assert.deepEqual(
      sections.map((s) => s.markdown),
      ['    npm i mock-request\n\nThen enable it.', 'Indented text.', '\tcode'],
    );
  });

  it("keeps a MakeCode box written as headings (`### ~ hint` ... `### ~`) in the section it is in", () => {
    const sections = splitSections(
      ['# Dice', '## Step 1', 'Shake it.', '', '### ~ hint', '', 'A shake is a gesture.', '', '### ~', '', 'Then show a number.', '## ~avatar avatar', 'Have fun!', '## ~', '## Step 2', 'Roll again.'].join('\n'),
      'Dice',
    );
    assert.deepEqual(
      sections.map((s) => [s.headings, s.markdown.replace(/\n+/g, ' ')]),
      [
        [['Step 1'], 'Shake it. A shake is a gesture. Then show a number. Have fun!'],
        [['Step 2'], 'Roll again.'],
      ],
    );
  });

  it("reads a MakeCode step's title in braces as its name, without its flags", () => {
    const sections = splitSections(['# Dice', '## {Introduction @unplugged}', 'Roll it.', '## {Step 1 @fullscreen @showhint}', 'Shake it.', '## {Step 2}', 'Show it.', '## When to use @callable', 'Always.'].join('\n'), 'Dice');
    assert.deepEqual(
      sections.map((s) => s.headings),
      [['Introduction'], ['Step 1'], ['Step 2'], ['When to use @callable']],
    );
  });

  it('gives sections the anchors docs generators give headings, repeated ones numbered', () => {
    const anchors = splitSections(
      ['# Guide', 'a', '## Options', 'b', '### `.redirect(dest, [code])`', 'c', '## Options', 'd', '## Own id {#custom}', 'e', '## Custom', 'f', '## Ünïcode & Ümlauts!', 'g'].join('\n'),
      'Guide',
    ).map((s) => s.anchor);
    assert.deepEqual(anchors, [undefined, 'options', 'redirectdest-code', 'options-1', 'custom', 'custom-1', 'ünïcode--ümlauts']);
  });

  it('takes the id of an empty anchor element in a heading as its anchor, and leaves the element out of its text', () => {
    const sections = splitSections(
      ['# Schemas', '## Device', 'A device.', '### <a name="device-schema"></a> Schema', 'a', '### <a name="device-example"></a> Example', 'b', "## Sign in with Google <a id='login-google'></a>", 'c', '### Schema', 'd'].join('\n'),
      'Schemas',
    );
    assert.deepEqual(
      sections.map((s) => [s.headings.join(' › '), s.anchor]),
      [
        ['Device', 'device'],
        ['Device › Schema', 'device-schema'],
        ['Device › Example', 'device-example'],
        ['Sign in with Google', 'login-google'],
        ['Sign in with Google › Schema', 'schema'],
      ],
    );
  });

  it('keeps the underscores inside a heading\'s words, which are no emphasis, in its title, text and anchor', () => {
    const page = parseDocument('# System Prompt (GEMINI_SYSTEM_MD)\n\n## get_run_details\n\nText.\n\n## _Emphasised_ and __strong__\n\nMore.', 'prompt.md', {
      baseUrl: 'https://docs.example.com/',
    });
    assert.equal(page.source.title, 'System Prompt (GEMINI_SYSTEM_MD)');
    const sections = splitSections(page.body, page.source.title);
    assert.deepEqual(
      sections.map((s) => [s.headings.map(plainHeading).join(' › '), s.anchor]),
      [
        ['get_run_details', 'get_run_details'],
        ['Emphasised and strong', 'emphasised-and-strong'],
      ],
    );
    // As the element's renderer (marked) reads the heading: no emphasis inside the word.
    for (const heading of ['get_run_details', 'System Prompt (GEMINI_SYSTEM_MD)']) {
      const token = new Lexer().lex(`## ${heading}`)[0] as Tokens.Heading;
      assert.deepEqual(token.tokens.map((t) => t.type), ['text']);
      assert.equal(plainHeading(heading), token.text);
    }
  });

  it('loads a folder recursively in a stable order, skipping READMEs', async () => {
    const kb = await loadKnowledgeBase(FIXTURE_KB);
    assert.deepEqual(kb.documents.map((d) => d.path), ['deploy-guide.md', 'handbook/office-wifi.md', 'handbook/pto.md', 'travel-policy.md']);
    assert.deepEqual(kb.passages.map((p) => p.index), kb.passages.map((_, i) => i));
  });

  describe('folders and bots files', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'answer-kb-'));
      await mkdir(join(dir, 'empty'));
      await mkdir(join(dir, 'docs'));
      await writeFile(join(dir, 'docs', 'README.md'), `${FRONT}# About this folder\n\nWhat is here.`);
      await writeFile(join(dir, 'docs', 'a.md'), `${FRONT}# Doc\n\nHello.`);
      await writeFile(join(dir, 'docs', 'notes.txt'), 'not Markdown');
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it("a README is a document (its folder's page), other files are ignored", async () => {
      const kb = await loadKnowledgeBase(join(dir, 'docs'));
      assert.deepEqual(kb.documents.map((d) => d.path), ['README.md', 'a.md']);
    });

    it('a page with no text under its title, and the shell a site renders its pages into, are left out, saying why', async () => {
      await mkdir(join(dir, 'shells'));
      await writeFile(join(dir, 'shells', 'a.md'), `${FRONT}# Doc\n\nHello.`);
      await writeFile(join(dir, 'shells', 'later.md'), '### Receive a payment as a merchant\n');
      await writeFile(join(dir, 'shells', 'headings.md'), '# Security\n\n## HTTPS\n\n## Rate limiting\n');
      // docsify's page: a script renders the Markdown pages into it in the browser.
      const shell = '<!DOCTYPE html><html><head><title>Dash SDK</title></head><body><div id="app"></div><script>window.$docsify = { loadSidebar: true }</script></body></html>';
      await writeFile(join(dir, 'shells', 'index.html'), shell);
      const kb = await loadKnowledgeBase(join(dir, 'shells'), { baseUrl: 'https://docs.example.com/' });
      assert.deepEqual(kb.documents.map((d) => d.path), ['a.md']);
      const reason = 'holds no text under its title: nothing to answer from';
      assert.deepEqual(kb.skipped, [
        { path: 'headings.md', reason },
        { path: 'index.html', reason },
        { path: 'later.md', reason },
      ]);
    });

    it('an empty or missing folder is a clear error', async () => {
      await assert.rejects(loadKnowledgeBase(join(dir, 'empty')), /holds no documents \(\.md, \.mdx, \.html, \.htm\)/);
      await assert.rejects(loadKnowledgeBase(join(dir, 'missing')), /Cannot read the knowledge base folder/);
    });

    it('a bots file adds bots with folders relative to it, and bad ones are clear errors', async () => {
      await writeFile(join(dir, 'bots.json'), JSON.stringify({ bots: [{ id: 'docs', kb: 'docs' }] }));
      const bots = await loadBots(join(dir, 'docs'), join(dir, 'bots.json'), { watch: false, indexFolder: join(dir, 'index') });
      assert.deepEqual([...bots.keys()], ['demo', 'docs']);
      assert.equal(bots.get('docs')!.dir, join(dir, 'docs'));
      for (const bot of bots.values()) bot.close();
      const bad: Array<[string, RegExp]> = [
        ['{not json', /Cannot read the bots file/],
        ['{"bots": {}}', /expected \{"bots": \[/],
        ['{"bots": [{"kb": "docs"}]}', /bots\[0\]\.id must be a non-empty string/],
        ['{"bots": [{"id": "x"}]}', /bots\[0\]\.kb must be a folder path/],
        ['{"bots": [{"id": "demo", "kb": "docs"}]}', /bot "demo" is built in/],
        ['{"bots": [{"id": "x", "kb": "docs"}, {"id": "x", "kb": "docs"}]}', /bot "x" is defined twice/],
        ['{"bots": [{"id": "x", "site": "ftp://docs.example.com/"}]}', /bots\[0\]\.site must be an http\(s\) URL/],
        ['{"bots": [{"id": "x", "kb": "docs", "site": "https://docs.example.com/"}]}', /bots\[0\] sets both kb and site/],
        ['{"bots": [{"id": "x", "site": "https://docs.example.com/", "max_pages": 0}]}', /bots\[0\]\.max_pages must be a whole number above 0/],
        ['{"bots": [{"id": "x", "site": "https://docs.example.com/", "refresh": "weekly"}]}', /bots\[0\]\.refresh must be a duration/],
      ];
      for (const [text, message] of bad) {
        await writeFile(join(dir, 'bad.json'), text);
        await assert.rejects(loadBots(join(dir, 'docs'), join(dir, 'bad.json'), { watch: false }), (e: unknown) => e instanceof BotsConfigError && message.test(e.message));
      }
      await assert.rejects(loadBots(join(dir, 'docs'), join(dir, 'absent.json'), { watch: false }), BotsConfigError);
    });

    it('a bots file entry sets how its folder without front-matter is cited, and names its own setting when it cannot be', async () => {
      await mkdir(join(dir, 'plain', 'guide'), { recursive: true });
      await writeFile(join(dir, 'plain', 'guide', 'setup.mdx'), '# Setup\n\n## Install\n\nRun the installer.\n');
      const entry = { id: 'plain', kb: 'plain', base_url: 'https://docs.example.com/v1', url_extension: '.html', app_name: 'Plain Docs', anchors: false };
      await writeFile(join(dir, 'plain.json'), JSON.stringify({ bots: [entry] }));
      const bots = await loadBots(join(dir, 'docs'), join(dir, 'plain.json'), { watch: false, indexFolder: join(dir, 'index') });
      const [passage] = bots.get('plain')!.retrieve('How do I run the installer?');
      assert.deepEqual([passage?.url, passage?.document.source.app_name, passage?.document.source.title, passage?.document.anchors], ['https://docs.example.com/v1/guide/setup.html', 'Plain Docs', 'Setup', false]);
      for (const bot of bots.values()) bot.close();
      await writeFile(join(dir, 'plain.json'), JSON.stringify({ bots: [{ id: 'plain', kb: 'plain' }] }));
      await assert.rejects(
        loadBots(join(dir, 'docs'), join(dir, 'plain.json'), { watch: false }),
        (e: unknown) => e instanceof KnowledgeBaseError && e.message.startsWith('guide/setup.mdx: no URL to cite it by: set "base_url" of bot "plain" in '),
      );
      const bad: Array<[Record<string, unknown>, RegExp]> = [
        [{ base_url: 'docs.example.com' }, /bots\[0\]\.base_url must be an http\(s\) URL/],
        [{ url_extension: 'html' }, /bots\[0\]\.url_extension must be empty, "\/" or an extension/],
        [{ anchors: 'yes' }, /bots\[0\]\.anchors must be true, false or "auto"/],
        [{ app_name: 3 }, /bots\[0\]\.app_name must be a string/],
      ];
      for (const [fields, message] of bad) {
        await writeFile(join(dir, 'plain.json'), JSON.stringify({ bots: [{ id: 'plain', kb: 'plain', ...fields }] }));
        await assert.rejects(loadBots(join(dir, 'docs'), join(dir, 'plain.json'), { watch: false }), (e: unknown) => e instanceof BotsConfigError && message.test(e.message));
      }
    });
  });
});

describe("the front matter's description", () => {
  const pages = pagesFolder('description', {
    // As npm's CLI docs ship: the page's one-line summary in the front matter only, the body opening at a lower heading.
    'npm-ci.md': '---\ntitle: npm-ci\ndescription: Clean install a project\n---\n\n### Synopsis\n\n```bash\nnpm ci\n```\n\n### Description\n\nMeant for automated environments such as test platforms.\n',
    'npm-install.md': '---\ntitle: npm-install\ndescription: Install a package\n---\n\n### Synopsis\n\n```bash\nnpm install <package>\n```\n\n### Description\n\nThis command installs a package and any packages that it depends on, updating the project.\n',
    'guide.md': '---\ndescription: >-\n  Learn how to\n  fill content in.\n---\n# Guide\n\nBody.\n',
    'same.md': '---\ndescription: Said once.\n---\n# Same\n\nSaid once. Then more.\n',
    // As Base UI's pages ship: the body escapes what the description writes plain.
    'csp.md': '---\ndescription: Applies a nonce to inline <style> tags.\n---\n# CSP Provider\n\nApplies a nonce to inline \\<style> tags.\n\n> Read this first.\n',
    'number.md': '---\ndescription: 12\n---\n# Number\n\nText.\n',
  });

  it("is the page's lead paragraph: first, or under the title heading; once; only when it is text", async () => {
    const kb = await pages.load();
    const lead = (path: string): Passage => kb.passages.find((p) => p.document.path === path)!;
    assert.deepEqual([lead('npm-ci.md').headings, lead('npm-ci.md').markdown], [[], 'Clean install a project']);
    assert.equal(lead('npm-ci.md').document.source.title, 'npm-ci');
    assert.deepEqual([lead('guide.md').headings, lead('guide.md').markdown], [[], 'Learn how to fill content in.\n\nBody.']);
    assert.equal(lead('guide.md').document.source.title, 'Guide');
    assert.equal(lead('same.md').markdown, 'Said once. Then more.');
    assert.equal(lead('csp.md').markdown, 'Applies a nonce to inline \\<style\\> tags.\n\n> Read this first.');
    assert.equal(lead('number.md').markdown, 'Text.');
  });

  it('finds the page by the words only its description holds', async () => {
    await pages.indexed((retriever) => {
      const [best] = retriever.relevant('How do I do a clean install of my project?');
      assert.equal(best?.passage.document.path, 'npm-ci.md');
    });
  });
});

describe("Shiki's code notation", () => {
  const pages = pagesFolder('notation', {
    'steps.mdx': [
      '# Steps',
      '',
      'Mark a line with `// [!code highlight]` in the code block.',
      '',
      '```ts',
      'export async function step() {',
      '  "use step"; // [!code highlight]',
      '  // [!code focus:2]',
      '  return fetch(url); /* [!code ++] */',
      '}',
      '```',
      '',
      '```html',
      '<p>Hi</p> <!-- [!code error] -->',
      '```',
      '',
      '```py',
      'print("x")  # [!code --]',
      '```',
    ].join('\n'),
  });

  it('is taken out of code, as the site shows it; prose that names it keeps it', async () => {
    const kb = await pages.load();
    assert.equal(
      kb.passages[0]!.markdown,
      [
        'Mark a line with `// [!code highlight]` in the code block.',
        '',
        '```ts',
        'export async function step() {',
        '  "use step";',
        '  return fetch(url);',
        '}',
        '```',
        '',
        '```html',
        '<p>Hi</p>',
        '```',
        '',
        '```py',
        'print("x")',
        '```',
      ].join('\n'),
    );
  });
});

describe("code blocks' info strings", () => {
  // As Fumadocs, Mintlify, Next.js, Intlayer, VitePress and Docusaurus write them: the language, then the site's meta.
  const pages = pagesFolder('info', {
    'setup.mdx': [
      '# Setup',
      '',
      'Write `title="lib/bot.ts"` after the language to caption a block.',
      '',
      '```typescript title="lib/bot.ts" lineNumbers',
      'const bot = new Chat();',
      '```',
      '',
      '```bash terminal icon="terminal"',
      'bun install',
      '```',
      '',
      '```tsx filename="app/page.tsx" switcher highlight={2}',
      'export default function Page() {}',
      '```',
      '',
      '```sh [pnpm]',
      'pnpm add chat',
      '```',
      '',
      '```toml bunfig.toml icon="settings"',
      '[install]',
      '```',
      '',
      '```ts {1,3-4} twoslash',
      'let a = 1;',
      '```',
      '',
      '```json',
      '{}',
      '```',
      '',
      '```title="notes.txt"',
      'plain',
      '```',
    ].join('\n'),
  });

  it('keep the language and the file name the site captions the block with; directives the highlighter reads go', async () => {
    const kb = await pages.load();
    assert.equal(
      kb.passages[0]!.markdown,
      [
        'Write `title="lib/bot.ts"` after the language to caption a block.',
        '',
        '```typescript lib/bot.ts',
        'const bot = new Chat();',
        '```',
        '',
        '```bash',
        'bun install',
        '```',
        '',
        '```tsx app/page.tsx',
        'export default function Page() {}',
        '```',
        '',
        '```sh pnpm',
        'pnpm add chat',
        '```',
        '',
        '```toml bunfig.toml',
        '[install]',
        '```',
        '',
        '```ts',
        'let a = 1;',
        '```',
        '',
        '```json',
        '{}',
        '```',
        '',
        '```title="notes.txt"',
        'plain',
        '```',
      ].join('\n'),
    );
  });
});

describe("other highlighters' notation comments", () => {
  // As Base UI's docs ship (MUI's docs infrastructure), and as Docusaurus' default magic comments are written.
  const pages = pagesFolder('emphasis', {
    'switch.md': [
      '# Switch',
      '',
      'An enclosing label, its line marked with `// @highlight`:',
      '',
      '```tsx',
      '// @highlight',
      '<label>',
      '  <Switch.Root nativeButton render={<button />} /> {/* @highlight-text "nativeButton" "render={<button />}" */}',
      '  {/* @highlight-start */}',
      '  Notifications',
      '  {/* @highlight-end */}',
      '</label>',
      "const mark = '@highlight';",
      '```',
      '',
      '```js',
      'function f() {',
      '  // highlight-next-line',
      '  return 1; /* @focus */',
      '}',
      '```',
    ].join('\n'),
  });

  it('are taken out of code, as the site shows it; prose and strings that name them keep them', async () => {
    const kb = await pages.load();
    assert.equal(
      kb.passages[0]!.markdown,
      [
        'An enclosing label, its line marked with `// @highlight`:',
        '',
        '```tsx',
        '<label>',
        '  <Switch.Root nativeButton render={<button />} />',
        '  Notifications',
        '</label>',
        "const mark = '@highlight';",
        '```',
        '',
        '```js',
        'function f() {',
        '  return 1;',
        '}',
        '```',
      ].join('\n'),
    );
  });
});

describe('MDX indentation', () => {
  // As Turborepo's and Bun's docs write a tab's code, and Pragmatic drag and drop's a message's HTML:
  // indented inside a component. MDX has no indented code blocks.
  const pages = pagesFolder('mdx-indent', {
    'cache.mdx': [
      '# Remote caching',
      '',
      '<Tabs>',
      '  <Tab value="pnpm">',
      '',
      '    ```bash title="Terminal"',
      '    rm -rf ./.turbo/cache',
      '    ```',
      '',
      '  </Tab>',
      '</Tabs>',
      '',
      '<SectionMessage appearance="information">',
      '\t<p>',
      '\t\tAn investigation is required.',
      '\t</p>',
      '</SectionMessage>',
      '',
      '- A list item',
      '',
      '      code under the item stays as the list has it',
    ].join('\n'),
  });

  it('makes no code of indented text: fenced code stays code, text stays text', async () => {
    const kb = await pages.load();
    const markdown = kb.passages[0]!.markdown;
    // The fence's meta cut to the language and the file name it shows (round 17).
    assert.match(markdown, /^```bash Terminal\nrm -rf \.\/\.turbo\/cache\n```$/m);
    assert.match(markdown, /^<p>\n\tAn investigation is required\.\n<\/p>$/m);
    assert.match(markdown, /^      code under the item stays as the list has it$/m);
    const { answer } = composeAnswer([kb.passages[0]!], true);
    assert.doesNotMatch(answer, /<\/?p>/);
  });
});

describe('a line opening with three backticks that is no fence', () => {
  // A backtick fence's info string holds no backtick (CommonMark): Chance's pages write an example
  // inline as ```` ```chance.natural({min: 1, max: 3});``` ````, a code span in a paragraph.
  const pages = pagesFolder('inline-backticks', {
    'natural.md': [
      '# natural',
      '',
      'These are inclusive. This means',
      '```chance.natural({min: 1, max: 3});``` would return either 1, 2, or 3 or:',
      '',
      '```js',
      'min <= random number <= max',
      '```',
      '',
      '## Excluding numbers',
      '',
      'Pass `exclude`.',
    ].join('\n'),
  });

  it('reads it as prose, whole, and the fences and headings after it as written', async () => {
    const kb = await pages.load();
    assert.deepEqual(
      kb.passages.map((p) => p.headings),
      [[], ['Excluding numbers']],
    );
    const [first] = kb.passages;
    assert.match(first!.markdown, /^```chance\.natural\(\{min: 1, max: 3\}\);``` would return either 1, 2, or 3 or:$/m);
    assert.match(plainText(first!.markdown), /This means chance\.natural\(\{min: 1, max: 3\}\); would return either 1, 2, or 3 or: min <= random number <= max$/);
    // As the element's renderer reads it: a paragraph holding a code span, then the js block.
    const tokens = new Lexer().lex(first!.markdown).filter((t) => t.type !== 'space');
    assert.deepEqual(
      tokens.map((t) => t.type),
      ['paragraph', 'code'],
    );
    assert.ok((tokens[0] as Tokens.Paragraph).tokens.some((t) => t.type === 'codespan' && t.raw.startsWith('```chance')));
    assert.equal((tokens[1] as Tokens.Code).lang, 'js');
  });
});

describe('definition lists', () => {
  // As the CLI for Microsoft 365 ships its commands' options (a Markdown fence its site renders as a
  // definition list), and as PHP Markdown Extra and Pandoc write one in prose.
  const pages = pagesFolder('definitions', {
    'channel-get.mdx': [
      "import Global from '../_global.mdx';",
      '',
      '# teams channel get',
      '',
      '## Options',
      '',
      '```md definition-list',
      '`--teamId [teamId]`',
      ': The ID of the team. Specify either `teamId` or `teamName` but not both.',
      '',
      '`--primary`',
      ': Gets the default channel, General, of a team.',
      '  If specified, id or name are not needed.',
      '```',
      '',
      '<Global />',
      '',
      '```md',
      'Term',
      ': kept as code',
      '```',
    ].join('\n'),
    'apps.md': ['# Apps', '', '**Customer applications**', ': Let your customers build integrations.', ': Or sign in.', '', 'Text after.'].join('\n'),
  });

  it('are read as the list the site shows, terms and their definitions together', async () => {
    const kb = await pages.load();
    const options = kb.passages.find((p) => p.headings[0] === 'Options')!;
    // (Blank lines where the `<Global />` include was are not the list's.)
    assert.equal(
      options.markdown.replace(/\n{3,}/g, '\n\n'),
      [
        '- `--teamId [teamId]`: The ID of the team. Specify either `teamId` or `teamName` but not both.',
        '',
        '- `--primary`: Gets the default channel, General, of a team. If specified, id or name are not needed.',
        '',
        '```md',
        'Term',
        ': kept as code',
        '```',
      ].join('\n'),
    );
    const apps = kb.passages.find((p) => p.document.path === 'apps.md')!;
    assert.equal(apps.markdown, '- **Customer applications**: Let your customers build integrations. Or sign in.\n\nText after.');
  });

  it('give the options as code spans a quote can find', async () => {
    await pages.indexed((retriever) => {
      assert.equal(retriever.relevant('get the default General channel with --primary')[0]?.passage.headings[0], 'Options');
    });
    const kb = await pages.load();
    const { answer } = composeAnswer([kb.passages.find((p) => p.headings[0] === 'Options')!], true);
    assert.match(answer, /`--primary`: Gets the default channel/);
  });
});

describe("components' labels", () => {
  // As Mintlify (Bun's docs), Fumadocs (Turborepo's) and Docusaurus (the CLI for Microsoft 365's) write them: the label is an attribute.
  const pages = pagesFolder('labels', {
    'cache.mdx': [
      '# Global cache',
      '',
      '<Accordion title="Configuring cache behavior">',
      'Set `dir` in bunfig.toml.',
      '</Accordion>',
      '',
      '<Steps>',
      '  <Step title="Install the package">Run the command.</Step>',
      '</Steps>',
      '',
      '<Tabs>',
      '<TabItem value="JSON">',
      '',
      '```json',
      '{ "id": 1 }',
      '```',
      '',
      '</TabItem>',
      '<TabItem value="csv" label="CSV">',
      '',
      'id',
      '',
      '</TabItem>',
      '</Tabs>',
      '',
      '<Input value="typed" />',
      '<Card title={name} />',
    ].join('\n'),
  });

  it('are read as the text the site shows them as', async () => {
    const kb = await pages.load();
    const body = kb.passages.map((p) => p.markdown).join('\n');
    for (const label of ['Configuring cache behavior', 'Install the package', 'JSON', 'CSV']) assert.match(body, new RegExp(`^${label}$`, 'm'));
    // A value that is no label, and an expression, are not text.
    assert.doesNotMatch(body, /typed|csv\b|name/);
  });
});

describe('what a generator puts around the page', () => {
  // As the Serverless Framework's docs ship: metadata in a comment, then a generated banner heading above the title.
  const PAGE = [
    '<!--',
    'title: Serverless Framework Commands - AWS Lambda - Deploy',
    'menuOrder: 5',
    'layout: Doc',
    '-->',
    '',
    '<!-- DOCS-SITE-LINK:START automatically generated  -->',
    '',
    '### [Read this on the main docs site](https://docs.example.com/deploy)',
    '',
    '<!-- DOCS-SITE-LINK:END -->',
    '',
    '# AWS - deploy',
    '',
    'The `sls deploy` command deploys your entire service. <!-- inline: kept for the cleaner -->',
    '',
    '## Options',
    '',
    '<!-- markdownlint-disable -->',
    '- `--stage` The stage in your service to deploy to.',
    '',
    '```html',
    '<!-- a comment in code stays -->',
    '```',
    '',
    '## Draft',
    '',
    '<!--',
    'Nothing here is published yet:',
    '```bash',
    'serverless deploy --experimental',
    '```',
    '--> Shown after it.',
  ].join('\n');
  const pages = pagesFolder('generated', {
    'deploy.md': PAGE,
    'logs.md': PAGE.replaceAll('deploy', 'logs').replaceAll('Deploy', 'Logs'),
  });

  it("titles the page by its level-1 heading, not the banner above it, and leaves out the comments that open a block", async () => {
    const kb = await pages.load();
    const deploy = kb.passages.filter((p) => p.document.path === 'deploy.md');
    assert.equal(deploy[0]!.document.source.title, 'AWS - deploy');
    assert.deepEqual(
      deploy.map((p) => [p.headings, p.markdown]),
      [
        [[], 'The `sls deploy` command deploys your entire service. <!-- inline: kept for the cleaner -->'],
        [['Options'], '- `--stage` The stage in your service to deploy to.\n\n```html\n<!-- a comment in code stays -->\n```'],
        [['Draft'], 'Shown after it.'],
      ],
    );
  });

  it('finds no page by words only a comment held', async () => {
    await pages.indexed((retriever) => {
      assert.deepEqual(retriever.search('menuOrder layout experimental'), []);
      assert.equal(retriever.relevant('How do I deploy the service?')[0]?.passage.document.source.title, 'AWS - deploy');
    });
  });
});

describe('pages whose headings are all level 1', () => {
  // As an oclif command's message file ships (the Salesforce CLI's plugins): every heading a
  // message key, the first `summary` on every page of the folder.
  const COMMAND = [
    '# summary',
    '',
    'Promote a package version to released.',
    '',
    '# description',
    '',
    'Supply the ID or alias of the package version you want to promote.',
    '',
    '# examples',
    '',
    '- Promote the package version with the specified ID:',
    '',
    '  <%= config.bin %> <%= command.id %> --package 04t...',
    '',
    '# flags.package.summary',
    '',
    'ID (starts with 04t) or alias of the package version to promote.',
  ].join('\n');
  const pages = pagesFolder('all-level-one', {
    'package_version_promote.md': COMMAND,
    'package_version_delete.md': COMMAND.replaceAll('Promote', 'Delete').replaceAll('promote', 'delete').replace('to released', 'for good'),
    'package_list.md': '# summary\n\nList all packages.\n\n# examples\n\n- <%= config.bin %> <%= command.id %>',
  });

  it('titles the page by its file name, its first heading a section of its own', async () => {
    const kb = await pages.load();
    const promote = kb.passages.filter((p) => p.document.path === 'package_version_promote.md');
    assert.equal(promote[0]!.document.source.title, 'package version promote');
    assert.deepEqual(
      promote.map((p) => [p.headings, p.url]),
      [
        [['summary'], 'https://docs.example.com/package_version_promote#summary'],
        [['description'], 'https://docs.example.com/package_version_promote#description'],
        [['examples'], 'https://docs.example.com/package_version_promote#examples'],
        [['flags.package.summary'], 'https://docs.example.com/package_version_promote#flagspackagesummary'],
      ],
    );
    // Two are enough; what writes a value is not the reader's to guess.
    assert.equal(kb.documents.find((d) => d.path === 'package_list.md')!.source.title, 'package list');
    assert.match(promote[2]!.markdown, /<%= config\.bin %> <%= command\.id %> --package 04t/);
  });

  it('keeps the level-1 title of a page with deeper sections, or with one level-1 heading', () => {
    assert.equal(parseDocument('# Guide\n\nText.\n\n# More\n\n## Setup\n\nx', 'a.md', SITE).source.title, 'Guide');
    assert.equal(parseDocument('# Guide\n\nText.', 'a.md', SITE).source.title, 'Guide');
    assert.equal(parseDocument('---\ntitle: Own\n---\n# summary\n\nx\n\n# examples\n\ny', 'a.md', SITE).source.title, 'Own');
  });

  it('finds the command by the words of its file name', async () => {
    await pages.indexed((retriever) => {
      assert.equal(retriever.relevant('how do I promote a version?')[0]?.passage.document.path, 'package_version_promote.md');
      assert.equal(retriever.relevant('package version delete')[0]?.passage.document.path, 'package_version_delete.md');
    });
  });
});

describe('template tags', () => {
  // As the NativeScript CLI's man pages ship: EJS around the front matter and some paragraphs.
  const PAGE = [
    '<% if (isJekyll) { %>---',
    'title: ns device android',
    'position: 1',
    '---<% } %>',
    '',
    '# ns device android',
    '',
    'Lists connected devices. <% if(isHtml) { %>Install the USB drivers first.<% } %>',
    '',
    '<%# a note for the writers %>',
    '',
    '### Usage',
    '',
    'General | `$ ns proxy set [<Url> <% if(isWindows) {%>[<Username>]<%}%>]`',
    '',
    '```html',
    '<% if (user) { %><h2><%= user.name %></h2><% } %>',
    '```',
    '',
    '    <% for (const item of items) { %>',
    '',
    'Write <%%= as a literal, <%= version %> as a value.',
    '',
    '<% if(isHtml) { %>',
    '',
    '### Related Commands',
    '',
    '[device](device.html) | Lists devices.',
    '<% } %>',
  ].join('\n');
  const pages = pagesFolder('templates', { 'device-android.md': PAGE });

  it('reads the front matter a tag wraps and leaves out the tags that write nothing, outside code', async () => {
    const kb = await pages.load();
    assert.equal(kb.documents[0]!.source.title, 'ns device android');
    assert.deepEqual(
      kb.passages.map((p) => [p.headings, p.markdown]),
      [
        [[], 'Lists connected devices. Install the USB drivers first.'],
        [
          ['Usage'],
          'General | `$ ns proxy set [<Url> <% if(isWindows) {%>[<Username>]<%}%>]`\n\n```html\n<% if (user) { %><h2><%= user.name %></h2><% } %>\n```\n\n    <% for (const item of items) { %>\n\nWrite <%%= as a literal, <%= version %> as a value.',
        ],
        [['Related Commands'], '[device](device.html) | Lists devices.'],
      ],
    );
  });

  it('finds no page by words only a tag held', async () => {
    await pages.indexed((retriever) => {
      assert.deepEqual(retriever.search('isJekyll isHtml position'), []);
      assert.equal(retriever.relevant('list the connected android devices')[0]?.passage.document.path, 'device-android.md');
    });
  });
});

describe('character references in prose', () => {
  // As Sails' and Foundation's docs write them: named and numeric references in prose, in a table, beside code that keeps its own.
  const PAGE = [
    '# Blueprints &mdash; an overview',
    '',
    'Sails&rsquo; blueprints &mdash; shortcut routes&nbsp;&rarr; actions. It&#39;s &ldquo;free&rdquo;; a &lt; b &amp;&amp; AT&T.',
    'Write &lt;div&gt; as text, &amp;hellip; as written, &ast;not emphasis&ast;.',
    'Put <code>&lt;ul&gt;</code> after <code>nav</code>.',
    '',
    '| type | note |',
    '| --- | --- |',
    '| string &#124; number | `a &#124; b` |',
    '',
    '```html',
    '<p>&hellip; &lt;code&gt;</p>',
    '```',
    '',
    '<pre><code>&lt;b&gt; &times; &amp;hellip</code></pre>',
  ].join('\n');
  const pages = pagesFolder('entities', {
    'blueprints.md': PAGE,
    'routes.md': '# Routes\n\nCustom routes bind a URL to an action.\n',
  });

  it('reads them as their characters outside code, and keeps what they stood for literal', async () => {
    const kb = await pages.load();
    const page = kb.passages.find((p) => p.document.path === 'blueprints.md')!;
    assert.equal(page.document.source.title, 'Blueprints — an overview');
    assert.equal(
      page.markdown,
      [
        'Sails\u2019 blueprints \u2014 shortcut routes\u00a0\u2192 actions. It\'s \u201cfree\u201d; a < b && AT&T.',
        'Write \\<div\\> as text, \\&hellip; as written, \\*not emphasis\\*.',
        'Put `<ul>` after <code>nav</code>.',
        '',
        '| type | note |',
        '| --- | --- |',
        '| string \\| number | `a &#124; b` |',
        '',
        '```html',
        '<p>&hellip; &lt;code&gt;</p>',
        '```',
        '',
        '<pre><code>&lt;b&gt; &times; &amp;hellip</code></pre>',
      ].join('\n'),
    );
    // A quote shows the characters; the <pre> element's own references are decoded as HTML reads them.
    const { answer } = composeAnswer([page], true);
    assert.match(answer, /Sails\u2019 blueprints \u2014 shortcut routes/);
    assert.match(answer, /```\n<b> \u00d7 &hellip\n```/);
    assert.doesNotMatch(answer, /&(?:mdash|rsquo|nbsp|rarr|ldquo|#39);/);
  });

  it('reads a line break written as a reference as white space: a table row stays one row', async () => {
    // As Base UI's API tables keep a description's lines.
    const { body } = parseDocument(
      ['| Prop | Description |', '| --- | --- |', '| limit | The most toasts shown at once.&#xA;The oldest are marked `limited`.&#10;&#9;Then hidden. |', '| timeout | 5000 |'].join('\n'),
      'toast.md',
      SITE,
    );
    assert.equal(body.split('\n')[2], '| limit | The most toasts shown at once. The oldest are marked `limited`.  Then hidden. |');
    assert.equal(body.split('\n').length, 4);
  });

  it('reads a reference escaped for Markdown as the character it escapes, as the generator meant', () => {
    // As the Ory Kratos client's reference writes its tables: `\'` and `\"`, then HTML-escaped.
    const { body } = parseDocument(
      ['| Name | Description |', '| --- | --- |', '| **id** | ID is the identity\\&#39;s ID; \\&quot;upgrade\\&quot; it. \\&amp;, \\&copy; and \\\\&#39; as written. |'].join('\n'),
      'Identity.md',
      SITE,
    );
    assert.equal(body.split('\n')[2], "| **id** | ID is the identity\\'s ID; \\\"upgrade\\\" it. \\&amp;, \\&copy; and \\\\' as written. |");
  });

  it('finds no page by the name of a reference', async () => {
    await pages.indexed((retriever) => {
      assert.deepEqual(retriever.search('mdash rsquo rarr nbsp ldquo'), []);
      assert.equal(retriever.relevant('What are blueprints shortcut routes?')[0]?.passage.document.path, 'blueprints.md');
    });
  });
});

describe('tag-like names in prose', () => {
  // As the Ory Kratos client's generated reference writes return types, and as docs write placeholders.
  const PAGE = [
    '# **listMySessions**',
    '',
    '> Array<Session> listMySessions()',
    '',
    // `<Array<` is no tag in CommonMark: only `<Session>` is.
    'Lists the other active sessions of the signed-in user. Returns **[Promise][1]<void>** or a Promise<Array<Session>>.',
    '',
    '### Return type',
    '',
    '**Array<Session>**',
    '',
    '| Name | Type |',
    '| --- | --- |',
    '| **tokens** | **Array<string>** |',
    '',
    'Copy App_Resources/<platform> and run `list <Session>`; keep <b>bold</b>, a break<br>and <Badge>new</Badge> as written.',
    '',
    '```ts',
    'const sessions: Array<Session> = await listMySessions();',
    '```',
    '',
    '[1]: https://developer.mozilla.org/docs/Web/JavaScript/Reference/Global_Objects/Promise',
  ].join('\n');
  const pages = pagesFolder('tag-like', {
    'FrontendApi.md': PAGE,
    'Note.md': '# Notes\n\nA <Note> on its own, closed later: </Note>.\n',
    'MetadataApi.md': '# **getVersion**\n\nReturns the version of the server.\n',
  });

  it('reads a name that no HTML element and no other tag of the page has as text, outside code', async () => {
    const kb = await pages.load();
    const page = kb.passages.filter((p) => p.document.path === 'FrontendApi.md');
    assert.deepEqual(
      page.map((p) => [p.headings, p.markdown]),
      [
        [[], '> Array\\<Session\\> listMySessions()\n\nLists the other active sessions of the signed-in user. Returns **[Promise][1]\\<void\\>** or a Promise<Array\\<Session\\>>.'],
        [
          ['Return type'],
          [
            '**Array\\<Session\\>**',
            '',
            '| Name | Type |',
            '| --- | --- |',
            '| **tokens** | **Array\\<string\\>** |',
            '',
            'Copy App_Resources/\\<platform\\> and run `list <Session>`; keep <b>bold</b>, a break<br>and <Badge>new</Badge> as written.',
            '',
            '```ts',
            'const sessions: Array<Session> = await listMySessions();',
            '```',
            '',
            '[1]: https://developer.mozilla.org/docs/Web/JavaScript/Reference/Global_Objects/Promise',
          ].join('\n'),
        ],
      ],
    );
    // A page that closes the tag uses it as an element: as written.
    assert.equal(kb.passages.find((p) => p.document.path === 'Note.md')!.markdown, 'A <Note> on its own, closed later: </Note>.');
  });

  it('quotes and indexes the name as text, no tag left to read as markup', async () => {
    const kb = await pages.load();
    const returns = kb.passages.find((p) => p.document.path === 'FrontendApi.md' && p.headings[0] === 'Return type')!;
    const { answer } = composeAnswer([returns], true);
    assert.match(answer, /\*\*Array\\<Session\\>\*\*/);
    assert.doesNotMatch(answer.replace(/```[\s\S]*?```|`[^`\n]*`/g, ''), /(?<!\\)<(?:Session|string|platform)>/);
    await pages.indexed((retriever) => {
      const found = retriever.search('session');
      assert.ok(found.some((hit) => hit.passage.document.path === 'FrontendApi.md' && hit.passage.headings[0] === 'Return type'), 'the return type is found by its element type');
    });
  });
});

describe('names escaped on their left only', () => {
  // As a CLI reference writes a placeholder in prose, and as a generated client writes a type
  // argument with character references.
  const pages = pagesFolder('left-escaped', {
    'test.md': '# Test\n\nSave test output to the \\<OUTPUT_FILE_PATH> file; a \\<div> is text too, and so is `\\<CODE>`.\n',
    'MmsMessageContent.md': [
      '# MmsMessageContent',
      '',
      '## Properties',
      '',
      'Name | Type | Description',
      '------------ | ------------- | -------------',
      '**media** | [**Array&lt;MmsMessageContentFile&gt;**](MmsMessageContentFile.md) | The files.',
    ].join('\n'),
  });

  it('writes the name escaped on both sides, read and rendered as the same text', async () => {
    const kb = await pages.load();
    const markdownOf = (path: string): string => kb.passages.find((p) => p.document.path === path)!.markdown;
    assert.equal(markdownOf('test.md'), 'Save test output to the \\<OUTPUT_FILE_PATH\\> file; a \\<div\\> is text too, and so is `\\<CODE>`.');
    const row = markdownOf('MmsMessageContent.md').split('\n')[2];
    assert.equal(row, '**media** | [**Array\\<MmsMessageContentFile\\>**](MmsMessageContentFile.md) | The files.');
    // Read as CommonMark reads it (the element's renderer is marked): text, no tag.
    const paragraph = new Lexer().lex(markdownOf('test.md'))[0] as Tokens.Paragraph;
    assert.deepEqual(paragraph.tokens.filter((t) => t.type === 'html'), []);
    assert.equal(paragraph.tokens.map((t) => ('text' in t ? t.text : '')).join(''), 'Save test output to the <OUTPUT_FILE_PATH> file; a <div> is text too, and so is \\<CODE>.');
    const table = new Lexer().lex(markdownOf('MmsMessageContent.md')).find((t) => t.type === 'table') as Tokens.Table;
    assert.equal(table.rows[0]![1]!.tokens[0]!.type, 'link');
    assert.equal((table.rows[0]![1]!.tokens[0] as Tokens.Link).tokens.map((t) => t.type).join(), 'strong');
    const { answer } = composeAnswer(kb.passages.filter((p) => p.document.path === 'test.md'), true);
    assert.doesNotMatch(answer.replace(/`[^`\n]*`/g, ''), /<[A-Za-z]\w*>/);
  });
});

describe('a tab in a table\'s delimiter row', () => {
  // As the Dash SDK's tables of parameters write it: GitHub shows the table, marked read text.
  const pages = pagesFolder('delimiter-tabs', {
    'get.md': [
      '# get',
      '',
      '| parameters        | type    | required            | Description   |  ',
      '|-------------------|---------|------------------\t| -------------\t|',
      '| **identifier**    | string  | yes                 | Will fetch back the contract matching the identifier |',
      '',
      'Not a table:',
      '',
      '| one cell |',
      '|---\t|---|',
      '',
      '```md',
      '| a | b |',
      '|---|---\t|',
      '```',
    ].join('\n'),
  });

  it('is read as a space, so the element renders the table; other lines and code stay as written', async () => {
    const kb = await pages.load();
    const markdown = kb.passages[0]!.markdown;
    const tokens = new Lexer().lex(markdown);
    const table = tokens.find((t) => t.type === 'table') as Tokens.Table;
    assert.deepEqual(table.header.map((cell) => cell.text), ['parameters', 'type', 'required', 'Description']);
    assert.equal(table.rows[0]![3]!.text, 'Will fetch back the contract matching the identifier');
    assert.ok(markdown.includes('|---\t|---|'), 'a row under a header of other cells is no delimiter row');
    assert.ok(markdown.endsWith('```md\n| a | b |\n|---|---\t|\n```'), 'code is never touched');
  });
});

describe('table rows with pipes in a link text', () => {
  // As OpenAPI Generator's TypeScript clients write an enum parameter in a table of parameters.
  const pages = pagesFolder('overflowing-rows', {
    'OrdersApi.md': [
      '# OrdersApi',
      '',
      '|Name | Type | Description  | Notes|',
      '|------------- | ------------- | ------------- | -------------|',
      "| **status** | [**&#39;resting&#39; | &#39;canceled&#39;**]**Array<&#39;resting&#39; &#124; &#39;canceled&#39;>** | Restricts the response to orders that have a certain status | (optional) defaults to undefined|",
      '| **limit** | [**number**] | How many | (optional)|',
      '| **kind** | [**a | b**] | one | two | three |',
      '',
      '```md',
      '| **x** | [**a | b**] | code | as written |',
      '```',
    ].join('\n'),
  });

  it('escapes the pipes a row overflows its header by, so the description is read and rendered in its cell', async () => {
    const kb = await pages.load();
    const lines = kb.passages[0]!.markdown.split('\n');
    assert.equal(lines[2], "| **status** | [**'resting' \\| 'canceled'**]**Array<'resting' \\| 'canceled'>** | Restricts the response to orders that have a certain status | (optional) defaults to undefined|");
    assert.equal(lines[3], '| **limit** | [**number**] | How many | (optional)|');
    // Two cells too many whatever is escaped: not the generator's slip, left as written; code too.
    assert.equal(lines[4], '| **kind** | [**a | b**] | one | two | three |');
    assert.equal(lines[7], '| **x** | [**a | b**] | code | as written |');
    // Read as the element's renderer reads it (marked's lexer, GFM): four cells, the description third.
    const table = new Lexer().lex(kb.passages[0]!.markdown).find((t) => t.type === 'table') as Tokens.Table;
    assert.deepEqual(
      table.rows[0]!.map((cell) => cell.text),
      ['**status**', "[**'resting' | 'canceled'**]**Array<'resting' | 'canceled'>**", 'Restricts the response to orders that have a certain status', '(optional) defaults to undefined'],
    );
    assert.deepEqual(table.rows[0]![1]!.tokens.map((t) => t.type), ['text', 'strong', 'text', 'strong']);
  });
});

describe('navigation rows', () => {
  // As OpenAPI Generator closes each method and model of a client's reference.
  const PAGE = [
    '# **getWebAuthnJavaScript**',
    '',
    'Serves the WebAuthn script.',
    '',
    '[[Back to top]](#) [[Back to API list]](../README.md#documentation-for-api-endpoints) [[Back to Model list]](../README.md#documentation-for-models) [[Back to README]](../README.md)',
    '',
    '# **listCourierMessages**',
    '',
    'Lists messages. See [the models](../README.md#documentation-for-models) and [the top](#).',
    '',
    '[Home](../README.md) [Install](./index.md#install)',
    '',
    '- [Back to top](#)',
    '',
    '```md',
    '[[Back to top]](#) [[Back to README]](../README.md)',
    '```',
  ].join('\n');
  const pages = pagesFolder('navigation', { 'FrontendApi.md': PAGE });

  it('leaves out a line of links back to the top or an index, outside code; links in text stay', async () => {
    const kb = await pages.load();
    assert.deepEqual(
      kb.passages.map((p) => [p.headings, p.markdown]),
      [
        [['**getWebAuthnJavaScript**'], 'Serves the WebAuthn script.'],
        [
          ['**listCourierMessages**'],
          'Lists messages. See [the models](../README.md#documentation-for-models) and [the top](#).\n\n- [Back to top](#)\n\n```md\n[[Back to top]](#) [[Back to README]](../README.md)\n```',
        ],
      ],
    );
  });
});

describe("a site's navigation file", () => {
  // docsify builds `_sidebar.md` into every page: a list of links and labels, no page of its own.
  const SIDEBAR = [
    '- Getting started',
    '    - [Quick start](getting-started/quickstart.md)',
    '',
    '- Usage',
    '    - **Identities**',
    '        - [`.register()`](platform/identities/register.md)',
    '- [License](LICENSE)',
  ].join('\n');
  const pages = pagesFolder('navigation-file', {
    '_sidebar.md': SIDEBAR,
    '_notes.md': '# Notes\n\n- [Quick start](quickstart.md) is short.\n- Register first.',
    'guides.md': '# Guides\n\n- [Quick start](quickstart.md)\n- [Register](register.md)',
    'quickstart.md': '# Quick start\n\nRegister an identity first.',
  });

  it('is left out, saying why; a partial that says something, and a page listing pages, are pages', async () => {
    const kb = await pages.load();
    assert.deepEqual(kb.documents.map((d) => d.path), ['_notes.md', 'guides.md', 'quickstart.md']);
    assert.deepEqual(kb.skipped, [{ path: '_sidebar.md', reason: "a site's navigation (a list of links the site builds into its pages), not a page" }]);
    const index = await KbIndex.open({ dir: pages.dir, settings: resolveSettings(pages.dir, SITE), folder: pages.folder, botId: 'navigation-file' });
    try {
      await index.sync();
      assert.deepEqual(index.skipped().map((f) => f.path), ['_sidebar.md']);
    } finally {
      index.close();
    }
  });
});

describe('a navigation button alone', () => {
  // As OpenAPI Generator closes each model page of some clients (Xendit's).
  const MODEL = [
    '# Refund',
    '',
    '## Properties',
    '',
    '| Name | Type |',
    '|---|---|',
    '| **id** | string |',
    '',
    '',
    '[[Back to README]](../../README.md)',
    '',
    '## Authorization',
    '',
    '[Apikey](../README.md#Apikey)',
  ].join('\n');
  const pages = pagesFolder('button', { 'Refund.md': MODEL });

  it('leaves out one bracketed link back to an index on its line; a plain link alone stays', async () => {
    const kb = await pages.load();
    assert.deepEqual(
      kb.passages.map((p) => [p.headings, p.markdown]),
      [
        [['Properties'], '| Name | Type |\n|---|---|\n| **id** | string |'],
        [['Authorization'], '[Apikey](../README.md#Apikey)'],
      ],
    );
  });
});

describe('a section opening with an indented code block', () => {
  // As the Xendit client's reference lists an enum's values: indented four spaces under the heading.
  const ENUM = [
    '# TransactionTypes',
    '',
    '## Enum',
    '',
    '',
    "    * `Payment` (value: `'PAYMENT'`)",
    '',
    "    * `Refund` (value: `'REFUND'`)",
    '',
    'If you encounter `UNKNOWN_ENUM_VALUE`, upgrade.',
  ].join('\n');
  const pages = pagesFolder('indented', { 'TransactionTypes.md': ENUM });

  it('quotes it as the code block it is, not as a list nested in its first line', async () => {
    const kb = await pages.load();
    const { answer } = composeAnswer([kb.passages[0]!], true);
    const tokens = new Lexer({ gfm: true }).lex(answer).filter((t) => t.type !== 'space');
    assert.deepEqual(tokens.map((t) => t.type), ['paragraph', 'code', 'paragraph']);
    assert.equal((tokens[1] as Tokens.Code).text, "* `Payment` (value: `'PAYMENT'`)\n\n* `Refund` (value: `'REFUND'`)");
  });
});

describe('a table of methods', () => {
  const PAGE = [
    '# Payout',
    '',
    '| Method | HTTP request | Description |',
    '| ------------- | ------------- | ------------- |',
    '| [**cancelPayout()**](Payout.md#cancelpayout-function) | **POST** /v2/payouts/{id}/cancel | API to cancel requested payouts |',
    '| [**getPayout()**](#getpayout-function) | **GET** /v2/payouts/{id} | Get a payout by its id |',
    '| [**getPayouts()**](Payout.md#getpayouts-function) | **GET** /v2/payouts | |',
    '| [**listChannels()**](Other.md#listchannels-function) | **GET** /channels | List the channels |',
    '| [**missing()**](#missing-function) | **GET** /missing | A section this page lacks |',
    '| [split](#ids) | The coin to split from |',
    '| [merge](#ids) | The coin to merge into |',
    '',
    '## `cancelPayout()` Function',
    '',
    '### Function Signature',
    '',
    '## `getPayout()` Function',
    '',
    'Get a payout by its id, as sent.',
    '',
    '## `getPayouts()` Function',
    '',
    '## Ids',
    '',
    'An object is named by its id.',
    '',
    '```md',
    '| [**getPayouts()**](#getpayouts-function) | **GET** | Not this one |',
    '```',
  ].join('\n');
  const pages = pagesFolder('methods', { 'Payout.md': PAGE });

  it("reads a row's description as the first line of the section of this page it links to, if the section lacks it", async () => {
    const kb = await pages.load();
    const section = (heading: string): string | undefined => kb.passages.find((p) => p.headings.at(-1) === heading)?.markdown;
    assert.equal(section('`cancelPayout()` Function'), 'API to cancel requested payouts');
    // Said already, no description, another page, two rows to one section, a row in code: nothing added.
    assert.equal(section('`getPayout()` Function'), 'Get a payout by its id, as sent.');
    assert.equal(section('`getPayouts()` Function'), undefined);
    assert.equal(section('Ids'), 'An object is named by its id.\n\n```md\n| [**getPayouts()**](#getpayouts-function) | **GET** | Not this one |\n```');
    assert.match(kb.passages[0]!.markdown, /^\| Method \| HTTP request \| Description \|/);
  });
});

describe('composing answers', () => {
  const passage = (markdown: string, headings: string[] = []): Passage => ({
    index: 0,
    headings,
    markdown,
    url: 'https://x.example.com/a b(1)',
    document: { index: 0, path: 'a.md', body: markdown, anchors: false, source: { title: 'Doc (draft)', url: 'https://x.example.com/a b(1)' } },
  });

  it('escapes spaces and parentheses in citation links', () => {
    const { answer } = composeAnswer([passage('Text.', ['Part'])], true);
    assert.equal(answer, '**Doc (draft) › Part** [[1]](https://x.example.com/a%20b%281%29)\n\nText.');
  });

  it('makes short plain-text snippets', () => {
    assert.equal(snippetOf('**Bold** and `code` with a [link](https://x.example.com).\n\n- item'), 'Bold and code with a link. item');
    const long = snippetOf('word '.repeat(100));
    assert.ok(long.length <= 201 && long.endsWith('…'));
  });
});

describe('search', () => {
  it('stems (Porter, from the stemmer package) so forms of a word meet', () => {
    const same: string[][] = [
      ['book', 'books', 'booking', 'booked'],
      ['policy', 'policies'],
      ['branch', 'branches'],
      ['approve', 'approval', 'approvals'],
      ['name', 'naming'],
      ['ship', 'shipped', 'shipping'],
    ];
    for (const forms of same) assert.equal(new Set(forms.map(stem)).size, 1, forms.join(' '));
    assert.equal(stem('2026'), '2026');
  });

  it('finds compounds written apart, and words joined by hyphens, in one pass', () => {
    const { words, pairs, chains } = scanWords('Roll back the e-mail, then log in: an end-to-end set-up of configuration files, back a');
    assert.deepEqual(words.slice(0, 4), ['Roll', 'back', 'the', 'e']);
    assert.deepEqual(
      pairs.map((p) => p.joined),
      ['Rollback', 'backthe', 'email', 'login', 'endto', 'toend', 'endset', 'setup'],
      'not after a stop word (the e, in an), not across punctuation (mail, then), not with a word over 7 letters (configuration), not before one letter (back a)',
    );
    assert.deepEqual(pairs[0]!.parts, ['Roll', 'back']);
    assert.deepEqual(chains, ['endtoend']);
  });

  describe('over the fixture folder, indexed on disk', () => {
    let folder: string;
    let index: KbIndex;
    let retriever: Retriever;
    before(async () => {
      folder = await mkdtemp(join(tmpdir(), 'answer-index-'));
      index = await KbIndex.open({ dir: FIXTURE_KB, settings: resolveSettings(FIXTURE_KB), folder, botId: 'demo' });
      await index.sync();
      retriever = new Retriever(index);
    });
    after(async () => {
      index.close();
      await rm(folder, { recursive: true, force: true });
    });

    it('has nothing to match in a question of stop words, and survives words that are object keys', () => {
      assert.deepEqual(retriever.search('What is it that you are?'), []);
      assert.deepEqual(retriever.relevant('constructor toString __proto__ hasOwnProperty valueOf'), []);
    });

    it('finds the passage a question is about, and scores partial matches lower', () => {
      const [best] = retriever.relevant('How do I book a flight?');
      assert.deepEqual(best?.passage.headings, ['Booking flights']);
      assert.equal(best?.coverage, 1);
      // A typo fixed is the docs' own word, matched in full; a beginning of a word may be another word's, and counts half.
      const typo = retriever.search('How do I book a fllight?').find((hit) => hit.passage.index === best!.passage.index);
      assert.equal(typo?.coverage, 1, 'a typo fixed counts in full');
      const begun = retriever.search('How do I book a fligh?').find((hit) => hit.passage.index === best!.passage.index);
      assert.ok(begun && begun.coverage < 1 && begun.coverage > 0.5, 'a beginning counts half');
    });
  });
});
