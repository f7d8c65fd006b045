import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { mostlyNotNoun } from '../../packages/bot-answer-engine/src/upstream/retrieval/part-of-speech.js';
import { NOT_NOUNS_FILE, notNounsText } from '../../scripts/not-nouns.mjs';

describe('the words English uses mostly as other than a noun', () => {
  it('are the list wink-lexicon gives (node scripts/not-nouns.mjs writes it again)', () => {
    assert.equal(readFileSync(NOT_NOUNS_FILE, 'utf8'), notNounsText());
  });

  it('hold verbs, adjectives and adverbs, not nouns nor words the lexicon lacks', () => {
    for (const word of ['far', 'quickly', 'bought', 'several', 'otherwise', 'broke']) assert.equal(mostlyNotNoun(word), true, word);
    for (const word of ['dog', 'stock', 'bike', 'sabbatical', 'laptop', 'mum', 'vpn', 'kubernetes', '', '#']) assert.equal(mostlyNotNoun(word), false, word);
  });
});
