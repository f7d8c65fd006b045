import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnswerResponse } from '../../packages/bot-answer/src/protocol/types.js';
import type { Engine } from '../../bench/retrieval/engines.js';
import { countSwitched, evaluate, subjectChanges } from '../../bench/retrieval/evaluate.js';
import type { QuestionSet } from '../../bench/retrieval/sets.js';

const PAGE = (name: string): string => `https://docs.example/${name}`;

/**
 * An engine over three pages: "a", "b" and "c" answered alone from their own pages, "x" refused;
 * after "a" (the server's retrieval context: the questions before), "c" is answered from page a:
 * the conversation pulls it off its page. Every question and its context is recorded.
 */
const engine = (asked: Array<[string, string | undefined]>): Engine => ({
  ready: { wallMs: 0, cpuMs: 0 },
  answer: (question, context) => {
    asked.push([question, context]);
    const page = question === 'c' && context === 'a' ? 'a' : question;
    const found = question !== 'x';
    return { answer: `answer to ${question}`, answer_found: found, sources: found ? [{ url: PAGE(page) }] : [] } as unknown as AnswerResponse;
  },
  close: () => {},
});

const set: QuestionSet = {
  id: 'fake',
  label: 'fake',
  dir: 'fake',
  settings: {},
  questions: [
    { question: 'a', expectUrl: PAGE('a'), keyTerm: 'a', split: 'tune' },
    { question: 'x', expectUrl: PAGE('x'), keyTerm: 'x', split: 'eval' },
    { question: 'b', expectUrl: PAGE('b'), keyTerm: 'b', split: 'eval' },
    { question: 'c', expectUrl: PAGE('c'), keyTerm: 'c', split: 'tune' },
  ],
  offTopic: [],
  followUps: [],
};

describe('answerable questions asked after other answers (followup.switch)', () => {
  it('asks each question answered from its page after the first confident answers but its own, and counts those still answered from it', () => {
    const asked: Array<[string, string | undefined]> = [];
    const e = engine(asked);
    const outcome = evaluate(e, set);
    asked.length = 0;
    const switched = subjectChanges(e, set, outcome);
    // "x" is refused alone, so it is not asked again; the firsts are a, b and c (the first three answered).
    assert.deepEqual(
      switched.map(({ question, split, asked: n, right }) => [question, split, n, right]),
      [
        ['a', 'tune', 2, 2],
        ['b', 'eval', 2, 2],
        ['c', 'tune', 2, 1],
      ],
    );
    // Every question asked again went with a conversation, never alone, and never after itself.
    const again = asked.filter(([, context]) => context !== undefined);
    assert.equal(again.length, 6);
    assert.ok(again.every(([question, context]) => context !== question));
    assert.deepEqual(countSwitched(switched), { right: 5, asked: 6 });
  });
});
