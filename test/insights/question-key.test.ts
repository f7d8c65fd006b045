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

  it('reads contractions as their words: with either apostrophe, without one, and cannot', () => {
    const dont = ['do not', "don't", 'don\u2019t', 'don\u02bct', 'don\u00b4t', 'dont', 'DONT'];
    assert.deepEqual(new Set(dont.map((written) => questionKey(`I ${written} see the export button`))), new Set([questionKey('I do not see the export button')]));
    const cannot = ['cannot', "can't", 'can\u2019t', 'cant', 'can not'];
    assert.deepEqual(new Set(cannot.map((written) => questionKey(`I ${written} log in`))), new Set(['login not']));
    assert.equal(questionKey("Why won't my webhook fire?"), questionKey('webhook will not fire'));
    assert.equal(questionKey("Why doesn't the app sync?"), questionKey('why doesnt the app sync'));
    assert.equal(questionKey("I'm being charged twice"), questionKey('im being charged twice'));
    assert.equal(questionKey("I've been charged twice"), questionKey('ive been charged twice'));
    assert.equal(questionKey('How\u2019s pricing calculated?'), questionKey('hows pricing calculated'));
    assert.equal(questionKey('if I cancel itll delete my data?'), questionKey("if I cancel it'll delete my data?"));
    // "'s" is a possessive, dropped (it left a term "s" before); "shall" is a stop word.
    assert.equal(questionKey("Where is the user's password?"), questionKey('user password'));
    assert.equal(questionKey('Shall I reset my password?'), questionKey('reset password'));
    // Contractions that are words too are read as typed.
    for (const word of ['well', 'hell', 'shell', 'id', 'ill', 'shed', 'hed', 'wed']) assert.ok(questionKey(`reset the ${word}`).split(' ').includes(word), word);
    assert.equal(questionKey('Why not?'), 'why not', 'only stop words and not: the words themselves');
  });

  it('keeps negation: "not" is a term, and a negated key never groups with one that is not', () => {
    assert.notEqual(questionKey('I cannot log in'), questionKey('I can log in'));
    assert.notEqual(questionKey("Google login doesn't work"), questionKey('Google login works'));
    assert.equal(questionKey('Password reset e-mail never came'), questionKey('password reset e-mail not came'));
    const asked = (question: string, n = 1) => ({ key: questionKey(question), asked: n });
    const groups = groupKeys([asked('How do I log in with Google?', 5), asked("I can't log in with Google", 3), asked('Google login', 2), asked('cant log in with my google account')]);
    assert.deepEqual(
      groups.map((g) => g.keys.map((k) => k.key)),
      [[questionKey('How do I log in with Google?'), questionKey('Google login')], [questionKey("I can't log in with Google"), questionKey('cant log in with my google account')]],
    );
    // "not" does not count towards the two words in common: "I can't log in" shares only "login" with the second.
    assert.equal(groupKeys([asked("I can't log in", 2), asked("I can't log in to my account")]).length, 2);
    assert.equal(groupKeys([asked("I can't delete a project", 2), asked("I can't delete my project's files")]).length, 1);
  });

  it('groups the examples with no wrong pair, and most right pairs (the exact text groups none)', () => {
    const exact = score((question) => question.trim().toLowerCase());
    assert.equal(exact.recall, 0, 'control: the examples differ as typed');
    const keysOnly = score(questionKey);
    const withGroups = score(grouped());
    assert.equal(withGroups.wrong, 0, 'no two different questions grouped (dog/cat, reset/change password, PDF/Excel, a question and its negation)');
    assert.ok(withGroups.recall > keysOnly.recall, `grouping (${withGroups.recall}) beyond equal keys (${keysOnly.recall})`);
    assert.ok(withGroups.recall >= 0.9, `recall ${withGroups.recall.toFixed(3)}`);
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
