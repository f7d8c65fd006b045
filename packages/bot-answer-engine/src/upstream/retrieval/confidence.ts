/**
 * How sure retrieval is that the page it would answer from is the right one: one score from
 * figures the ranking already has, a logistic model fitted on the tune halves of the benchmark's
 * sets (`bench/retrieval/fit-confidence.ts`, checked leaving one set out), in place of a few
 * thresholds set by hand. A close call between two pages, a passage matching little of the
 * question, a passage not standing out of the pages the question finds: each lowers it.
 */

/** What the model reads of the passage retrieval would answer from. */
export interface ConfidenceFeatures {
  /** ln of its score over the best passage of another page (one saying something else), at most ln 3: how clearly it wins. */
  margin: number;
  /** Share of the question's words, by rarity in the docs (IDF), it matches (`SearchHit.coverage`). */
  coverage: number;
  /** Share of the question's telling weight its page's candidate passages match together. */
  pageTelling: number;
  /** Share of the question's telling weight its heading path (the page's title, the section's headings, the page's path) matches. */
  headTelling: number;
  /** How telling its matched words are (`SearchHit.strength`) over 5, at most 1. */
  strength: number;
  /** ln(1 + the question's words): a passage matching much of a long question is surer than one matching a one-word question. */
  words: number;
  /**
   * ln of its score over the median of the best scores of the question's ten best-scoring pages
   * (fewer when fewer pages match): how far it stands out of all the pages the question finds,
   * not only the next one. A margin over the runner-up means more when the pages behind that one
   * trail far (two pages on the topic) than when ten score alike (a reference whose pages share
   * their words).
   */
  pagePeak: number;
}

/** The model: a weight per feature and a bias; the score is the logistic of their sum. */
export type ConfidenceModel = Record<keyof ConfidenceFeatures | 'bias', number>;

/** The most a margin counts: a page three times as good as the next is as clear as it gets. */
export const MAX_MARGIN = Math.log(3);
/** `strength` is divided by this, and counts at most 1. */
export const STRENGTH_SCALE = 5;

/** Fitted on the tune halves of every set not sealed, at 736 questions with a passage to judge (bench/retrieval/rounds.md, "Confident when right, round 12 (the folder)"). */
export const CONFIDENCE_MODEL: ConfidenceModel = {
  bias: -2.4,
  margin: 1.64,
  coverage: 0.14,
  pageTelling: 1.79,
  headTelling: -0.81,
  strength: 1.84,
  words: -0.02,
  pagePeak: 1.12,
};

/**
 * The model judging a follow-up (`followUpModel`), fitted on follow-ups: the tune halves'
 * answerable follow-ups and their unanswerable questions asked after each of a set's first three
 * confident answers, each judged on its passage as ranked with the conversation
 * (`fit-confidence.ts --follow-ups`; bench/retrieval/rounds.md, "Follow-ups, round 17"). A follow-up of few
 * words of its own leans on the conversation, as a follow-up does; one of many words is a
 * question of its own (`words` weighs against it), and when the model is not sure of it, it is
 * decided again as its words asked alone.
 */
export const FOLLOW_UP_MODEL: ConfidenceModel = {
  bias: 2.71,
  margin: 0.67,
  coverage: 1.64,
  pageTelling: 1.07,
  headTelling: 0.16,
  strength: -0.01,
  words: -3.31,
  pagePeak: 0.72,
};

/** The features in a fixed order (the fitting script's columns). */
export const FEATURE_NAMES: ReadonlyArray<keyof ConfidenceFeatures> = ['margin', 'coverage', 'pageTelling', 'headTelling', 'strength', 'words', 'pagePeak'];

/** The probability, 0..1, that the page is the right one, by `model`. */
export function confidence(features: ConfidenceFeatures, model: ConfidenceModel = CONFIDENCE_MODEL): number {
  let sum = model.bias;
  for (const name of FEATURE_NAMES) sum += model[name] * features[name];
  return 1 / (1 + Math.exp(-sum));
}
