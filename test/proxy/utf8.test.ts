import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Utf8Pieces, utf8Length } from '../../src/proxy/utf8.js';

describe('UTF-8 helpers', () => {
  it('utf8Length counts what TextEncoder writes', () => {
    const encoder = new TextEncoder();
    for (const text of ['', 'plain ascii', 'Grüße', '€ and ✓', '😀 emoji 👍🏽', 'a\ud800b', 'end\ud83d', '\udc00start', `x${'é'.repeat(1000)}`]) {
      assert.equal(utf8Length(text), encoder.encode(text).byteLength, JSON.stringify(text));
    }
  });

  it('Utf8Pieces decodes characters split across pieces', () => {
    const bytes = new TextEncoder().encode('a€😀b');
    for (let cut = 0; cut <= bytes.length; cut++) {
      const pieces = new Utf8Pieces();
      assert.equal(pieces.decode(bytes.subarray(0, cut)) + pieces.decode(bytes.subarray(cut)) + pieces.end(), 'a€😀b', `cut at ${cut}`);
    }
  });
});
