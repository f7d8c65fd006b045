import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GRID, settingsOf, valueOf, withinBounds, type Figures } from '../../bench/retrieval/fit-ranking.js';
import { DEFAULT_RETRIEVAL } from '../../packages/bot-answer-engine/src/upstream/retrieval/settings.js';

const figures = (over: Partial<Figures>): Figures => ({ right: 10, confident: 12, wrong: 2, links: 20, first: 15, key: 5, unanswerable: 1, questions: 25, offTopic: 8, ...over });

describe('the ranking fitter', () => {
  it('sets a column weight by its path, keeping the other columns and settings', () => {
    const settings = settingsOf({ 'weights.title': 3, pageWeight: 0.5 }, { dropOne: 3 });
    assert.deepEqual(settings.weights, { ...DEFAULT_RETRIEVAL.weights, title: 3 });
    assert.equal(settings.pageWeight, 0.5);
    assert.equal(settings.dropOne, 3);
    assert.equal(valueOf('weights.title', settings), 3);
    assert.equal(valueOf('weights.body', settings), DEFAULT_RETRIEVAL.weights.body);
    assert.equal(valueOf('pageDecay', settings), DEFAULT_RETRIEVAL.pageDecay);
  });

  it('holds each weight it fits, with today\'s value on its grid', () => {
    for (const path of Object.keys(GRID)) assert.ok(GRID[path]!.includes(valueOf(path, {})), path);
  });

  it('keeps a move within the trust figures of the start', () => {
    const start = figures({});
    assert.ok(withinBounds(figures({ links: 25 }), start));
    assert.ok(!withinBounds(figures({ wrong: 3 }), start));
    assert.ok(!withinBounds(figures({ unanswerable: 2 }), start));
    assert.ok(!withinBounds(figures({ right: 9 }), start));
  });
});
