import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setProblems } from '../../bench/retrieval/check-sets.js';
import { heldOutSets } from '../../bench/retrieval/held-out.js';
import { questionSets, type QuestionSet } from '../../bench/retrieval/sets.js';

// The sets whose docs are kept in the repository (the built-in ones, the handbooks): checked as
// data here, with no download; the benchmark checks the sets it fetches before reading them.
const inRepository = (set: QuestionSet): boolean => !set.package;

describe('the evaluation sets kept in the repository', () => {
  const sets = [...questionSets(), ...heldOutSets({ sealed: true })];

  it('give no sealed set unless asked for', () => {
    const sealed = sets.filter((set) => set.sealed).map((set) => set.id);
    assert.ok(sealed.length >= 1, 'a sealed set is kept in the repository');
    const given = heldOutSets().map((set) => set.id);
    for (const id of sealed) assert.ok(!given.includes(id), `${id} is given without asking for the sealed sets`);
  });

  it('have unique ids', () => {
    const ids = sets.map((set) => set.id);
    assert.equal(new Set(ids).size, ids.length, ids.join(', '));
  });

  it('are sound as data: pages of their folder cited by the expected URL, key terms, minimums', async () => {
    const checked = sets.filter(inRepository).filter((set) => set.heldOut);
    assert.ok(checked.length >= 2, checked.map((set) => set.id).join(', '));
    const problems = (await Promise.all(checked.map(setProblems))).flat();
    assert.deepEqual(problems, []);
  });

  it('report a page missing from the folder, a key term its pages lack, and a sealed set too small', async () => {
    const [set] = sets.filter((s) => s.sealed && inRepository(s));
    assert.ok(set);
    const [first] = set.questions;
    const broken: QuestionSet = { ...set, questions: [{ ...first!, expect: ['no-such-page.md'] }, { ...first!, question: `${first!.question}?`, keyTerm: 'zzqx-absent' }], followUps: [] };
    const problems = await setProblems(broken);
    assert.ok(problems.some((p) => p.includes('no-such-page.md is not a document')), problems.join('\n'));
    assert.ok(problems.some((p) => p.includes('"zzqx-absent"')), problems.join('\n'));
    assert.ok(problems.some((p) => p.includes('2 answerable questions')), problems.join('\n'));
    assert.ok(problems.some((p) => p.includes('0 follow-ups')), problems.join('\n'));
  });
});
