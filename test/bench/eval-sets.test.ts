import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { documentUrl } from '../../src/upstream/folder/document-url.js';
import { listKnowledgeBase, readDocumentFile, resolveSettings } from '../../src/upstream/folder/knowledge-base.js';
import { fetchHeldOut, heldOutSets } from '../../bench/retrieval/held-out.js';
import type { Question, QuestionSet } from '../../bench/retrieval/sets.js';

// Issue 27: a sealed set has at least 24 answerable questions, 8 unanswerable ones and 4 follow-ups.
const SEALED_MINIMUM = { questions: 24, offTopic: 8, followUps: 4 };

/**
 * The held-out and sealed evaluation sets checked as data, with no engine run on them: every
 * expected page is a document of the set's folder, cited by the URL the evaluation expects, and
 * holds the question's key term. The sealed sets' docs are fetched (by exact version and
 * integrity) like the benchmark fetches them, so this needs the npm registry once.
 */
describe('the held-out and sealed evaluation sets', () => {
  let sets: QuestionSet[] = [];
  before(async () => {
    const problems = await fetchHeldOut({ sealed: true });
    assert.deepEqual(problems, [], 'every set\'s docs can be fetched');
    sets = heldOutSets({ sealed: true });
  });

  it('are read only when asked for: without it no sealed set is given', () => {
    const sealed = sets.filter((set) => set.sealed).map((set) => set.id);
    assert.ok(sealed.length >= 3, `sealed sets: ${sealed.join(', ')}`);
    const given = heldOutSets().map((set) => set.id);
    for (const id of sealed) assert.ok(!given.includes(id), `${id} is given without asking for the sealed sets`);
  });

  it('have unique ids', () => {
    const ids = sets.map((set) => set.id);
    assert.equal(new Set(ids).size, ids.length, ids.join(', '));
  });

  it('meet the minimums when sealed', () => {
    for (const set of sets.filter((s) => s.sealed)) {
      assert.ok(set.questions.length >= SEALED_MINIMUM.questions, `${set.id}: ${set.questions.length} answerable questions`);
      assert.ok(set.offTopic.length >= SEALED_MINIMUM.offTopic, `${set.id}: ${set.offTopic.length} unanswerable questions`);
      assert.ok(set.followUps.length >= SEALED_MINIMUM.followUps, `${set.id}: ${set.followUps.length} follow-ups`);
    }
  });

  it('ask each question once, each answerable one with its pages and a key term', () => {
    for (const set of sets) {
      const asked = [...set.questions, ...set.followUps].map((q) => q.question).concat(set.offTopic);
      assert.equal(new Set(asked).size, asked.length, `${set.id}: a question asked twice`);
      for (const q of [...set.questions, ...set.followUps]) {
        assert.ok(q.expect && q.expect.length > 0, `${set.id}: no expected page for "${q.question}"`);
        assert.ok(q.keyTerm && q.keyTerm.trim() === q.keyTerm && q.keyTerm.length > 0, `${set.id}: no key term for "${q.question}"`);
      }
      for (const f of set.followUps) assert.ok(f.first.length > 0, `${set.id}: a follow-up without its first question`);
    }
  });

  // The key term is checked on the sealed sets only: a held-out set is tuned on now, and its
  // questions are kept as they were written (npm's "prebuild" is not on its expected page).
  it('expect pages of their folder, cited by the URL the evaluation expects; a sealed set\'s hold the key term', async () => {
    for (const set of sets) {
      const settings = resolveSettings(set.dir, set.settings);
      const listed = new Map((await listKnowledgeBase(set.dir)).map((file) => [file.path, file]));
      const pages = new Map<string, { url: string; text: string }>();
      const page = async (path: string) => {
        const file = listed.get(path);
        assert.ok(file, `${set.id}: ${path} is not a document of ${set.dir}`);
        if (!pages.has(path)) {
          const read = await readDocumentFile(file, settings);
          pages.set(path, { url: read.source.url, text: read.body.toLowerCase() });
        }
        return pages.get(path)!;
      };
      for (const q of [...set.questions, ...set.followUps] as Question[]) {
        const holding: string[] = [];
        for (const path of q.expect ?? []) {
          const { url, text } = await page(path);
          assert.equal(url, documentUrl(path, settings), `${set.id}: ${path} is cited by another URL than the evaluation expects`);
          if (text.includes(q.keyTerm!.toLowerCase())) holding.push(path);
        }
        if (set.sealed) assert.ok(holding.length > 0, `${set.id}: no expected page holds the key term "${q.keyTerm}" of "${q.question}"`);
      }
    }
  });
});
