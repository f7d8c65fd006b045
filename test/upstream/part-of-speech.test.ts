import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { mostlyNotNoun, namesPersonOrTime } from '../../packages/bot-answer-engine/src/upstream/retrieval/part-of-speech.js';
import { NOT_NOUNS_FILE, notNounsText } from '../../scripts/not-nouns.mjs';
import { PERSON_TIME_NOUNS_FILE, personTimeNounsText } from '../../scripts/person-time-nouns.mjs';

describe('the words English uses mostly as other than a noun', () => {
  it('are the list wink-lexicon gives (node scripts/not-nouns.mjs writes it again)', () => {
    assert.equal(readFileSync(NOT_NOUNS_FILE, 'utf8'), notNounsText());
  });

  it('hold verbs, adjectives and adverbs, not nouns nor words the lexicon lacks', () => {
    for (const word of ['far', 'quickly', 'bought', 'several', 'otherwise', 'broke']) assert.equal(mostlyNotNoun(word), true, word);
    for (const word of ['dog', 'stock', 'bike', 'sabbatical', 'laptop', 'mum', 'vpn', 'kubernetes', '', '#']) assert.equal(mostlyNotNoun(word), false, word);
  });
});

describe('the nouns that name only a person or a time', () => {
  it('are the list wink-lexicon gives (node scripts/person-time-nouns.mjs writes it again)', () => {
    assert.equal(readFileSync(PERSON_TIME_NOUNS_FILE, 'utf8'), personTimeNounsText());
  });

  it('hold people and times, not nouns with another sense, other nouns, nor words that are mostly not nouns', () => {
    for (const word of ['son', 'daughters', 'teenager', 'husband', 'customer', 'weekend', 'summer', 'deadline']) assert.equal(namesPersonOrTime(word), true, word);
    // "kid" is a young goat too, "gates" the plural of "gate" as well as a name, "quickly" no noun.
    for (const word of ['kid', 'gates', 'dog', 'laptop', 'sabbatical', 'quickly', 'far', 'honeymoon', '']) assert.equal(namesPersonOrTime(word), false, word);
  });
});
