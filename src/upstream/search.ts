import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import MiniSearch, { type Query } from 'minisearch';
import { stemmer } from 'stemmer';
import type { Passage } from './knowledge-base.js';

/** A passage that matched a question, with how well. */
export interface SearchHit {
  passage: Passage;
  /** MiniSearch's BM25 score: orders the hits. */
  score: number;
  /** The question's terms (after stemming) that this passage matched, exactly or by prefix or typo. */
  matchedTerms: string[];
  /**
   * Share of the question that this passage matched, 0..1: each term weighs its rarity in the
   * knowledge base (IDF), so missing the rare, telling word of a question counts most; a term
   * matched only by prefix or typo counts half.
   */
  coverage: number;
  /** How telling the matched terms are, in units of the rarest possible term's IDF. */
  strength: number;
}

/**
 * When a passage counts as an answer. Both measures are relative to the knowledge base (IDF),
 * so the defaults hold for a small folder and a large one; they were tuned on the sample
 * knowledge base, its sample questions and off-topic questions.
 */
export interface RelevanceOptions {
  /** Most passages an answer quotes. Default 3. */
  maxPassages?: number;
  /** Least `coverage` of the best passage. Default 0.55. */
  minCoverage?: number;
  /** Least `strength` of the best passage: one common word matched is not an answer. Default 0.5. */
  minStrength?: number;
  /** Passages after the best must score at least this share of its score. Default 0.5. */
  relativeScore?: number;
}

const DEFAULT_RELEVANCE: Required<RelevanceOptions> = { maxPassages: 3, minCoverage: 0.55, minStrength: 0.5, relativeScore: 0.5 };

