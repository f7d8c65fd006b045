import { expect } from '@open-wc/testing';
import { highlightPieces, highlightRanges, searchEndpoint, searchResults } from '../../packages/bot-answer/src/widget/search-client.js';

describe('search client', () => {
  it('finds the search beside the answer endpoint', () => {
    const here = new URL(document.baseURI).origin;
    expect(searchEndpoint('/api/answer')).to.equal(here + '/api/search');
    expect(searchEndpoint('https://help.example.com/bot/api/answer')).to.equal('https://help.example.com/bot/api/search');
    expect(searchEndpoint('https://help.example.com/api/answer?x=1')).to.equal('https://help.example.com/api/search');
  });

  it('keeps ranges that are integers inside the snippet, in order, not overlapping', () => {
    expect(highlightRanges([[4, 6], [0, 2], [1, 3], [2, 2], [5, 9], [-1, 1], [0.5, 2], ['0', 1], [3]], 8)).to.deep.equal([
      [0, 2],
      [4, 6],
    ]);
    expect(highlightRanges('nope', 8)).to.deep.equal([]);
    // Control: valid ranges all kept.
    expect(highlightRanges([[0, 1], [1, 8]], 8)).to.deep.equal([
      [0, 1],
      [1, 8],
    ]);
  });

  it('cuts a snippet at its ranges into pieces that join back to it', () => {
    const pieces = highlightPieces('find the sabbatical page', [
      [0, 4],
      [9, 19],
    ]);
    expect(pieces).to.deep.equal([
      ['find', true],
      [' the ', false],
      ['sabbatical', true],
      [' page', false],
    ]);
    expect(pieces.map(([s]) => s).join('')).to.equal('find the sabbatical page');
  });

  it('keeps at most six results with http(s) links, and only the ranges inside a cut snippet', () => {
    const long = 'x'.repeat(400);
    const pages = Array.from({ length: 8 }, (_, i) => ({ title: 't' + i, url: `https://a.example/${i}`, snippet: 's', highlights: [[0, 1]] }));
    const odd = [
      { title: 'bad', url: 'javascript:alert(1)', snippet: '', highlights: [] },
      { title: 'cut', url: 'http://a.example/c', snippet: long, highlights: [[10, 20], [290, 310]] },
    ];
    const results = searchResults({ results: [pages[0], ...odd, ...pages.slice(1)] });
    expect(results.map((r) => r.title)).to.deep.equal(['t0', 'cut', 't1', 't2', 't3', 't4']);
    expect(results[1]!.snippet).to.have.length(301);
    expect(results[1]!.highlights).to.deep.equal([[10, 20]]);
    expect(searchResults({ results: 'x' })).to.deep.equal([]);
    expect(searchResults(null)).to.deep.equal([]);
  });
});
