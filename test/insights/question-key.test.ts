import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { groupKeys, questionKey } from '../../packages/bot-answer-proxy/src/insights/question-key.js';

const { groups } = JSON.parse(readFileSync(new URL('./paraphrase-groups.json', import.meta.url), 'utf8')) as { groups: string[][] };
const items = groups.flatMap((group, index) => group.map((question) => ({ question, index })));

/** Pairs of questions put together that belong together (recall) and that do not (false pairs). */
function score(clusterOf: (question: string) => string | number) {
  let together = 0;
  let same = 0;
  let wrong = 0;
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const joined = clusterOf(items[i]!.question) === clusterOf(items[j]!.question);
      if (items[i]!.index === items[j]!.index) {
        same++;
        if (joined) together++;
      } else if (joined) wrong++;
    }
  }
  return { recall: together / same, wrong };
}

function grouped(): (question: string) => number {
  const counts = new Map<string, number>();
  for (const { question } of items) counts.set(questionKey(question), (counts.get(questionKey(question)) ?? 0) + 1);
  const found = groupKeys([...counts].map(([key, asked]) => ({ key, asked })));
  const groupOf = new Map<string, number>();
  found.forEach((group, i) => group.keys.forEach((key) => groupOf.set(key.key, i)));
  return (question) => groupOf.get(questionKey(question))!;
}

describe('grouping questions that are the same in other words', () => {
  it('keys ignore case, punctuation, accents, stop words, word forms, word order and split compounds', () => {
    assert.equal(questionKey('How do I reset my password?'), questionKey('password reset'));
    assert.equal(questionKey('How do I roll back a deployment?'), questionKey('Rolling back deploys'));
    assert.equal(questionKey('Café opening hours'), questionKey('cafe opening hour'));
    assert.equal(questionKey('How do I log in?'), questionKey('login'));
    assert.notEqual(questionKey('How do I reset my password?'), questionKey('How do I change my password?'));
    // Only stop words: the words themselves, so "How?" is not every other such question.
    assert.equal(questionKey('How?'), 'how');
  });

  it('groups the examples with no wrong pair, and most right pairs (the exact text groups none)', () => {
    const exact = score((question) => question.trim().toLowerCase());
    assert.equal(exact.recall, 0, 'control: the examples differ as typed');
    const keysOnly = score(questionKey);
    const withGroups = score(grouped());
    assert.equal(withGroups.wrong, 0, 'no two different questions grouped (dog/cat, reset/change password, PDF/Excel)');
    assert.ok(withGroups.recall > keysOnly.recall, `grouping (${withGroups.recall}) beyond equal keys (${keysOnly.recall})`);
    assert.ok(withGroups.recall >= 0.8, `recall ${withGroups.recall.toFixed(3)}`);
  });

  it('a vague question joins one group and never chains two distinct ones', () => {
    const keys = [
      { key: questionKey('How do I export a report to PDF?'), asked: 10 },
      { key: questionKey('How do I export a report to Excel?'), asked: 8 },
      { key: questionKey('export report'), asked: 5 },
      { key: questionKey('Can reports be exported to Excel from the app?'), asked: 1 },
    ];
    const result = groupKeys(keys);
    assert.equal(result.length, 2);
    assert.deepEqual(result.map((g) => g.asked), [15, 9]);
    assert.deepEqual(result[1]!.keys.map((k) => k.key), [questionKey('How do I export a report to Excel?'), questionKey('Can reports be exported to Excel from the app?')]);
  });
});
