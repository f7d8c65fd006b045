import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnswerResponse } from '../../packages/bot-answer/src/protocol/types.js';
import { countFollowed, followedUnanswerable } from '../../bench/retrieval/evaluate.js';
import type { Engine } from '../../bench/retrieval/engines.js';

/**
 * An engine answering confidently what `confident` says, else "not sure" with a page what
 * `related` says, else refusing; recording each question and its context.
 */
const engine = (confident: (question: string, context?: string) => boolean, asked: Array<[string, string | undefined]>, related = (_question: string, _context?: string): boolean => false): Engine => ({
  ready: { wallMs: 0, cpuMs: 0 },
  answer: (question, context) => {
    asked.push([question, context]);
    const found = confident(question, context);
    const sources = found || related(question, context) ? [{ url: 'https://docs.example.com/page' }] : [];
    return { answer: `answer to ${question}`, answer_found: found, sources } as unknown as AnswerResponse;
  },
  close: () => {},
});

describe('unanswerable questions asked as follow-ups (followup.unanswerable.confident)', () => {
  it('asks each after each first question, with that question as the context, and counts the confident answers by half', () => {
    const asked: Array<[string, string | undefined]> = [];
    // "u2" is answered after "first a" only; "u1" never; "u3" after both.
    const confident = (question: string, context?: string): boolean => question === 'u3' || (question === 'u2' && context === 'first a');
    const outcomes = followedUnanswerable(engine(confident, asked), ['first a', 'first b'], ['u1', 'u2', 'u3']);
    assert.deepEqual(
      outcomes.map(({ question, split, asked: n, confident: c }) => [question, split, n, c]),
      [
        ['u1', 'tune', 2, 0],
        ['u2', 'eval', 2, 1],
        ['u3', 'tune', 2, 2],
      ],
    );
    // Every follow-up was asked with a first question as its context, never alone.
    assert.deepEqual(
      asked.filter(([question]) => question.startsWith('u')).map(([, context]) => context).sort(),
      ['first a', 'first a', 'first a', 'first b', 'first b', 'first b'],
    );
    assert.deepEqual(countFollowed(outcomes), { confident: 3, refused: 3, asked: 6 });
    assert.deepEqual(countFollowed(outcomes.filter((o) => o.split === 'tune')), { confident: 2, refused: 2, asked: 4 });
  });

  it('counts apart the follow-ups refused and those "not sure" with a page', () => {
    // "u1" is "not sure" after "first b", refused after "first a"; "u2" answered after "first a".
    const confident = (question: string, context?: string): boolean => question === 'u2' && context === 'first a';
    const related = (question: string, context?: string): boolean => question === 'u1' && context === 'first b';
    const outcomes = followedUnanswerable(engine(confident, [], related), ['first a', 'first b'], ['u1', 'u2']);
    assert.deepEqual(
      outcomes.map(({ question, confident: c, refused: r }) => [question, c, r]),
      [
        ['u1', 0, 1],
        ['u2', 1, 1],
      ],
    );
    assert.deepEqual(countFollowed(outcomes), { confident: 1, refused: 2, asked: 4 });
  });

  it('asks nothing when no first question was answered confidently', () => {
    const outcomes = followedUnanswerable(engine(() => true, []), [], ['u1']);
    assert.deepEqual(countFollowed(outcomes), { confident: 0, refused: 0, asked: 0 });
  });
});
