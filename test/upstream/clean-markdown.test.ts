import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanInline, cleanMarkdown, linkDefinitions } from '../../packages/bot-answer-engine/src/upstream/folder/clean-markdown.js';

const clean = (...lines: string[]): string => cleanMarkdown(lines.join('\n'));

describe('cleaning Markdown: HTML comments', () => {
  it("drops Node's YAML history block, and keeps what follows", () => {
    const text = clean(
      '<!-- YAML',
      'added: v0.3.6',
      'changes:',
      '  - version: v16.7.0',
      '    pr-url: https://github.com/nodejs/node/pull/39310',
      '    description: Support for a `URL` object.',
      '-->',
      '',
      '* `timeout` {number}: the socket timeout.',
    );
    assert.equal(text, '* `timeout` {number}: the socket timeout.');
  });

  it('drops a comment inside a paragraph, over lines, and keeps the text around it', () => {
    assert.equal(clean('Before <!-- a note\nover two lines --> after.'), 'Before  after.');
    assert.equal(clean('<!--introduced_in=v0.10.0-->', 'Text.'), 'Text.');
    assert.equal(clean('<!-- one --> Kept on the line.'), 'Kept on the line.');
  });

  it('a comment opening a block hides a fence inside it', () => {
    assert.equal(clean('<!--', '```js', 'old()', '```', '-->', 'New text.'), 'New text.');
  });

  it('never touches a fence or a code span holding comment markers', () => {
    const fence = ['```html', '<!-- kept -->', '<a id="kept"></a>', '[kept]: https://kept.example.com', '```'];
    assert.equal(clean(...fence), fence.join('\n'));
    const tilde = ['~~~', '<!--', 'still code', '~~~'];
    assert.equal(clean(...tilde), tilde.join('\n'));
    const inList = ['* item', '', '      ```html', '      <!-- in a list item -->', '      ```'];
    assert.equal(clean(...inList), inList.join('\n'));
    assert.equal(clean('Write `<!-- x -->` to hide text.'), 'Write `<!-- x -->` to hide text.');
    assert.equal(clean('Two ``a `<!--` b`` spans.'), 'Two ``a `<!--` b`` spans.');
  });

  it('comments do not nest: the first end closes, and a stray end marker is no text either', () => {
    assert.equal(clean('<!-- a <!-- b --> c -->'), 'c');
    assert.equal(clean('Text --> more.'), 'Text  more.');
  });

  it('an unclosed comment hides the rest: of the page at a block start, of the paragraph inside one', () => {
    assert.equal(clean('Kept.', '', '<!-- never closed', '', 'Hidden.'), 'Kept.');
    assert.equal(clean('Kept <!-- never closed', 'hidden.', '', 'Next paragraph.'), 'Kept \n\nNext paragraph.');
  });

  it('an escaped marker is text', () => {
    assert.equal(clean('Type \\<!-- to start a comment.'), 'Type \\<!-- to start a comment.');
  });
});

