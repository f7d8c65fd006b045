import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KnowledgeBaseSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { sampleKnowledgeBaseDir } from '../../packages/bot-answer-engine/src/upstream/package-root.js';

const here = dirname(fileURLToPath(import.meta.url));
const modules = join(here, '..', '..', 'node_modules');
const json = <T>(path: string): T => JSON.parse(readFileSync(join(here, path), 'utf8')) as T;

/** A question with the page(s) that answer it. */
export interface Question {
  question: string;
  /** The answering page by URL (sample knowledge base) ... */
  expectUrl?: string;
  /** ... or by path in the folder: any of these pages answers it. */
  expect?: string[];
  /** A word the answer must hold to be of use: the function, option or tool asked about. */
  keyTerm?: string;
  /** Fixed before tuning: the engine is tuned on `tune` questions only; both halves are reported. */
  split?: 'tune' | 'eval';
}

/** A follow-up: asked after `first`, naming nothing of it. */
export interface FollowUp extends Question {
  first: string;
}

/** An evaluation set: a documentation folder and questions asked of it. */
export interface QuestionSet {
  id: string;
  label: string;
  dir: string;
  settings: KnowledgeBaseSettings;
  questions: Question[];
  /** Unanswerable questions: off the docs' topic, or near it and sharing its words. Even places are the tune half, odd the eval half. */
  offTopic: string[];
  followUps: FollowUp[];
  /** Tuned on by earlier engines: its figures are not evidence of generalising. */
  tunedBefore?: boolean;
  /** Held out (held-out.ts): fetched apart; tuned on since issue 27, like the other sets. */
  heldOut?: boolean;
  /**
   * Sealed (held-out.ts, `sealed/`): written before the engine it judges was changed, and read
   * once, at the end, when that work is done; never tuned on, never looked at while tuning.
   * A sealed set is also `heldOut`.
   */
  sealed?: boolean;
  /** The npm package (`name@version`) the docs are fetched from; absent when they are kept in the repository. */
  package?: string;
}

/** The real documentation set of the scale benchmark: the Markdown docs the fastify package ships (a devDependency), used as they are. */
export const FASTIFY_DOCS = join(modules, 'fastify', 'docs');
/** Where fastify.dev publishes them: `Reference/Server.md` is `.../Reference/Server/`. */
export const FASTIFY_SETTINGS: KnowledgeBaseSettings = { baseUrl: 'https://fastify.dev/docs/latest/', urlExtension: '/', appName: 'Fastify' };

interface SetFile {
  questions: Question[];
  offTopic: string[];
  followUps?: FollowUp[];
}

/** Every evaluation set: the sample knowledge base (asked two ways) and four documentation folders shipped in npm packages, used as they ship. */
export function questionSets(): QuestionSet[] {
  const sampleDir = sampleKnowledgeBaseDir();
  const sample = json<Question[]>('../../test/upstream/sample-questions.json');
  const sampleOffTopic = json<string[]>('../../test/upstream/sample-off-topic.json');
  const paraphrases = json<{ questions: Question[]; offTopic: string[] }>('sample-paraphrases.json');
  const docs = (id: string, label: string, dir: string, settings: KnowledgeBaseSettings, tunedBefore = false): QuestionSet => {
    const file = json<SetFile>(`${id}-questions.json`);
    return { id, label, dir, settings, questions: file.questions, offTopic: file.offTopic, followUps: file.followUps ?? [], ...(tunedBefore ? { tunedBefore } : {}) };
  };
  return [
    { id: 'sample', label: 'sample questions, sample knowledge base', dir: sampleDir, settings: {}, questions: sample, offTopic: sampleOffTopic, followUps: [], tunedBefore: true },
    { id: 'paraphrase', label: 'sample questions reworded, sample knowledge base', dir: sampleDir, settings: {}, questions: paraphrases.questions, offTopic: paraphrases.offTopic, followUps: [], tunedBefore: true },
    docs('fastify', 'Fastify docs (fastify package, docs/)', FASTIFY_DOCS, FASTIFY_SETTINGS, true),
    docs('undici', 'undici docs (undici package, docs/)', join(modules, 'undici-docs', 'docs'), { baseUrl: 'https://undici.nodejs.org/', urlExtension: '.html', appName: 'undici' }),
    docs('pino', 'pino docs (pino package, docs/)', join(modules, 'pino', 'docs'), { baseUrl: 'https://getpino.io/docs/', urlExtension: '.html', appName: 'pino' }),
    docs('bun', "Bun docs (bun-types package, docs/: 1,396 MDX pages)", join(modules, 'bun-types', 'docs'), { baseUrl: 'https://bun.com/docs/', appName: 'Bun' }),
  ];
}
