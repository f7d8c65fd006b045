import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitByPlace, type FollowUpOutcome, type QuestionOutcome, type SetOutcome } from '../../bench/retrieval/evaluate.js';

const question = (split: 'tune' | 'eval'): QuestionOutcome => ({
  question: 'q',
  split,
  answered: true,
  outcome: 'answered',
  wrongPage: false,
  linkTop3: true,
  linkAny: true,
  linkFirst: true,
  top1: true,
  top3: true,
  noise: [],
  stopsOnQuestion: false,
  length: 1,
  ms: 1,
  pages: [],
});
const followUp = (split: 'tune' | 'eval'): FollowUpOutcome => ({
  question: 'f',
  split,
  withContext: true,
  withAnswer: true,
  alone: false,
  linked: true,
  first: 'q',
  firstPages: [],
  pages: [],
  expected: [],
});
const outcome = (questions: Array<'tune' | 'eval'>, followUps: Array<'tune' | 'eval'>): SetOutcome => ({
  questions: questions.map(question),
  offTopic: [],
  followUps: followUps.map(followUp),
  offTopicFollowed: [],
});

describe('the tuning loop split by place (tune.ts --by-place)', () => {
  it("splits an all-eval set's follow-ups by their places, as its questions", () => {
    const set = outcome(['eval', 'eval', 'eval'], ['eval', 'eval', 'eval', 'eval', 'eval']);
    splitByPlace(set);
    assert.deepEqual(set.questions.map((q) => q.split), ['tune', 'eval', 'tune']);
    assert.deepEqual(set.followUps.map((f) => f.split), ['tune', 'eval', 'tune', 'eval', 'tune']);
  });

  it('leaves a set with its own split as it is, follow-ups included', () => {
    const set = outcome(['tune', 'eval', 'eval'], ['eval', 'eval', 'tune']);
    splitByPlace(set);
    assert.deepEqual(set.questions.map((q) => q.split), ['tune', 'eval', 'eval']);
    assert.deepEqual(set.followUps.map((f) => f.split), ['eval', 'eval', 'tune']);
  });

  it("keeps follow-ups' own split in an all-eval set whose follow-ups are split", () => {
    const set = outcome(['eval', 'eval'], ['tune', 'eval', 'eval']);
    splitByPlace(set);
    assert.deepEqual(set.followUps.map((f) => f.split), ['tune', 'eval', 'eval']);
  });
});