describe('cleaning Markdown: metadata, MDX and site-generator markup', () => {
  it('drops a YAML or TOML metadata block opening the text, not a rule around prose', () => {
    assert.equal(clean('---', 'title: Setup', 'tags: [a, b]', '---', 'Body.'), 'Body.');
    assert.equal(clean('+++', 'title = "Setup"', '+++', 'Body.'), 'Body.');
    assert.equal(clean('---', 'A sentence, not metadata.', '---', 'Body.'), '---\nA sentence, not metadata.\n---\nBody.');
  });

  it('drops ESM statements (one line or several) and component lines, keeping the text between tags', () => {
    const text = clean(
      "import Tabs from '@theme/Tabs';",
      'import {',
      '  TabItem,',
      "} from '@theme/TabItem';",
      'export const meta = { sidebar: true };',
      '',
      '<Tabs groupId="os">',
      '<TabItem value="npm" label="npm">',
      '',
      'Install it with npm.',
      '',
      '</TabItem>',
      '</Tabs>',
      '{/* a JSX comment */}',
      '<Note type="tip" onClick={() => a > b} />',
    );
    assert.equal(text, 'Install it with npm.');
  });

  it('drops a component tag whose attributes run over several lines, template literals and blank lines in them', () => {
    const text = clean(
      '## Parameters',
      '',
      '<TSDoc',
      'definition={`',
      'interface Parameters {',
      '  /**',
      '',
      '   * The class instance to serialize.',
      '   */',
      '  instance: T;',
      '}',
      '`}',
      'showSections={["returns"]} />',
      '',
      '<Callout',
      '  type="warning">',
      '',
      'Keep the serializer pure.',
      '',
      '</Callout>',
    );
    assert.equal(text, '## Parameters\n\nKeep the serializer pure.');
  });

  it('keeps a line opening with a tag-like word followed by prose, and an unclosed one', () => {
    assert.equal(clean('<T> is the type of the value.'), '<T> is the type of the value.');
    assert.equal(clean('<Foo', '', 'Some text.'), '<Foo\n\nSome text.');
  });

  it('keeps prose that starts with "import", generics in text, and MDX inside code', () => {
    assert.equal(clean('import the module before use.'), 'import the module before use.');
    assert.equal(clean('Returns `Promise` of Array<Dispatcher> values.'), 'Returns `Promise` of Array<Dispatcher> values.');
    const code = ['```jsx', "import Tabs from '@theme/Tabs';", '<Tabs>kept</Tabs>', '```'];
    assert.equal(clean(...code), code.join('\n'));
  });

  it('turns admonitions and GitHub alerts into a bold label, and drops generator markers', () => {
    assert.equal(clean(':::tip Good to know', 'Cache it.', ':::'), '**Good to know**\n\nCache it.');
    assert.equal(clean(':::warning', 'Careful.', ':::'), '**Warning**\n\nCareful.');
    assert.equal(clean(':::note[Heads up]', 'Read this.', ':::'), '**Heads up**\n\nRead this.');
    assert.equal(clean('> [!IMPORTANT]', '> Back up first.'), '> **Important**\n> Back up first.');
    assert.equal(clean('[[toc]]', '{% include nav.html %}', '{: .note}', 'Text.'), 'Text.');
  });

  it("takes an admonition's title from its directive attribute, and keeps it in the list item it is in", () => {
    assert.equal(clean(':::warning{title="Security Notice"}', '', 'Never commit keys.', '', ':::'), '**Security Notice**\n\nNever commit keys.');
    assert.equal(clean(":::tip{title='Hot tip' icon=\"x\"}", 'Try it.', ':::'), '**Hot tip**\n\nTry it.');
    assert.equal(clean(':::note{.wide}', 'Wide.', ':::'), '**Note**\n\nWide.');
    assert.equal(clean(':::tip[Label]{title="Other"}', 'Text.', ':::'), '**Label**\n\nText.');
    const steps = clean('1. **Plan**', '', '   Write it down.', '', '   :::info', '', '   Gather what you need first.', '', '   :::', '', '1. **Build**');
    assert.equal(steps, '1. **Plan**\n\n   Write it down.\n\n   **Info**\n\n   Gather what you need first.\n\n1. **Build**');
  });
});

