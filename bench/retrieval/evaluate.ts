import { documentUrl } from '../../packages/bot-answer-engine/src/upstream/folder/document-url.js';
import { resolveSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { median, percentile } from '../lib/stats.js';
import type { Engine } from './engines.js';
import { noiseIn } from './noise.js';
import type { Question, QuestionSet } from './sets.js';

/** The three outcomes of a question: a confident answer, "not sure" with the closest pages, or a refusal. */
export type Outcome = 'answered' | 'not_sure' | 'refused';

/** Which of the three an answer is, from its seed fields alone (as a client derives it). */
export function outcomeOf(answer: { answer_found: boolean; sources: unknown[] }): Outcome {
  return answer.answer_found ? 'answered' : answer.sources.length ? 'not_sure' : 'refused';
}

/** What happened to one question. */
export interface QuestionOutcome {
  question: string;
  split: 'tune' | 'eval';
  /** Answered confidently. */
  answered: boolean;
  outcome: Outcome;
  /** Answered confidently, its first source not an expected page. */
  wrongPage: boolean;
  /** An expected page is among the first 3 links shown, whatever the outcome (an answer's sources or the related pages). */
  linkTop3: boolean;
  /** An expected page is among the links shown, and is the first of them. */
  linkAny: boolean;
  linkFirst: boolean;
  /** The answer's first source is an expected page. */
  top1: boolean;
  /** An expected page is among the pages of the answer's first three sources. */
  top3: boolean;
  /** The answer holds the question's key term (undefined: the question names none). */
  keyTerm?: boolean;
  /** Kinds of noise the answer quotes. */
  noise: string[];
  length: number;
  ms: number;
  pages: string[];
}

/** What happened to one follow-up, asked with its first question, with that and its answer, and alone: right page in the top 3. */
export interface FollowUpOutcome {
  question: string;
  split: 'tune' | 'eval';
  withContext: boolean;
  withAnswer: boolean;
  alone: boolean;
  /** The question it follows, and the pages of that question's first three sources (for reading misses). */
  first: string;
  firstPages: string[];
  /** The pages of its first three sources when asked with the first question, and the pages that answer it. */
  pages: string[];
  expected: string[];
}

/** A set's questions asked of one engine: answerable, off-topic, and follow-ups with and without their conversation. */
export interface SetOutcome {
  questions: QuestionOutcome[];
  /** `refused`: not answered confidently (refused or not sure); `outcome` says which. */
  offTopic: Array<{ question: string; split: 'tune' | 'eval'; refused: boolean; outcome: Outcome }>;
  followUps: FollowUpOutcome[];
}

/** An off-topic (unanswerable) question's half: its place in the list, even places tune, odd eval, fixed before tuning. */
export function offTopicSplit(place: number): 'tune' | 'eval' {
  return place % 2 === 0 ? 'tune' : 'eval';
}

/**
 * An answerable question's half as the tuning scripts read it (`tune.ts --by-place`): its own
 * `split`, or, in a set whose questions are all `eval` (a held-out or once-sealed set), its place,
 * as an off-topic question's.
 */
export function placeSplit(set: QuestionSet): (question: Question, place: number) => 'tune' | 'eval' {
  const allEval = set.questions.every((q) => q.split === 'eval');
  return (question, place) => (allEval ? offTopicSplit(place) : (question.split ?? 'tune'));
}

/**
 * Splits, in place, a set's outcome the way `tune.ts --by-place` reads it: in a set whose
 * answerable questions are all `eval` (a held-out or once-sealed set), the questions by their
 * place, and its follow-ups too when they are all `eval` as well, each list by its own places
 * (even tune, odd eval). A set with its own split keeps it.
 */
export function splitByPlace(outcome: SetOutcome): void {
  if (!outcome.questions.every((q) => q.split === 'eval')) return;
  outcome.questions.forEach((q, place) => (q.split = offTopicSplit(place)));
  if (outcome.followUps.every((f) => f.split === 'eval')) outcome.followUps.forEach((f, place) => (f.split = offTopicSplit(place)));
}

/** The page a link points at: its URL without the section's anchor. */
export function pageOf(url: string): string {
  return url.replace(/#.*$/, '');
}

/** The URLs of the pages that answer `question`, under the set's resolved settings. */
export function expectedPages(question: Question, settings: ReturnType<typeof resolveSettings>): Set<string> {
  return new Set(question.expectUrl ? [question.expectUrl] : (question.expect ?? []).map((path) => documentUrl(path, settings)!));
}

/** Asks every question of the set, timing each answer (retrieval and composition). */
export function evaluate(engine: Engine, set: QuestionSet): SetOutcome {
  const settings = resolveSettings(set.dir, set.settings);
  const expected = (q: Question): Set<string> => expectedPages(q, settings);
  const ask = (q: Question, context?: string): QuestionOutcome => {
    const started = performance.now();
    const answer = engine.answer(q.question, context);
    const ms = performance.now() - started;
    const pages = [...new Set(answer.sources.slice(0, 3).map((s) => pageOf(s.url ?? '')))];
    const links = answer.sources.map((s) => pageOf(s.url ?? ''));
    const want = expected(q);
    const rightFirst = want.has(links[0] ?? '');
    return {
      question: q.question,
      split: q.split ?? 'tune',
      answered: answer.answer_found,
      outcome: outcomeOf(answer),
      wrongPage: answer.answer_found && !rightFirst,
      linkTop3: links.slice(0, 3).some((page) => want.has(page)),
      linkAny: links.some((page) => want.has(page)),
      linkFirst: rightFirst,
      top1: answer.answer_found && want.has(pageOf(answer.sources[0]?.url ?? '')),
      top3: answer.answer_found && pages.some((page) => want.has(page)),
      ...(q.keyTerm ? { keyTerm: answer.answer_found && answer.answer.toLowerCase().includes(q.keyTerm.toLowerCase()) } : {}),
      noise: answer.answer_found ? noiseIn(answer.answer) : [],
      length: answer.answer_found ? answer.answer.length : 0,
      ms,
      pages,
    };
  };
  return {
    questions: set.questions.map((q) => ask(q)),
    offTopic: set.offTopic.map((question, place) => {
      const outcome = outcomeOf(engine.answer(question));
      return { question, split: offTopicSplit(place), refused: outcome !== 'answered', outcome };
    }),
    followUps: set.followUps.map((f) => {
      const first = engine.answer(f.first);
      const withContext = ask(f, f.first);
      return {
        question: f.question,
        split: f.split ?? 'tune',
        withContext: withContext.top3,
        withAnswer: ask(f, `${f.first}\n\n${first.answer}`).top3,
        alone: ask(f).top3,
        first: f.first,
        firstPages: [...new Set(first.sources.slice(0, 3).map((s) => pageOf(s.url ?? '')))],
        pages: withContext.pages,
        expected: [...expected(f)],
      };
    }),
  };
}

/** The figures of one half (or all) of a set's questions. */
export interface Summary {
  questions: number;
  top1: number;
  top3: number;
  keyTerms: number;
  keyTerm: number;
  /** Confident answers from the right page whose question names a key term, and those of them holding it. */
  keyRightOf: number;
  keyRight: number;
  /** Answered confidently; confidently from the wrong page; "not sure". */
  confident: number;
  wrongPage: number;
  notSure: number;
  linkTop3: number;
  linkAny: number;
  linkFirst: number;
  refused: number;
  noisy: number;
  medianLength: number;
  p50: number;
  p95: number;
}

export function summarise(outcomes: QuestionOutcome[]): Summary {
  const answered = outcomes.filter((o) => o.answered);
  const withKey = outcomes.filter((o) => o.keyTerm !== undefined);
  const keyRight = withKey.filter((o) => o.answered && o.top1);
  const times = outcomes.map((o) => o.ms);
  return {
    questions: outcomes.length,
    top1: outcomes.filter((o) => o.top1).length,
    top3: outcomes.filter((o) => o.top3).length,
    keyTerms: withKey.length,
    keyTerm: withKey.filter((o) => o.keyTerm).length,
    keyRightOf: keyRight.length,
    keyRight: keyRight.filter((o) => o.keyTerm).length,
    confident: answered.length,
    wrongPage: outcomes.filter((o) => o.wrongPage).length,
    notSure: outcomes.filter((o) => o.outcome === 'not_sure').length,
    linkTop3: outcomes.filter((o) => o.linkTop3).length,
    linkAny: outcomes.filter((o) => o.linkAny).length,
    linkFirst: outcomes.filter((o) => o.linkFirst).length,
    refused: outcomes.filter((o) => o.outcome === 'refused').length,
    noisy: answered.filter((o) => o.noise.length > 0).length,
    medianLength: median(answered.map((o) => o.length)),
    p50: median(times),
    p95: percentile(times, 95),
  };
}
