import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stopsOnQuestion } from '../../bench/retrieval/noise.js';

describe('an answer whose quote stops on a question (the benchmark\'s measure)', () => {
  it('counts a question the quote leaves before an omission, the next source or its end', () => {
    for (const answer of [
      '**Laptops › Refresh**\n\nLaptops are replaced every **3 years**.\n\nBroken before the refresh date?',
      '**Laptops › Refresh**\n\nBroken before the refresh date?\n\n…\n\nReturn the old laptop within **14 days**.',
      '**Laptops › Refresh**\n\nLaptops are replaced every **3 years**. Broken before the refresh date? … Return it.',
      '**Laptops › Refresh**\n\nBroken before the *refresh date*?\n\n**Leave › Notice**\n\nGive two weeks\' notice.',
    ]) {
      assert.equal(stopsOnQuestion(answer), true, answer);
    }
  });

  it('does not count a question answered in the quote, a label line or code', () => {
    for (const answer of [
      '**Laptops › Refresh**\n\nBroken before the refresh date? Open a ticket; IT ships a loaner.',
      '**Laptops › Refresh**\n\nBroken before the refresh date?\n\nOpen a ticket; IT ships a loaner.',
      '**FAQ › Can I work from home?**\n\nYes, two days a week.',
      '**Shell › Prompts**\n\nThe prompt reads:\n\n```sh\nread -p "Continue?"\n```',
    ]) {
      assert.equal(stopsOnQuestion(answer), false, answer);
    }
  });
});
