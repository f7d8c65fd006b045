import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CitationFilter } from '../../../packages/bot-answer-engine/src/upstream/compose/written/citations.js';

const A = 'https://docs.example.com/a';
const B = 'https://docs.example.com/b#deploys';
const B_PAGE = 'https://docs.example.com/b';

/** Runs `text` through a filter fed in the given pieces; returns the output and the sources cited. */
function run(pieces: string[], inline = true): { out: string; cited: number[] } {
  const filter = new CitationFilter([A, B], [B_PAGE], inline);
  let out = '';
  for (const piece of pieces) out += filter.push(piece);
  out += filter.end();
  return { out, cited: filter.cited };
}

/** The same text fed whole, cut in two at every position, and one character at a time: all must agree. */
function check(text: string, expected: string, inline = true, cited?: number[]): void {
  const whole = run([text], inline);
  assert.equal(whole.out, expected, 'fed whole');
  if (cited) assert.deepEqual(whole.cited, cited, 'sources cited');
  for (let at = 1; at < text.length; at++) {
    assert.equal(run([text.slice(0, at), text.slice(at)], inline).out, expected, `cut at ${at}: ${JSON.stringify(text.slice(0, at))}`);
  }
  assert.equal(run([...text], inline).out, expected, 'one character at a time');
}

describe('citation filter', () => {
  it('turns [n] into the seed citation, numbered in the order of first citation', () => {
    check('Deploys run nightly [2]. Rollbacks take minutes [1][2].', `Deploys run nightly [[1]](${B}). Rollbacks take minutes [[2]](${A})[[1]](${B}).`, true, [1, 0]);
  });

  it('reads [n, m], [^n] and [Source n] as citations', () => {
    check('One [1, 2]. Two [^2]. Three [Source 1].', `One [[1]](${A})[[2]](${B}). Two [[2]](${B}). Three [[1]](${A}).`, true, [0, 1]);
  });

  it('without inline sources removes the marks and the space before them', () => {
    check('Yes [1], and no [2]. Maybe [1][2] here.', 'Yes, and no. Maybe here.', false, [0, 1]);
  });

  it('drops a number outside the sources given', () => {
    check('Made up [7]. Mixed [3, 1].', `Made up. Mixed [[1]](${A}).`, true, [0]);
    check('Made up [7] here.', 'Made up here.', false, []);
  });

  it('keeps the text of a link to a URL that is not a source, without the link', () => {
    check('See [the guide](https://evil.example/x "t") now.', 'See the guide now.');
    check('See ![logo](https://evil.example/x.png) now.', 'See logo now.');
    check('Ask <https://evil.example/help> or https://evil.example/x.', 'Ask `https://evil.example/help` or `https://evil.example/x`.');
    check('Or www.evil.example/path, then.', 'Or `www.evil.example/path`, then.');
  });

  it("keeps links to the sources' URLs", () => {
    check(`See [the page](${B_PAGE}) and [this](${A}/) and ${A}.`, `See [the page](${B_PAGE}) and [this](${A}/) and ${A}.`);
  });

  it('reads a citation inside a removed link as a citation', () => {
    check('Read [this [2]](https://evil.example).', `Read this [[1]](${B}).`, true, [1]);
  });

  it('drops a reference definition to another URL, keeps one to a source', () => {
    check(`Text [a][x] and [b][y].\n\n[x]: https://evil.example/x\n[y]: ${A}\n`, `Text [a][x] and [b][y].\n\n[y]: ${A}\n`);
  });

  it('leaves code alone: spans and fenced blocks', () => {
    const text = 'Use `items[1]` and ``a`[2]`` then:\n\n```js\nconst x = list[2]; // https://evil.example\n```\n\n~~~\n[1](https://evil.example)\n~~~\nDone [1].';
    const expected = 'Use `items[1]` and ``a`[2]`` then:\n\n```js\nconst x = list[2]; // https://evil.example\n```\n\n~~~\n[1](https://evil.example)\n~~~\nDone [[1]](' + A + ').';
    check(text, expected, true, [0]);
  });

  it('leaves brackets that are not citations or links as they are', () => {
    check('Press [Enter] or [Ctrl]+[C], arrays [0..n], and a\\[1\\] escape.', 'Press [Enter] or [Ctrl]+[C], arrays [0..n], and a\\[1\\] escape.');
    check('A lone [ bracket\n\nand more.', 'A lone [ bracket\n\nand more.');
  });

  it('passes text on as it comes: only a possible citation or URL is held back', () => {
    const filter = new CitationFilter([A, B], [], true);
    assert.equal(filter.push('Hello wor'), 'Hello wor');
    assert.equal(filter.push('ld [1'), 'ld');
    assert.equal(filter.push('] and '), ` [[1]](${A}) and`);
    assert.equal(filter.push('htt'), '');
    assert.equal(filter.push('ps://x.example/a b'), ' `https://x.example/a` b');
  });

  it('never sends what it held when the stream breaks', () => {
    const filter = new CitationFilter([A, B], [], true);
    const sent = filter.push('Answer [1] and [the guide](https://docs.exa');
    assert.equal(sent, `Answer [[1]](${A}) and`);
  });
});
