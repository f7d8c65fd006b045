import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Utf8Pieces } from '../../src/proxy/utf8.js';

describe('UTF-8 pieces', () => {
  it('Utf8Pieces decodes characters split across pieces', () => {
    const bytes = new TextEncoder().encode('a€😀b');
    for (let cut = 0; cut <= bytes.length; cut++) {
      const pieces = new Utf8Pieces();
      assert.equal(pieces.decode(bytes.subarray(0, cut)) + pieces.decode(bytes.subarray(cut)) + pieces.end(), 'a€😀b', `cut at ${cut}`);
    }
  });
});