describe('cleaning Markdown: links, badges and HTML', () => {
  it('drops link reference definitions and makes their references inline', () => {
    const text = clean(
      'See [the guide][guide], the [Guide][] itself, [guide] alone, and ![logo][img].',
      '',
      '[guide]: https://example.com/guide "The guide"',
      '[img]: <https://example.com/a logo.png>',
    );
    assert.equal(
      text,
      'See [the guide](https://example.com/guide "The guide"), the [Guide](https://example.com/guide "The guide") itself, [guide](https://example.com/guide "The guide") alone, and ![logo](<https://example.com/a logo.png>).',
    );
  });

  it('resolves references with the definitions of the whole page, and leaves undefined ones and footnotes', () => {
    const page = 'Intro.\n\n[api]: https://example.com/api\n[^1]: A footnote.';
    const definitions = linkDefinitions(page);
    assert.deepEqual([...definitions.keys()], ['api']);
    assert.equal(cleanMarkdown('Read the [API][api] and [nothing][none].', { definitions }), 'Read the [API](https://example.com/api) and [nothing][none].');
    assert.equal(clean('Text.[^1]', '', '[^1]: A footnote.'), 'Text.[^1]\n\n[^1]: A footnote.');
    assert.equal(cleanInline('fastify< [RawServer][RawServerGeneric]>', new Map([['rawservergeneric', { url: '#rawserver' }]])), 'fastify< [RawServer](#rawserver)>');
  });

  it('drops the component tags a site renders inside a line, and keeps types in angle brackets', () => {
    // VuePress' and VitePress' badge in a heading of a `.md` page (CodeceptJS' docs).
    assert.equal(cleanInline('Run Rerun <Badge text="Since 3.3.6" type="warning"/>'), 'Run Rerun');
    assert.equal(cleanInline('My Page <Badge>New</Badge>'), 'My Page New');
    assert.equal(cleanMarkdown('Pause a test <Tip id="x" /> and go on.'), 'Pause a test  and go on.');
    assert.equal(cleanInline('semanticRelease([options]) => Promise<Result>'), 'semanticRelease([options]) => Promise<Result>');
    assert.equal(cleanInline('Map<K, V> or Schedule<T = string>'), 'Map<K, V> or Schedule<T = string>');
    assert.equal(cleanInline('Use `<Image src="a" />` here'), 'Use `<Image src="a" />` here');
  });

  it('drops badges, linked or not, inline or by reference, and keeps other images', () => {
    const text = clean(
      '[![npm](https://img.shields.io/npm/v/x.svg)](https://npm.im/x) [![CI](https://github.com/o/r/actions/workflows/ci.yml/badge.svg)](https://github.com/o/r/actions)',
      '![coverage](https://codecov.io/gh/o/r/branch/main/graph/badge.svg)',
      '[![Downloads][downloads-badge]][downloads]',
      '',
      'A fast library. ![diagram](https://example.com/diagram.png)',
      '',
      '[downloads-badge]: https://badgen.net/npm/dm/x',
      '[downloads]: https://npmjs.com/x',
    );
    assert.equal(text, 'A fast library. ![diagram](https://example.com/diagram.png)');
  });

  it('drops HTML anchors and tags, keeping their text; links, code and pre become Markdown', () => {
    assert.equal(clean('### Factory', '<a id="factory"></a>', '', 'Text.'), '### Factory\n\nText.');
    assert.equal(clean('<a name="top"></a>Top.'), 'Top.');
    assert.equal(clean('See <a href="https://example.com/a b">the site</a> or <a href="./local.md">this page</a>.'), 'See [the site](https://example.com/a%20b) or this page.');
    assert.equal(clean('Press <kbd>Ctrl</kbd>+<kbd>C</kbd>,<br>then <code>q</code>.'), 'Press Ctrl+C, then `q`.');
    assert.equal(clean('<p align="center">', '  <img src="logo.png" alt="Logo">', '</p>', '', 'Body.'), 'Body.');
    assert.equal(clean('<details>', '<summary>More</summary>', '', 'Hidden text.', '</details>'), 'More\n\nHidden text.');
    assert.equal(clean('<pre><code>a &lt; b', 'c</code></pre>'), '```\na < b\nc\n```');
    assert.equal(clean('Before.<script>alert("x")</script><style>p{}</style> After.'), 'Before. After.');
    assert.equal(clean('Replace <your-token> and mail <me@example.com> or <https://example.com>.'), 'Replace <your-token> and mail <me@example.com> or <https://example.com>.');
  });
});

describe('cleaning Markdown: text as it comes', () => {
  it('reads CRLF and a byte-order mark, and keeps Unicode as written', () => {
    assert.equal(cleanMarkdown('\uFEFFLine one\r\n<!-- c -->\r\nLine two'), 'Line one\nLine two');
    const unicode = 'Le mot de passe est « Crème‑Guest » 🍵 — 日本語の文。 שלום עולם.';
    assert.equal(clean(unicode), unicode);
    assert.equal(clean('Private use \uE000 and \uE001 characters stay: \uE0000\uE001.'), 'Private use \uE000 and \uE001 characters stay: \uE0000\uE001.');
  });

  it('keeps every code block byte for byte, and is idempotent', () => {
    const code = ['```js', 'const a = "<!-- x -->"; // [x]: y', '', '', '    indented <b>tag</b>', '```'].join('\n');
    const text = ['# T', '<!-- c -->', 'Intro <b>bold</b>.', '', code, '', '    indented code <!-- kept -->', '', '[x]: https://x.example.com'].join('\n');
    const once = cleanMarkdown(text);
    assert.ok(once.includes(code), once);
    assert.ok(once.includes('    indented code <!-- kept -->'), once);
    assert.equal(cleanMarkdown(once), once);
  });

  it('survives hostile input: unclosed tags, quotes, brackets and backticks by the thousand', () => {
    const hostile = [
      '<a '.repeat(20_000),
      '['.repeat(20_000),
      '`'.repeat(5_000) + 'x',
      '<script '.repeat(5_000),
      '<div     '.repeat(5_000),
      '<!-'.repeat(10_000),
      '<a href="'.repeat(10_000),
      '<A\n'.repeat(20_000),
      '[![a](https://img.shields.io/b)](c) '.repeat(5_000),
    ].join('\n\n');
    const text = cleanMarkdown(hostile);
    assert.ok(text.length > 0 && text.length <= hostile.length);
  });
});
