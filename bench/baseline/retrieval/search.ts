import MiniSearch, { type Query, type SearchResult } from 'minisearch';
import { stemmer } from 'stemmer';
import type { Passage } from '../folder/knowledge-base.js';

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
  /** How telling the matched terms are, in units of the IDF of a term found in one passage (the most telling a match can be). */
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
const NOT_LETTERS = /[^\p{L}]/u;
const MAX_PART = 7;

function isHyphen(gap: string): boolean {
  return gap.length === 1 && (gap === '-' || gap === '\u2010' || gap === '\u2011');
}

function isSpace(gap: string): boolean {
  for (let i = 0; i < gap.length; i++) if (gap[i] !== ' ' && gap[i] !== '\t') return false;
  return gap.length > 0;
}

/**
 * The words of a text in one pass, with what they make together:
 * - `pairs`: adjacent words written apart, joined: "roll back" gives "rollback", "log in"
 *   "login", "e-mail" "email", so the compound and the split form of a word meet whichever way
 *   the document and the question write it. Pairs are of letters only, apart by spaces or one
 *   hyphen, each word of up to 7 letters (closed compounds join short words: webhook,
 *   database, timeout, checkpoint; leaving longer ones out saves a quarter of the indexing);
 *   a pair apart by spaces whose first word is a stop word ("the kettle") or whose second is a
 *   single letter ("back a") is no compound and is left out.
 * - `chains`: words of three or more joined by hyphens, joined whole ("end-to-end": "endtoend").
 */
export function scanWords(text: string): { words: string[]; pairs: Array<{ joined: string; parts: [string, string] }>; chains: string[] } {
  const words: string[] = [];
  const pairs: Array<{ joined: string; parts: [string, string] }> = [];
  const chains: string[] = [];
  let previous = '';
  let previousEnd = -1;
  let previousIsLetters = false;
  let chain: string[] = [];
  const endChain = (): void => {
    if (chain.length >= 3) chains.push(chain.join(''));
  };
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    const isLetters = !NOT_LETTERS.test(word);
    const gap = previousEnd < 0 ? '' : text.slice(previousEnd, match.index);
    const hyphen = previousEnd >= 0 && isHyphen(gap);
    if (previousIsLetters && isLetters && previous.length <= MAX_PART && word.length <= MAX_PART) {
      const apart = word.length > 1 && isSpace(gap) && !STOP_WORDS.has(previous.toLowerCase());
      if (apart || hyphen) pairs.push({ joined: previous + word, parts: [previous, word] });
    }
    if (hyphen) chain.push(word);
    else {
      endChain();
      chain = [word];
    }
    words.push(word);
    previous = word;
    previousEnd = match.index + word.length;
    previousIsLetters = isLetters;
  }
  endChain();
  return { words, pairs, chains };
}

// Most words of a knowledge base recur: stemming each form once saves most of the indexing time.
const processed = new Map<string, string | null>();
const MAX_PROCESSED = 500_000;

/** Lower-cases, drops stop words and one-letter words, and stems (Porter), so "booking" and "booked" meet at "book". */
export function processTerm(term: string): string | null {
  const known = processed.get(term);
  if (known !== undefined) return known;
  const lower = term.toLowerCase();
  const result = lower.length < 2 || STOP_WORDS.has(lower) ? null : stem(lower);
  if (processed.size >= MAX_PROCESSED) processed.clear();
  processed.set(term, result);
  return result;
}

/** The Porter stem of a lower-case word; stems need not be words, as the index and the question go through the same function. */
export function stem(word: string): string {
  return /\d/.test(word) ? word : stemmer(word);
}

/**
 * Turns passages into MiniSearch's terms while indexing, counting in how many passages each term
 * occurs on the way (one pass over the text): MiniSearch asks for a passage's fields in turn,
 * and the compounds field gets the pairs found in the others.
 */
class TermCollector {
  readonly documentFrequency = new Map<string, number>();
  #passage: IndexedPassage | undefined;
  #terms = new Set<string>();
  #compounds: string[] = [];

  field(passage: IndexedPassage, field: string): string {
    if (passage !== this.#passage) {
      this.flush();
      this.#passage = passage;
    }
    return field === 'compounds' ? '' : (passage[field as keyof IndexedPassage] as string);
  }

