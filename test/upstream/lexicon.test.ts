import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { processTerm } from '../../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';
import { relativesOf } from '../../packages/bot-answer-engine/src/upstream/retrieval/lexicon.js';
import { typedWords } from '../../packages/bot-answer-engine/src/upstream/search/query.js';

/** The lexicon's relatives of a word as written. */
const relatives = (word: string): readonly string[] => relativesOf(processTerm(word)!, word);

describe('the lexicon reads a word as written, not every word of its stem', () => {
  it('a word of a group and its inflections bring the group', () => {
    for (const word of ['terminate', 'terminated', 'terminating', 'Quit', 'paging', 'typings', 'configure', 'configured', 'connecting']) {
      assert.notEqual(relatives(word).length, 0, word);
    }
    assert.ok(relatives('terminates').includes('exit'));
  });

  it('another word of the same stem brings nothing', () => {
    // "terminal" shares "termin" with "terminate", "quite" "quit" with "quit", "page" "page" with "paging", "type" with "typings".
    for (const word of ['terminal', 'quite', 'page', 'pages', 'type', 'typed', 'guide', 'local', 'http', 'valid']) {
      assert.equal(processTerm(word) !== null && relativesOf(processTerm(word)!).length > 0, true, `${word} shares a stem with an entry`);
      assert.deepEqual(relatives(word), [], word);
    }
  });

  it("a visitor's everyday words bring the words a help centre's pages use", () => {
    for (const [word, term] of [['son', 'child'], ['daughters', 'child'], ['kids', 'child'], ['mum', 'parent'], ['cheaper', 'discount'], ['stuff', 'belong'], ['jabs', 'vaccin'], ['diaper', 'nappi']] as const) {
      assert.ok(relatives(word).includes(term), `${word} brings ${term}`);
    }
    // "illness" is stemmed "ill", "belongings" "belong", "reduced" "reduc": the word as written, "I'll", "belongs to" or "reduce", brings none.
    for (const word of ['ill', 'belong', 'belongs', 'reduce']) assert.deepEqual(relatives(word), [], word);
  });

  it('search as you type reads the typed word the same way', () => {
    const known = (): boolean => true;
    const forms = (text: string): string[] => typedWords(text, known)[0]!.forms.map((f) => f.form);
    assert.ok(forms('terminate the process ').includes('exit'));
    assert.ok(!forms('terminal colours ').includes('exit'));
  });
});