// Words that say nothing about what is asked; without them "what is the" would match everything.
const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by
  can cannot could did do does doing done down during each either else etc ever every few for from further get gets getting got
  had has have having he her here hers herself him himself his how however i if in into is it its itself just know let like
  many may me might mine more most much must my myself need needs no nor not now of often on once one only or other our ours
  ourselves out over own please same shall she should so some such tell than that the their theirs them themselves then there
  these they thing things this those though through to too under until up upon us very want wants was way we were what whats
  when where which while who whom whose why will with within without would yes yet you your yours yourself yourselves
  hello hi hey thanks thank ok okay`.split(/\s+/),
);

/** Splits text into words: letters and digits of any script; everything else separates. */
export function tokenize(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

const WORD = /[\p{L}\p{N}]+/gu;
const LETTERS = /^\p{L}+$/u;
const HYPHEN_GAP = /^[-\u2010\u2011]$/;
const SPACE_GAP = /^[ \t]+$/;
const MAX_JOINED = 24;

/**
 * Adjacent words written apart, joined: "roll back" gives "rollback", "log in" "login",
 * "e-mail" "email", so the compound and the split form of a word meet whichever way the
 * document and the question write it. Pairs are of letters only, apart by spaces or one
 * hyphen; a pair apart by spaces whose first word is a stop word ("the kettle") or whose
 * second is a single letter ("back a") is no compound and is left out.
 */
export function joinedPairs(text: string): Array<{ joined: string; parts: [string, string] }> {
  const pairs: Array<{ joined: string; parts: [string, string] }> = [];
  let previous: RegExpExecArray | undefined;
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    if (previous && LETTERS.test(word) && LETTERS.test(previous[0]) && previous[0].length + word.length <= MAX_JOINED) {
      const gap = text.slice(previous.index + previous[0].length, match.index);
      const apart = SPACE_GAP.test(gap) && word.length > 1 && !STOP_WORDS.has(previous[0].toLowerCase());
      if (apart || HYPHEN_GAP.test(gap)) {
        pairs.push({ joined: previous[0] + word, parts: [previous[0], word] });
      }
    }
    previous = match;
  }
  return pairs;
}

/** Like `tokenize`, plus the joined form of words of several hyphens ("end-to-end"); two-part ones are `joinedPairs`. */
export function tokenizeForIndex(text: string): string[] {
  const hyphenated = text.match(/[\p{L}\p{N}]+(?:[-\u2010\u2011][\p{L}\p{N}]+){2,}/gu) ?? [];
  return [...tokenize(text), ...hyphenated.map((word) => word.replace(/[-\u2010\u2011]/g, ''))];
}

/** The joined pairs of a passage's title, headings and text, space-separated (the `compounds` field). */
function compoundsOf({ title, headings, text }: IndexedPassage): string {
  return joinedPairs(`${title}\n${headings}\n${text}`)
    .map((pair) => pair.joined)
    .join(' ');
}

/** Lower-cases, drops stop words and one-letter words, and stems (Porter), so "booking" and "booked" meet at "book". */
export function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (lower.length < 2 || STOP_WORDS.has(lower)) return null;
  return stem(lower);
}

/** The Porter stem of a lower-case word; stems need not be words, as the index and the question go through the same function. */
export function stem(word: string): string {
  return /\d/.test(word) ? word : stemmer(word);
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
  /** In how many passages each term occurs. */
  readonly #documentFrequency = new Map<string, number>();

  constructor(passages: Passage[], relevance: RelevanceOptions = {}, populate = true) {
    this.#passages = passages;
    this.#relevance = { ...DEFAULT_RELEVANCE, ...relevance };
    this.#search = new MiniSearch<IndexedPassage>({
      // Joined word pairs go to a field of their own, so the words' own fields keep their
      // lengths (BM25 normalises by them) and a compound adds to a passage's score only once.
      fields: ['title', 'headings', 'text', 'compounds'],
      extractField: (document, field) => (field === 'compounds' ? compoundsOf(document as IndexedPassage) : (document as unknown as Record<string, string>)[field]!),
      tokenize: (text, field) => (field === 'compounds' ? text.split(' ') : tokenizeForIndex(text)),
      processTerm,
      searchOptions: {
        tokenize,
        boost: FIELD_BOOST,
        prefix: (term) => term.length >= 5,
        // One typo is forgiven in longer words only; short nonsense must not match real words.
        fuzzy: (term) => (term.length >= 6 ? 1 : false),
      },
    });
    if (!populate) return;
    this.#search.addAll(passages.map(indexed));
    this.#countTerms(0, passages.length);
  }

  /**
   * Builds the index a few hundred passages at a time, yielding to the event loop between
   * them, so a server re-indexing a large folder keeps answering from its current index.
   */
  static async build(passages: Passage[], relevance: RelevanceOptions = {}): Promise<PassageIndex> {
    const index = new PassageIndex(passages, relevance, false);
    await index.#search.addAllAsync(passages.map(indexed), { chunkSize: BUILD_CHUNK });
    for (let from = 0; from < passages.length; from += BUILD_CHUNK) {
      index.#countTerms(from, from + BUILD_CHUNK);
      await yieldToEventLoop();
    }
    return index;
  }

  #countTerms(from: number, to: number): void {
    for (const passage of this.#passages.slice(from, to)) {
      const { title, headings, text } = indexed(passage);
      for (const term of new Set(termsOf(`${title}\n${headings}\n${text}`, (all) => [...tokenizeForIndex(all), ...joinedPairs(all).map((pair) => pair.joined)]))) {
        this.#documentFrequency.set(term, (this.#documentFrequency.get(term) ?? 0) + 1);
      }
    }
  }

  /** Every passage matching any of the question's terms, best first (ties by position, so deterministic). */
  search(question: string): SearchHit[] {
    const terms = [...new Set(termsOf(question, tokenize))];
    const total = terms.reduce((sum, term) => sum + this.#idf(term), 0);
    if (terms.length === 0) return [];
    const rarest = this.#idf('');
    // The question's word pairs joined, where the knowledge base has that compound; a match
    // of one counts for the words it joins.
    const compounds = joinedPairs(question).flatMap(({ joined, parts }) => {
      const term = processTerm(joined);
      if (!term || !this.#documentFrequency.has(term) || terms.includes(term)) return [];
      return [{ joined, term, parts: parts.map(processTerm).filter((part): part is string => Boolean(part)) }];
    });
    const words = tokenize(question);
    // The words by prefix and typo too, but in the compounds field only exactly: "first" must not
    // find "firstweek", while "rollback" must find a document's "roll back".
    const query: Query = {
      combineWith: 'OR',
      queries: [
        { queries: words, fields: WORD_FIELDS, boost: FIELD_BOOST },
        { queries: words, fields: ['compounds'], prefix: false, fuzzy: false, boost: { compounds: COMPOUND_WEIGHT } },
        ...(compounds.length
          ? [{ queries: compounds.map((c) => c.joined), fields: WORD_FIELDS, prefix: false, fuzzy: false, boost: scaled(FIELD_BOOST, COMPOUND_WEIGHT) }]
          : []),
      ],
    };
    return this.#search
      .search(query)
      .map((result) => {
        const matched = new Set(result.queryTerms);
        // `match` is keyed by the document terms found: the query term itself when it matched exactly.
        const credit = (term: string): number => (Object.hasOwn(result.match, term) ? 1 : matched.has(term) ? 0.5 : 0);
        let weight = 0;
        let covered = 0;
        for (const term of terms) {
          const viaCompound = compounds.reduce((best, c) => (c.parts.includes(term) ? Math.max(best, credit(c.term)) : best), 0);
          const got = Math.max(credit(term), viaCompound);
          weight += this.#idf(term) * got;
          if (got > 0) covered++;
        }
        return {
          passage: this.#passages[result.id as number]!,
          // MiniSearch multiplies the score by the number of query terms matched; a compound is
          // no word of its own, so it counts as the words it covers.
          score: (result.score / Math.max(1, matched.size)) * Math.max(1, covered),
          matchedTerms: [...matched],
          coverage: weight / total,
          strength: weight / rarest,
        };
      })
      .sort((a, b) => b.score - a.score || a.passage.index - b.passage.index);
  }

  /**
   * The passages good enough to answer from: the best-scoring one that covers enough of the
   * question with telling enough terms, then others as telling that cover at least half as
   * much and score near it. Empty: no answer.
   */
  relevant(question: string): SearchHit[] {
    const { maxPassages, minCoverage, minStrength, relativeScore } = this.#relevance;
    const hits = this.search(question);
    const best = hits.find((hit) => hit.coverage >= minCoverage && hit.strength >= minStrength);
    if (!best) return [];
    // A question may touch several topics: passages after the best need only cover part of it.
    const others = hits.filter(
      (hit) => hit !== best && hit.coverage >= minCoverage / 2 && hit.strength >= minStrength && hit.score >= best.score * relativeScore,
    );
    return [best, ...others].slice(0, maxPassages);
  }

  /** BM25's inverse document frequency; a term in no passage gets the highest. */
  #idf(term: string): number {
    const n = this.#documentFrequency.get(term) ?? 0;
    const count = this.#passages.length;
    return Math.log(1 + (count - n + 0.5) / (n + 0.5));
  }
}

const BUILD_CHUNK = 200;
const WORD_FIELDS = ['title', 'headings', 'text'];
const FIELD_BOOST = { title: 1.5, headings: 2, text: 1 };
/**
 * A compound is another spelling of words the question may also match one by one: it scores at
 * this share, so a passage holding both forms does not outscore the rest twice over.
 */
const COMPOUND_WEIGHT = 0.25;

function scaled(boost: Record<string, number>, factor: number): Record<string, number> {
  return Object.fromEntries(Object.entries(boost).map(([field, value]) => [field, value * factor]));
}

function indexed(p: Passage): IndexedPassage {
  return { id: p.index, title: p.document.source.title, headings: p.headings.join(' '), text: p.markdown };
}

function termsOf(text: string, split: (text: string) => string[]): string[] {
  return split(text)
    .map(processTerm)
    .filter((term): term is string => Boolean(term));
}
