import { documentUrl } from '../../packages/bot-answer-engine/src/upstream/folder/document-url.js';
import { resolveSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { retrievalContext } from '../../packages/bot-answer-engine/src/upstream/follow-up.js';
import type { HistoryMessage } from '../../packages/bot-answer/src/protocol/types.js';
import { median, percentile } from '../lib/stats.js';
import type { Engine } from './engines.js';
import { firstQuote, noiseIn, stopsOnQuestion } from './noise.js';
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
  /** The answer's first quote (`firstQuote`: its first source's) holds the key term. */
  keyFirst?: boolean;
  /** Kinds of noise the answer quotes. */
  noise: string[];
  /** The answer's quote stops on a question the page goes on from (`stopsOnQuestion`). */
  stopsOnQuestion: boolean;
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
  /** Asked with its first question: a right page among the first three links of any outcome (answer or related pages). */
  linked: boolean;
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
  /**
   * Each unanswerable question asked as a follow-up after each of the set's first
   * `FOLLOWED_FIRSTS` answerable questions answered confidently (`followedUnanswerable`).
   */
  offTopicFollowed: FollowedOutcome[];
  /** Each answerable question answered from its right page, asked again after other answers (`subjectChanges`): the bench's workers only. */
  switched?: SwitchedOutcome[];
}

/** One answerable question asked after confident answers to other questions: how often still answered from its right page. */
export interface SwitchedOutcome {
  question: string;
  split: 'tune' | 'eval';
  /** The conversations it was asked in, and those in which it was answered confidently from a page that answers it. */
  asked: number;
  right: number;
}

/** One unanswerable question asked as a follow-up after confident answers: how often it was answered confidently. */
export interface FollowedOutcome {
  question: string;
  split: 'tune' | 'eval';
  /** The conversations it was asked in, those in which it was answered confidently, and those in which it was refused (no page shown). */
  asked: number;
  confident: number;
  refused: number;
}

/** The answerable questions answered confidently that a set's unanswerable questions are asked after, as follow-ups. */
export const FOLLOWED_FIRSTS = 3;

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

/**
 * The retrieval context of a question asked after `first`, as the server reads a visitor's
 * follow-up: the history the chat sends (that question and its answer), made into the context by
 * the server's own `retrievalContext`.
 */
export function followUpContext(engine: Engine, first: string): string | undefined {
  const history: HistoryMessage[] = [
    { role: 'user', content: first },
    { role: 'assistant', content: engine.answer(first).answer },
  ];
  return retrievalContext(history);
}

/** The first `count` of `questions` (in their order) the engine answers confidently. */
export function firstConfident(engine: Engine, questions: readonly string[], count: number): string[] {
  const firsts: string[] = [];
  for (const question of questions) {
    if (firsts.length === count) break;
    if (engine.answer(question).answer_found) firsts.push(question);
  }
  return firsts;
}

/**
 * Asks each unanswerable question (`offTopic`, halves by place) as a follow-up after each of
 * `firsts` (questions answered confidently), with that question and its answer as the history,
 * as a visitor asks a second question in the chat: a follow-up the docs do not answer should be
 * as unsure as the question asked alone, whatever the answer before it.
 */
export function followedUnanswerable(engine: Engine, firsts: readonly string[], offTopic: readonly string[]): FollowedOutcome[] {
  const contexts = firsts.map((first) => followUpContext(engine, first));
  return offTopic.map((question, place) => {
    const outcomes = contexts.map((context) => outcomeOf(engine.answer(question, context)));
    return {
      question,
      split: offTopicSplit(place),
      asked: contexts.length,
      confident: outcomes.filter((o) => o === 'answered').length,
      refused: outcomes.filter((o) => o === 'refused').length,
    };
  });
}

/** Of `outcomes` (one half's or all), the follow-ups answered confidently, those refused and those asked. */
export function countFollowed(outcomes: readonly FollowedOutcome[]): { confident: number; refused: number; asked: number } {
  return outcomes.reduce((sum, o) => ({ confident: sum.confident + o.confident, refused: sum.refused + o.refused, asked: sum.asked + o.asked }), { confident: 0, refused: 0, asked: 0 });
}

/** A question with the pages that answer it, as `askedAfter` asks it. */
export interface WantedQuestion {
  question: string;
  split: 'tune' | 'eval';
  want: ReadonlySet<string>;
}

