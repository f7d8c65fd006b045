/**
 * An evaluation set checked as data, with no engine run on it: every answerable question has
 * its pages and a key term, no question is asked twice, a sealed set meets issue 27's minimums,
 * and every expected page is a document of the set's folder, cited by the URL the evaluation
 * expects; a sealed set's expected pages hold the question's key term. The benchmark checks
 * every set it is about to read (a set that fails is not read); the tests check the sets kept in
 * the repository, which need no download.
 */
import { documentUrl } from '../../packages/bot-answer-engine/src/upstream/folder/document-url.js';
import { listKnowledgeBase, readDocumentFile, resolveSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { fetchHeldOut, heldOutSets } from './held-out.js';
import { questionSets, type Question, type QuestionSet } from './sets.js';

/** Issue 27: a sealed set has at least 24 answerable questions, 8 unanswerable ones and 4 follow-ups. */
export const SEALED_MINIMUM = { questions: 24, offTopic: 8, followUps: 4 };

/** What is wrong with `set` as data; empty when nothing is. */
export async function setProblems(set: QuestionSet): Promise<string[]> {
  const problems: string[] = [];
  const answerable: Question[] = [...set.questions, ...set.followUps];
  if (set.sealed) {
    if (set.questions.length < SEALED_MINIMUM.questions) problems.push(`${set.questions.length} answerable questions`);
    if (set.offTopic.length < SEALED_MINIMUM.offTopic) problems.push(`${set.offTopic.length} unanswerable questions`);
    if (set.followUps.length < SEALED_MINIMUM.followUps) problems.push(`${set.followUps.length} follow-ups`);
  }
  const asked = answerable.map((q) => q.question).concat(set.offTopic);
  const seen = new Set<string>();
  for (const question of asked) {
    if (seen.has(question)) problems.push(`asked twice: "${question}"`);
    seen.add(question);
  }
  for (const q of answerable) {
    if (!q.expectUrl && !q.expect?.length) problems.push(`no expected page for "${q.question}"`);
    if (!q.keyTerm || q.keyTerm.trim() !== q.keyTerm) problems.push(`no key term for "${q.question}"`);
  }
  for (const f of set.followUps) if (!f.first) problems.push(`a follow-up without its first question: "${f.question}"`);

  const settings = resolveSettings(set.dir, set.settings);
  const listed = new Map((await listKnowledgeBase(set.dir)).map((file) => [file.path, file]));
  const pages = new Map<string, { url: string; text: string }>();
  for (const q of answerable) {
    let holding = 0;
    for (const path of q.expect ?? []) {
      const file = listed.get(path);
      if (!file) {
        problems.push(`${path} is not a document of the folder`);
        continue;
      }
      if (!pages.has(path)) {
        const read = await readDocumentFile(file, settings);
        pages.set(path, { url: read.source.url, text: read.body.toLowerCase() });
      }
      const page = pages.get(path)!;
      if (page.url !== documentUrl(path, settings)) problems.push(`${path} is cited as ${page.url}, not the URL the evaluation expects`);
      if (q.keyTerm && page.text.includes(q.keyTerm.toLowerCase())) holding++;
    }
    // Sealed sets only: a held-out set is tuned on now, and its questions are kept as written
    // (npm's "prebuild" is not on its expected page).
    if (set.sealed && q.expect?.length && holding === 0) problems.push(`no expected page holds the key term "${q.keyTerm}" of "${q.question}"`);
  }
  return problems.map((problem) => `${set.id}: ${problem}`);
}

/** The sets of `sets` that are sound as data; each problem of the others goes to stderr, and they are left out. */
export async function soundSets(sets: QuestionSet[], section: string): Promise<QuestionSet[]> {
  const sound: QuestionSet[] = [];
  for (const set of sets) {
    const problems = await setProblems(set);
    for (const problem of problems) process.stderr.write(`bench: ${section}: a set is left out: ${problem}\n`);
    if (problems.length === 0) sound.push(set);
  }
  return sound;
}

/**
 * The sets a section reads: every set (the held-out ones fetched first; the sealed ones too with
 * `BENCH_SEALED=1`, read once, when the work they judge is done), each checked as data; or, with
 * `only`, those of the built-in sets (kept in the repository or in node_modules: nothing fetched).
 */
export async function evaluationSets(section: string, only?: string[]): Promise<QuestionSet[]> {
  if (only) return questionSets().filter((set) => only.includes(set.id));
  const which = { sealed: process.env.BENCH_SEALED === '1' };
  for (const problem of await fetchHeldOut(which)) process.stderr.write(`bench: ${section}: a held-out set is left out: ${problem}\n`);
  return [...questionSets(), ...(await soundSets(heldOutSets(which), section))];
}
