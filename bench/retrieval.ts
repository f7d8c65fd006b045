import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadKnowledgeBase, type KbDocument, type KnowledgeBaseSettings } from '../src/upstream/folder/knowledge-base.js';
import { sampleKnowledgeBaseDir } from '../src/upstream/package-root.js';
import { PassageIndex } from '../src/upstream/retrieval/search.js';
import type { Report } from './lib/report.js';

const here = dirname(fileURLToPath(import.meta.url));
const json = <T>(path: string): T => JSON.parse(readFileSync(join(here, path), 'utf8')) as T;

/** The real documentation set: the Markdown docs the fastify package ships (a devDependency), used as they are. */
export const FASTIFY_DOCS = join(here, '..', 'node_modules', 'fastify', 'docs');
/** Where fastify.dev publishes them: `Reference/Server.md` is `.../Reference/Server/`. */
export const FASTIFY_SETTINGS: KnowledgeBaseSettings = { baseUrl: 'https://fastify.dev/docs/latest/', urlExtension: '/', appName: 'Fastify' };

interface Question {
  question: string;
  /** The page that answers it, by URL (sample knowledge base) or by path in the folder (Fastify). */
  expectUrl?: string;
  expect?: string[];
}

interface QuestionSet {
  id: string;
  label: string;
  dir: () => Promise<{ dir: string; done?: () => Promise<void> }>;
  settings?: KnowledgeBaseSettings;
  questions: Question[];
  offTopic: string[];
}

/** Outcome of one question set: how often the right page came first or in the first three, and off-topic refusals. */
export interface RetrievalScore {
  questions: number;
  top1: number;
  top3: number;
  offTopic: number;
  refused: number;
  misses: string[];
}

function questionSets(): QuestionSet[] {
  const sample = json<Question[]>('../test/upstream/sample-questions.json');
  const sampleOffTopic = json<string[]>('../test/upstream/sample-off-topic.json');
  const paraphrases = json<{ questions: Question[] }>('retrieval/sample-paraphrases.json').questions;
  const fastify = json<{ questions: Question[]; offTopic: string[] }>('retrieval/fastify-questions.json');
  const sampleDir = async () => ({ dir: sampleKnowledgeBaseDir() });
  return [
    { id: 'sample', label: 'sample questions, sample knowledge base', dir: sampleDir, questions: sample, offTopic: sampleOffTopic },
    { id: 'paraphrase', label: 'sample questions reworded, sample knowledge base', dir: sampleDir, questions: paraphrases, offTopic: [] },
    { id: 'fastify', label: 'Fastify documentation (fastify package docs/)', dir: async () => ({ dir: FASTIFY_DOCS }),
      settings: FASTIFY_SETTINGS, questions: fastify.questions, offTopic: fastify.offTopic },
  ];
}

/** Asks every question of a set against its knowledge base, in-process, through the same search the server uses. */
export async function scoreSet(dir: string, questions: Question[], offTopic: string[], settings: KnowledgeBaseSettings = {}): Promise<RetrievalScore> {
  const kb = await loadKnowledgeBase(dir, settings);
  const index = new PassageIndex(kb.passages);
  const isExpected = (q: Question, doc: KbDocument): boolean => (q.expectUrl ? doc.source.url === q.expectUrl : Boolean(q.expect?.includes(doc.path)));
  const score: RetrievalScore = { questions: questions.length, top1: 0, top3: 0, offTopic: offTopic.length, refused: 0, misses: [] };
  for (const q of questions) {
    const answer = index.relevant(q.question);
    const ranked = [...new Set(index.search(q.question).map((hit) => hit.passage.document))].slice(0, 3);
    const first = answer[0]?.passage.document;
    if (first && isExpected(q, first)) score.top1++;
    if (answer.length && ranked.some((doc) => isExpected(q, doc))) score.top3++;
    else score.misses.push(`${q.question} -> ${answer.length ? ranked.map((d) => d.path).join(', ') : 'no answer'}`);
  }
  for (const question of offTopic) {
    if (index.relevant(question).length === 0) score.refused++;
    else score.misses.push(`off-topic answered: ${question}`);
  }
  return score;
}

/**
 * Retrieval quality: for each question set, how often the answer's first source is the page
 * that answers the question (top-1), how often that page is among the first three pages of the
 * ranking of an answered question (top-3), and how many off-topic questions get no answer.
 */
export async function benchRetrieval(report: Report): Promise<void> {
  for (const set of questionSets()) {
    const { dir, done } = await set.dir();
    try {
      const s = await scoreSet(dir, set.questions, set.offTopic, set.settings);
      for (const miss of s.misses) process.stderr.write(`bench: retrieval ${set.id}: ${miss}\n`);
      const note = set.label;
      report.add({ section: 'retrieval', id: `${set.id}.top1`, label: `${set.id}: right page first`, value: s.top1, unit: `of ${s.questions}`, note });
      report.add({ section: 'retrieval', id: `${set.id}.top3`, label: `${set.id}: right page in the top 3`, value: s.top3, unit: `of ${s.questions}`, note });
      if (s.offTopic) {
        report.add({
          section: 'retrieval',
          id: `${set.id}.refused`,
          label: `${set.id}: off-topic questions refused`,
          value: s.refused,
          unit: `of ${s.offTopic}`,
          goal: 'all',
          met: s.refused === s.offTopic,
          note,
        });
      }
    } finally {
      await done?.();
    }
  }
}
