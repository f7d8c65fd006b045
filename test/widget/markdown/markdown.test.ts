import { expect } from '@open-wc/testing';
import { exceedsCaps } from '../../../packages/bot-answer/src/widget/markdown/markdown.js';
import { sanitize } from '../../../packages/bot-answer/src/widget/markdown/sanitizer.js';
import { dangerous, render } from './helpers.js';

describe('renderMarkdown', () => {
  it('renders the GFM an answer uses', () => {
    const el = render(
      '# Title\n\nSome *em*, **strong**, ~~gone~~ and `code`.\n\n- one\n- two\n  1. nested\n\n> quoted\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n\n---\nline  \nbreak',
    );
    for (const sel of ['h1', 'p em', 'p strong', 'p del', 'p code', 'ul > li > ol > li', 'blockquote > p', 'table thead th[align="left"]', 'td[align="right"]', 'hr', 'br']) {
      expect(el.querySelector(sel), sel).to.exist;
    }
    expect(el.querySelector('h1')!.id).to.equal('');
  });

  it('shows raw HTML in the Markdown as text, block and inline', () => {
    const el = render('<div class="x" id="y">block</div>\n\nsome <b onclick="alert(1)">bold</b> text');
    expect(el.querySelector('div, b, [class], [id]')).to.equal(null);
    expect(el.textContent).to.contain('<div class="x" id="y">block</div>').and.contain('<b onclick="alert(1)">bold</b>');
  });

  it('shows a name the engine escaped as text (a type argument, a placeholder), bold or in a table', () => {
    const el = render('> Array\\<Session\\> listMySessions()\n\n**Array\\<Session\\>** and App_Resources/\\<platform\\>\n\n| Type |\n| --- |\n| **Array\\<string\\>** |');
    expect(el.querySelector('blockquote')!.textContent!.trim()).to.equal('Array<Session> listMySessions()');
    expect([...el.querySelectorAll('strong')].map((s) => s.textContent)).to.deep.equal(['Array<Session>', 'Array<string>']);
    expect(el.querySelector('p:not(blockquote p)')!.textContent).to.equal('Array<Session> and App_Resources/<platform>');
    expect(el.querySelector('session, string, platform')).to.equal(null);
    expect(el.textContent).not.to.contain('\\');
  });

  it("keeps an admonition's label, as the engine quotes it inside a list item, in that item", () => {
    const el = render('1. **Plan**\n\n   Write it down.\n\n   **Info**\n\n   Gather what you need first.\n\n1. **Build**');
    const items = [...el.querySelectorAll('ol > li')];
    expect(el.querySelectorAll('ol').length).to.equal(1);
    expect(items.map((li) => li.querySelector('strong')!.textContent)).to.deep.equal(['Plan', 'Build']);
    expect([...items[0]!.querySelectorAll('p strong')].map((s) => s.textContent)).to.deep.equal(['Plan', 'Info']);
    expect(items[0]!.textContent).to.contain('Gather what you need first.');
  });

  it('shows a section the engine quotes opening with an indented code block as that block, not as a nested list', () => {
    const el = render("**TransactionTypes › Enum**\n\n    * `Payment` (value: `'PAYMENT'`)\n\n    * `Refund` (value: `'REFUND'`)\n\nIf you encounter `UNKNOWN_ENUM_VALUE`, upgrade.");
    expect(el.querySelector('ul')).to.equal(null);
    expect(el.querySelector('pre code')!.textContent).to.equal("* `Payment` (value: `'PAYMENT'`)\n\n* `Refund` (value: `'REFUND'`)\n");
    expect(el.querySelector('pre + p')!.textContent).to.equal('If you encounter UNKNOWN_ENUM_VALUE, upgrade.');
  });

  it('keeps http(s) and mailto links, opening in a new tab; drops other schemes and relative URLs but keeps their text', () => {
    const el = render('[a](https://a.example/p?q=1&r=2) [b](http://b.example) [m](mailto:x@y.example) [r](/rel) [p](//evil.example) [j](javascript:alert(1)) <https://auto.example> www.bare.example');
    const links = [...el.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal([
      'https://a.example/p?q=1&r=2', 'http://b.example', 'mailto:x@y.example', 'https://auto.example', 'http://www.bare.example',
    ]);
    for (const a of links) {
      expect(a.target).to.equal('_blank');
      expect(a.rel).to.equal('noopener noreferrer');
    }
    expect(el.textContent).to.contain(' r p j ');
  });

  it('renders images only when allowed (https, lazy, no referrer); otherwise as a link to the image', () => {
    const src = '![a cat](https://img.example/cat.png "Cat") ![insecure](http://img.example/x.png)';
    const off = render(src);
    expect(off.querySelector('img')).to.equal(null);
    expect(off.querySelector('a[href="https://img.example/cat.png"]')!.textContent).to.equal('a cat');
    const on = render(src, { images: true });
    const imgs = on.querySelectorAll('img');
    expect(imgs.length).to.equal(1);
    expect(imgs[0].getAttribute('src')).to.equal('https://img.example/cat.png');
    expect(imgs[0].alt).to.equal('a cat');
    expect(imgs[0].getAttribute('loading')).to.equal('lazy');
    expect(imgs[0].getAttribute('referrerpolicy')).to.equal('no-referrer');
    expect(on.textContent).to.contain('insecure');
  });

  it('renders code blocks as a focusable <pre><code class="language-x"> with the code as text', () => {
    const el = render('```js\nif (a < b && c) {}\n```\n\n```\nplain\n```\n\n```js" onclick="alert(1)\nx\n```');
    const [js, plain, hostile] = el.querySelectorAll('pre');
    expect(js.tabIndex).to.equal(0);
    expect(js.firstElementChild!.className).to.equal('language-js');
    expect(js.textContent).to.equal('if (a < b && c) {}\n');
    expect(plain.firstElementChild!.hasAttribute('class')).to.equal(false);
    // An info string that is not a plain name loses the class altogether.
    expect(hostile.firstElementChild!.hasAttribute('class')).to.equal(false);
    expect(hostile.textContent).to.equal('x\n');
    expect(dangerous(el)).to.deep.equal([]);
  });

  it('turns inline citations into numbered superscript links, http(s) only', () => {
    const el = render('Paris is the capital[[1]](https://a.example/fr) and big[[12]](http://b.example/x).[[3]](javascript:alert(1))');
    const cites = [...el.querySelectorAll('sup > a.citation')] as HTMLAnchorElement[];
    expect(cites.map((a) => [a.dataset.citation, a.textContent, a.getAttribute('href'), a.target])).to.deep.equal([
      ['1', '1', 'https://a.example/fr', '_blank'],
      ['12', '12', 'http://b.example/x', '_blank'],
    ]);
    expect(el.querySelectorAll('a').length).to.equal(2);
    expect(el.textContent).to.contain('[3]');
  });

  it('renders task lists without form controls', () => {
    const el = render('- [x] done\n- [ ] todo');
    expect(el.querySelector('input')).to.equal(null);
    expect(el.textContent).to.contain('\u2611 done').and.contain('\u2610 todo');
  });

  it('lays plain text out in pieces, whole and in order, each ending at a white space where one is near', () => {
    const word = 'x'.repeat(1_000_000);
    const prose = 'Receipts are kept for one year. '.repeat(7000);
    for (const src of [word, prose, `${prose}${word} tail`]) {
      const p = render(src).firstElementChild!;
      const pieces = [...p.children];
      expect(p.className).to.equal('plain');
      expect(pieces.map((s) => s.localName)).to.deep.equal(pieces.map(() => 'span'));
      expect(pieces.map((s) => s.textContent).join('')).to.equal(src);
      expect(Math.max(...pieces.map((s) => s.textContent!.length))).to.be.at.most(10_000);
    }
    const pieces = [...render(prose).firstElementChild!.children];
    expect(pieces.length).to.be.above(1);
    for (const s of pieces.slice(0, -1)) expect(s.textContent).to.match(/\s$/);
  });

  it('renders each pathological input of the test vectors, deep or dense ones as plain text (never through the parser)', () => {
    const list = Array.from({ length: 1000 }, (_, i) => `${'  '.repeat(i)}- a`).join('\n');
    const vectors: [string, boolean][] = [
      // One word over 5,000 characters: plain text that scrolls (Chromium wraps long words in quadratic time).
      ['A'.repeat(100_000), true],
      [`${'> '.repeat(2000)}a`, true],
      [list, true],
      ['_a'.repeat(20_000), true],
      ['<div>'.repeat(10_000), true],
      ['[a]('.repeat(10_000), true],
      // More shapes known to be slow in Markdown parsers.
      [`${' '.repeat(100_000)}- a`, true],
      ['*'.repeat(50_000), true],
      [`${'| a '.repeat(2000)}|\n${'|---'.repeat(2000)}|\n${'| 1 '.repeat(2000)}|`, true],
      ['a\n'.repeat(50_000), false],
      ['`'.repeat(30_000), true],
      ['<'.repeat(50_000), true],
      ['![['.repeat(20_000), true],
      ['- a\n\n'.repeat(2000), false],
    ];
    for (const [src, capped] of vectors) {
      expect(exceedsCaps(src), src.slice(0, 12)).to.equal(capped);
      // "Never freezes the page": the shapes that are slow in a Markdown parser or in layout skip the parser.
      const el = render(src);
      document.body.append(el);
      el.getBoundingClientRect();
      el.remove();
      if (capped) expect(el.children.length === 1 && el.firstElementChild!.localName === 'p' && el.textContent === src).to.equal(true);
    }
  });

  it('keeps moderate nesting as Markdown', () => {
    expect(render('> > > deep enough').querySelectorAll('blockquote').length).to.equal(3);
    expect(render('- a\n  - b\n    - c\n      - d').querySelectorAll('ul').length).to.equal(4);
    expect(render(`\`\`\`\n${' '.repeat(80)}deeply indented code\n\`\`\``).querySelector('pre')).to.exist;
  });
});

describe('sanitize', () => {
  it('keeps only its own class names, tabindex 0, numeric data-citation; never id, name, style or handlers', () => {
    const frag = sanitize(
      '<p id="bot-answer" name="x" class="evil" style="color:red" onclick="alert(1)" tabindex="5" data-x="1">t</p>' +
        '<code class="language-ts">c</code><a class="citation" data-citation="2" href="https://a.example">2</a>' +
        '<a data-citation="x" class="citation other" href="javascript:alert(1)">j</a><img src="https://i.example/a.png">',
    );
    const el = document.createElement('div');
    el.append(frag);
    expect(el.innerHTML).to.equal(
      '<p>t</p><code class="language-ts">c</code><a class="citation" data-citation="2" href="https://a.example" target="_blank" rel="noopener noreferrer">2</a><a>j</a>',
    );
  });

  it('returns a fragment, and keeps images only in the images configuration', () => {
    const frag = sanitize('<img src="https://i.example/a.png" alt="a" onerror="alert(1)">', { images: true });
    expect(frag).to.be.instanceOf(DocumentFragment);
    const img = frag.firstChild as HTMLImageElement;
    expect(img.outerHTML).to.equal('<img src="https://i.example/a.png" alt="a" loading="lazy" referrerpolicy="no-referrer">');
    expect(sanitize('<img src="https://i.example/a.png">').childNodes.length).to.equal(0);
  });
});
