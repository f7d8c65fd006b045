import MiniSearch from 'minisearch';
import type { Passage } from './knowledge-base.js';

/** A passage that matched a question, with how well. */
export interface SearchHit {
  passage: Passage;
  /** MiniSearch's BM25 score. */
  score: number;
  /** The question's terms (after stemming) that this passage matched. */
  matchedTerms: string[];
  /** Share of the question's terms that this passage matched, 0..1. */
  coverage: number;
}

/** When a passage counts as an answer; the defaults were tuned on the sample knowledge base. */
export interface RelevanceOptions {
  /** Most passages an answer quotes. Default 3. */
  maxPassages?: number;
  /** Least share of the question's terms the best passage must match. Default 0.5. */
  minCoverage?: number;
  /** Least BM25 score. Default 2. */
  minScore?: number;
  /** Passages after the best must score at least this share of its score. Default 0.5. */
  relativeScore?: number;
}

const DEFAULT_RELEVANCE: Required<RelevanceOptions> = { maxPassages: 3, minCoverage: 0.5, minScore: 2, relativeScore: 0.5 };

// Words that say nothing about what is asked; without them "what is the" would match everything.
const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by
  can cannot could did do does doing done down during each either else etc ever every few for from further get gets getting got
  had has have having he her here hers herself him himself his how however i if in into is it its itself just know let like
  may me might mine more most much must my myself need needs no nor not now of often on once one only or other our ours
  ourselves out over own please same shall she should so some such tell than that the their theirs them themselves then there
  these they thing things this those though through to too under until up upon us very want wants was way we were what whats
  when where which while who whom whose why will with within without would yes yet you your yours yourself yourselves`.split(/\s+/),
);

/** Splits text into words: letters and digits of any script; everything else separates. */
export function tokenize(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Lower-cases, drops stop words and one-letter words, and strips common English suffixes. */
export function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (lower.length < 2 || STOP_WORDS.has(lower)) return null;
  return stem(lower);
}

/** A light suffix stripper (plurals, -ing, -ed) so "booking", "booked" and "books" meet at "book". */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length > 4) w = undouble(w.slice(0, -2));
  return w;
}

function undouble(w: string): string {
  return /([^aeioulsz])\1$/.test(w) ? w.slice(0, -1) : w;
}

interface IndexedPassage {
  id: number;
  title: string;
  headings: string;
  text: string;
}

/** Full-text index over a knowledge base's passages (MiniSearch, BM25). */
export class PassageIndex {
  readonly #passages: Passage[];
  readonly #search: MiniSearch<IndexedPassage>;
  readonly #relevance: Required<RelevanceOptions>;

  constructor(passages: Passage[], relevance: RelevanceOptions = {}) {
    this.#passages = passages;
    this.#relevance = { ...DEFAULT_RELEVANCE, ...relevance };
    this.#search = new MiniSearch<IndexedPassage>({
      fields: ['title', 'headings', 'text'],
      tokenize,
      processTerm,
      searchOptions: {
        boost: { title: 1.5, headings: 2 },
        prefix: (term) => term.length >= 4,
        // One typo is forgiven in longer words only; short nonsense must not match real words.
        fuzzy: (term) => (term.length >= 6 ? 1 : false),
      },
    });
    this.#search.addAll(
      passages.map((p) => ({ id: p.index, title: p.document.source.title, headings: p.headings.join(' '), text: p.markdown })),
    );
  }

  /** Every passage matching any of the question's terms, best first (ties by position, so deterministic). */
  search(question: string): SearchHit[] {
    const terms = new Set(tokenize(question).map(processTerm).filter((t): t is string => Boolean(t)));
    if (terms.size === 0) return [];
    return this.#search
      .search(question)
      .map((result) => {
        const matched = [...new Set(result.queryTerms)];
        return {
          passage: this.#passages[result.id as number]!,
          score: result.score,
          matchedTerms: matched,
          coverage: matched.length / terms.size,
        };
      })
      .sort((a, b) => b.score - a.score || a.passage.index - b.passage.index);
  }

  /**
   * The passages good enough to answer from: the best one must match enough of the question and
   * score high enough; the others must match at least half as much and score near the best.
   * Empty: no answer.
   */
  relevant(question: string): SearchHit[] {
    const { maxPassages, minCoverage, minScore, relativeScore } = this.#relevance;
    const hits = this.search(question).filter((hit) => hit.score >= minScore);
    const best = hits.find((hit) => hit.coverage >= minCoverage);
    if (!best) return [];
    // A question may touch several topics: passages after the best need only cover part of it.
    const others = hits.filter((hit) => hit !== best && hit.coverage >= minCoverage / 2 && hit.score >= best.score * relativeScore);
    return [best, ...others].slice(0, maxPassages);
  }
}