/** Whether `answer` is confident and its first source is one of the pages `want` names. */
export function answeredFrom(answer: ReturnType<Engine['answer']>, want: ReadonlySet<string>): boolean {
  return answer.answer_found && want.has(pageOf(answer.sources[0]?.url ?? ''));
}

/**
 * Asks each of `questions` again after each of `firsts` but itself, with that question and its
 * answer as the history (`followUpContext`): a visitor changing the subject. Counts the
 * conversations in which it is still answered confidently from a page that answers it.
 */
export function askedAfter(engine: Engine, firsts: readonly string[], questions: readonly WantedQuestion[]): SwitchedOutcome[] {
  const contexts = firsts.map((first) => [first, followUpContext(engine, first)] as const);
  return questions.map(({ question, split, want }) => {
    const others = contexts.filter(([first]) => first !== question);
    const right = others.filter(([, context]) => answeredFrom(engine.answer(question, context), want)).length;
    return { question, split, asked: others.length, right };
  });
}

/**
 * The set's answerable questions that `outcome` answered confidently from a right page, each
 * asked again after the set's first `FOLLOWED_FIRSTS` confident answers (`askedAfter`). The other
 * side of `followedUnanswerable`: a rule that keeps unanswerable follow-ups unsure must not make
 * the next, unrelated question a visitor asks less sure than it is alone.
 */
export function subjectChanges(engine: Engine, set: QuestionSet, outcome: SetOutcome): SwitchedOutcome[] {
  const settings = resolveSettings(set.dir, set.settings);
  const firsts = outcome.questions.filter((q) => q.answered).slice(0, FOLLOWED_FIRSTS).map((q) => q.question);
  const rightAlone = set.questions.flatMap((q, place) => {
    const alone = outcome.questions[place];
    return alone?.top1 ? [{ question: q.question, split: alone.split, want: expectedPages(q, settings) }] : [];
  });
  return askedAfter(engine, firsts, rightAlone);
}

/** Of `outcomes` (one half's or all), the questions answered from the right page and those asked. */
export function countSwitched(outcomes: readonly SwitchedOutcome[]): { right: number; asked: number } {
  return outcomes.reduce((sum, o) => ({ right: sum.right + o.right, asked: sum.asked + o.asked }), { right: 0, asked: 0 });
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
    const key = q.keyTerm?.toLowerCase();
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
      ...(key ? { keyTerm: answer.answer_found && answer.answer.toLowerCase().includes(key), keyFirst: answer.answer_found && firstQuote(answer.answer).toLowerCase().includes(key) } : {}),
      noise: answer.answer_found ? noiseIn(answer.answer) : [],
      stopsOnQuestion: answer.answer_found && stopsOnQuestion(answer.answer),
      length: answer.answer_found ? answer.answer.length : 0,
      ms,
      pages,
    };
  };
  const questions = set.questions.map((q) => ask(q));
  const firsts = questions.filter((q) => q.answered).slice(0, FOLLOWED_FIRSTS).map((q) => q.question);
  return {
    questions,
    offTopicFollowed: followedUnanswerable(engine, firsts, set.offTopic),
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
        linked: withContext.linkTop3,
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
  /** Of those, the ones whose first quote holds it: what the visitor reads first. */
  keyFirst: number;
  /** Answered confidently; confidently from the wrong page; "not sure". */
  confident: number;
  wrongPage: number;
  notSure: number;
  linkTop3: number;
  linkAny: number;
  linkFirst: number;
  refused: number;
  noisy: number;
  /** Confident answers whose quote stops on a question. */
  questionStops: number;
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
    keyFirst: keyRight.filter((o) => o.keyFirst).length,
    confident: answered.length,
    wrongPage: outcomes.filter((o) => o.wrongPage).length,
    notSure: outcomes.filter((o) => o.outcome === 'not_sure').length,
    linkTop3: outcomes.filter((o) => o.linkTop3).length,
    linkAny: outcomes.filter((o) => o.linkAny).length,
    linkFirst: outcomes.filter((o) => o.linkFirst).length,
    refused: outcomes.filter((o) => o.outcome === 'refused').length,
    noisy: answered.filter((o) => o.noise.length > 0).length,
    questionStops: answered.filter((o) => o.stopsOnQuestion).length,
    medianLength: median(answered.map((o) => o.length)),
    p50: median(times),
    p95: percentile(times, 95),
  };
}
