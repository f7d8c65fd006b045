import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstQuote } from '../../bench/retrieval/noise.js';

describe('an answer\'s first quote (the benchmark\'s key term in the first quote)', () => {
  it('ends before the next source\'s label line, with or without its citation', () => {
    const first = '**Deploying › Rolling back** [[1]](https://docs.example.com/deploy#rolling-back)\n\nRun `nw deploy rollback`.';
    assert.equal(firstQuote(`${first}\n\n**Deploying** [[1]](https://docs.example.com/deploy)\n\nEvery merge deploys.`), first);
    assert.equal(firstQuote('**Leave › Notice**\n\nGive two weeks.\n\n…\n\nOr more.\n\n**Leave › Sick days**\n\nCall in.'), '**Leave › Notice**\n\nGive two weeks.\n\n…\n\nOr more.');
  });

  it('is the whole answer when it quotes one source', () => {
    const answer = '**Deploying › Rolling back**\n\nRun `nw deploy rollback`.\n\n…\n\nPost in #deploys.';
    assert.equal(firstQuote(answer), answer);
  });

  it('does not end at a bold line inside code, nor at a bold span that is not a whole line', () => {
    const answer = '**Docs › Markdown**\n\nWrite:\n\n```md\n\n**Bold title**\n```\n\n**Note:** titles are bold.\n\nMore.';
    assert.equal(firstQuote(answer), answer);
  });
});
