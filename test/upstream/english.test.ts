import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stem } from '../../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';
import { englishRarity } from '../../packages/bot-answer-engine/src/upstream/retrieval/english.js';

describe('English rarity of a term (SUBTLEX-US)', () => {
  it('counts the words a short stem stands for though its last letter changed ("say": "sai")', () => {
    assert.equal(stem('say'), 'sai');
    // "say" is among the most frequent words of everyday English, as common as "show".
    assert.ok(englishRarity('sai') < 1, `${englishRarity('sai')}`);
    assert.ok(englishRarity(stem('show')) < 1.5, `${englishRarity(stem('show'))}`);
  });

  it('weighs a name the list lacks most, and words by how rare they are', () => {
    assert.equal(englishRarity('fifa'), 6);
    assert.ok(englishRarity(stem('sourdough')) > englishRarity(stem('bread')));
    assert.ok(englishRarity(stem('bread')) > englishRarity(stem('world')));
  });
});