  tokenize(text: string, field: string | undefined): string[] {
    if (field === 'compounds') return this.#compounds;
    const { words, pairs, chains } = scanWords(text);
    const terms: string[] = [];
    for (const word of words) this.#add(word, terms);
    for (const chain of chains) this.#add(chain, terms);
    for (const pair of pairs) this.#add(pair.joined, this.#compounds);
    return terms;
  }

  /** Counts the last passage's terms; call once indexing is done. */
  flush(): void {
    for (const term of this.#terms) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    this.#terms = new Set();
    this.#compounds = [];
    this.#passage = undefined;
  }

  #add(word: string, into: string[]): void {
    const term = processTerm(word);
    if (!term) return;
    into.push(term);
    this.#terms.add(term);
  }
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
  readonly #collector: TermCollector;
  /** In how many passages each term occurs. */
  readonly #documentFrequency: Map<string, number>;

  constructor(passages: Passage[], relevance: RelevanceOptions = {}, populate = true) {
    this.#passages = passages;
    this.#relevance = { ...DEFAULT_RELEVANCE, ...relevance };
    const collector = new TermCollector();
    this.#collector = collector;
    this.#documentFrequency = collector.documentFrequency;
    this.#search = new MiniSearch<IndexedPassage>({
      // Joined word pairs go to a field of their own, so the words' own fields keep their
      // lengths (BM25 normalises by them) and a compound adds to a passage's score only once.
      fields: ['title', 'headings', 'text', 'compounds'],
      extractField: (passage, field) => (field === 'id' ? (passage as IndexedPassage).id : collector.field(passage as IndexedPassage, field)),
      // Terms come out of the collector processed already.
      tokenize: (text, field) => collector.tokenize(text, field),
      processTerm: (term) => term,
      searchOptions: {
        tokenize,
        processTerm,
        boost: FIELD_BOOST,
        prefix: (term) => term.length >= 5,
        // One typo is forgiven in longer words only (short nonsense must not match real words),
        // and only in words the knowledge base does not hold: a word it holds is no typo.
        fuzzy: (term) => (term.length >= 6 && !collector.documentFrequency.has(term) ? 1 : false),
      },
    });
    if (!populate) return;
    this.#search.addAll(passages.map(indexed));
    collector.flush();
  }

  /**
   * Builds the index a few hundred passages at a time, yielding to the event loop between
   * them, so a server re-indexing a large folder keeps answering from its current index.
   */
  static async build(passages: Passage[], relevance: RelevanceOptions = {}): Promise<PassageIndex> {
    const index = new PassageIndex(passages, relevance, false);
    await index.#search.addAllAsync(passages.map(indexed), { chunkSize: BUILD_CHUNK });
    index.#collector.flush();
    return index;
  }

  /** Every passage matching any of the question's terms, best first (ties by position, so deterministic). */
  search(question: string): SearchHit[] {
    // One scan gives the question's words (as `tokenize` splits them) and its joinable pairs.
    const { words: all, pairs } = scanWords(question);
    const terms = this.#telling([...new Set(all.map(processTerm).filter((term): term is string => Boolean(term)))]);
    const total = terms.reduce((sum, term) => sum + this.#idf(term), 0);
    if (terms.length === 0) return [];
    const rarest = this.#rarestIdf();
    // The question's word pairs joined, where the knowledge base has that compound; a match
    // of one counts for the words it joins.
    const compounds = pairs.flatMap(({ joined, parts }) => {
      const term = processTerm(joined);
      if (!term || !this.#documentFrequency.has(term) || terms.includes(term)) return [];
      return [{ joined, term, parts: parts.map(processTerm).filter((part): part is string => Boolean(part)) }];
    });
    const words = all.filter((word) => terms.includes(processTerm(word)!));
    // The words by prefix and typo too, but in the compounds field only exactly: "first" must not
    // find "firstweek", while "rollback" must find a document's "roll back".
    const query: Query = {
      combineWith: 'OR',
      queries: [
        { queries: words, fields: WORD_FIELDS, boost: FIELD_BOOST },
        { queries: words, fields: ['compounds'], prefix: false, fuzzy: false, boost: { compounds: COMPOUND_WEIGHT } },
        ...(compounds.length
          ? [{ queries: compounds.map((c) => c.joined), fields: WORD_FIELDS, prefix: false, fuzzy: false, boost: COMPOUND_BOOST }]
          : []),
      ],
    };
    const idf = terms.map((term) => this.#idf(term));
    const viaCompounds = terms.map((term) => compounds.filter((c) => c.parts.includes(term)).map((c) => c.term));
    const hits: SearchHit[] = [];
    for (const result of this.#search.search(query)) {
      const matched = [...new Set(result.queryTerms)];
      let weight = 0;
      let covered = 0;
      for (let i = 0; i < terms.length; i++) {
        let got = credit(result, terms[i]!);
        for (const compound of viaCompounds[i]!) got = Math.max(got, credit(result, compound));
        weight += idf[i]! * got;
        if (got > 0) covered++;
      }
      hits.push({
        passage: this.#passages[result.id as number]!,
        // MiniSearch multiplies the score by the number of query terms matched; a compound is
        // no word of its own, so it counts as the words it covers.
        score: (result.score / Math.max(1, matched.length)) * Math.max(1, covered),
        matchedTerms: matched,
        coverage: weight / total,
        strength: weight / rarest,
      });
    }
    return hits
      .sort((a, b) => b.score - a.score || a.passage.index - b.passage.index);
  }

  /**
   * The passages good enough to answer from: the best-scoring one that covers enough of the
   * question with telling enough terms, then others as telling that cover at least half as
   * much and score near it. Empty: no answer. `context` (earlier turns of a conversation) is
   * searched with the question only when the question alone finds nothing.
   */
  relevant(question: string, context?: string): SearchHit[] {
    const own = this.#relevant(question);
    // A follow-up ("and on Windows?") names too little to be found alone: search it with the
    // words of the conversation before it, and keep its own result when that is an answer.
    if (own.length > 0 || !context?.trim()) return own;
    return this.#relevant(`${question} ${context}`);
  }

  #relevant(question: string): SearchHit[] {
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

  /**
   * The question's terms less those in more than half of the passages (unless all are): in
   * this knowledge base they tell nothing apart ("fastify" in Fastify's docs), as BM25's tiny
   * weight for them says, and scoring them would visit most passages for every question.
   */
  #telling(terms: string[]): string[] {
    const limit = this.#passages.length * COMMON_SHARE;
    const telling = terms.filter((term) => (this.#documentFrequency.get(term) ?? 0) <= limit);
    return telling.length ? telling : terms;
  }

  /** The IDF of a term found in one passage: the most telling a matched term can be. */
  #rarestIdf(): number {
    return Math.log(1 + (this.#passages.length - 0.5) / 1.5);
  }

  /** BM25's inverse document frequency; a term in no passage gets the highest. */
  #idf(term: string): number {
    const n = this.#documentFrequency.get(term) ?? 0;
    const count = this.#passages.length;
    return Math.log(1 + (count - n + 0.5) / (n + 0.5));
  }
}

const BUILD_CHUNK = 200;

/** How much a search result matched a query term: 1 exactly (`match` is keyed by the document terms found), 0.5 by prefix or typo. */
function credit(result: SearchResult, term: string): number {
  return Object.hasOwn(result.match, term) ? 1 : result.queryTerms.includes(term) ? 0.5 : 0;
}
const WORD_FIELDS = ['title', 'headings', 'text'];
const FIELD_BOOST = { title: 1.5, headings: 2, text: 1 };
/**
 * A compound is another spelling of words the question may also match one by one: it scores at
 * this share, so a passage holding both forms does not outscore the rest twice over.
 */
const COMPOUND_WEIGHT = 0.25;
/** Field boosts of a joined compound's own query. */
const COMPOUND_BOOST = Object.fromEntries(Object.entries(FIELD_BOOST).map(([field, value]) => [field, value * COMPOUND_WEIGHT]));
const COMMON_SHARE = 0.5;

function indexed(p: Passage): IndexedPassage {
  return { id: p.index, title: p.document.source.title, headings: p.headings.join(' '), text: p.markdown };
}

