import type { Passage } from '../folder/knowledge-base.js';
import type { FullTextTable, KbIndex } from '../index/kb-index.js';
import { analyze, countTerm, FIELDS, questionTerms, storedFields, type Field, type QuestionTerms } from './analyzer.js';
import { confidence, CONFIDENCE_MODEL, FOLLOW_UP_MODEL, MAX_MARGIN, STRENGTH_SCALE, type ConfidenceFeatures, type ConfidenceModel } from './confidence.js';
import { englishRarity, inEnglish } from './english.js';
import { docsForm, MIN_PREFIX, misspeltWord, oneEditApart, TYPO_CANDIDATES } from './docs-form.js';
import { mostlyNotNoun, namesPersonOrTime } from './part-of-speech.js';
import { COMMON_SHARE, idf } from './idf.js';
import { mapped } from './mapped.js';
import { relativesOf } from './lexicon.js';
import { withAnswerSections } from './answer-sections.js';
import { CONTEXT, pageMatches, withPageEvidence, type RankedHit } from './page-evidence.js';
import { relatedPages } from './related-pages.js';
import type { ScoredHit } from './scored-hit.js';
import type { SearchHit } from './search-hit.js';
import { DEFAULT_RETRIEVAL, type RetrievalSettings } from './settings.js';
import { asksPrice, asksYesNo, capitalisedPhrases, holdsNumber, holdsRange, holdsWritten, mixedCaseNames, namedTerms, numberedWords, numbersAfter, writtenNames } from './terms.js';

export type { SearchHit } from './search-hit.js';

/** The passage a question would be answered from, and how sure retrieval is of its page (`confidence.ts`). */
export interface Judged<Hit = SearchHit> {
  hit: Hit;
  features: ConfidenceFeatures;
  /** 0..1: the probability that its page is the right one. */
  confidence: number;
}

/** What retrieval makes of a question: one of the three outcomes, and its passages. */
export interface Decision {
  /**
   * `answered`: the passages answer it (the gate passed); `not_sure`: none does, but these
   * (one per page, at most `relatedPages`) are the closest; `refused`: nothing is related.
   */
  outcome: 'answered' | 'not_sure' | 'refused';
  /** Best first; an answer's first passage may be followed by its subsections, linked as it is (`subsections`). */
  hits: SearchHit[];
  /**
   * The passage it would answer from, judged: the best that passed the gate, else the best that
   * matches enough of the question (`minCoverage`, `minStrength`) and every telling word the
   * docs lack, whatever its telling share. Absent for a follow-up or when no passage is one.
   */
  judged?: Judged;
}

// BM25's term-frequency saturation and length normalisation, the usual values.
const K1 = 1.2;
const B = 0.75;
// The heading path (the title and the section's headings) and the body (its code names, its words and what they join) are scored apart.
const GROUPS: ReadonlyArray<readonly Field[]> = [['title', 'headings', 'path'], ['code', 'body', 'joined']];
const TABLES: FullTextTable[] = ['headings', 'body'];
// Words that frame a question rather than say what it is about.
const FRAME_WORDS = new Set(analyze('make use using get need want way possible able work define'));
// Words in at most this many passages (or this share of them, in a large folder) are telling enough to gather candidates by any of them.
const RARE_MIN = 200;
const RARE_SHARE = 0.005;
// A passage of another page scoring at least this share of the answer's is its rival for `tellingRival`.
const RIVAL_SCORE = 0.6;
// The `looseMissing` of every hit of a question with no such word: one array, not one per hit.
const NONE: readonly string[] = [];


/** The median of the best scores of the ten best-scoring pages among `hits` (best first). */
function pagesMedian(hits: readonly ScoredHit[]): number {
  const best: number[] = [];
  const seen = new Set<number>();
  for (const hit of hits) {
    if (seen.has(hit.docId)) continue;
    seen.add(hit.docId);
    best.push(hit.score);
    if (best.length === 10) break;
  }
  const mid = best.length >> 1;
  return best.length % 2 ? best[mid]! : (best[mid - 1]! + best[mid]!) / 2;
}

/** A passage's page title, headings and Markdown, as the rules reading a passage's own words see it. */
function passageText(passage: Passage): string {
  return [passage.document.source.title, ...passage.headings, passage.markdown].join('\n');
}

/** Full-text matches' passage ids by table, limit and query, within one snapshot of the index. */
type Matches = Map<string, number[]>;


/** An outcome before its passages are read: the hits, the one judged, its page's others, the question's words. */
interface Decided {
  outcome: Decision['outcome'];
  hits: ScoredHit[];
  judged?: Judged<ScoredHit>;
  samePage?: ScoredHit[];
  asked?: string[];
  /** For "not sure": whether a candidate of another page than the first shown matches a word of the question. */
  otherPages?: boolean;
}

/** One term a candidate is scored by: a question word (or its typo fix or prefix), a joined form, or a conversation word. */
interface Scorer {
  form: string;
  prefix: boolean;
  /** Its IDF in the heading paths and in the bodies. */
  idf: number[];
  /** Weight of its score against a question word's. */
  weight: number;
  /** A question word itself (or its typo fixed, or its prefix), not a joined form, a relative or the conversation's. */
  own: boolean;
  /** The terms it credits as matched, and how much (1, or 0.5 by prefix). */
  credit: string[];
  value: number;
}

interface Term {
  term: string;
  df: number;
  idf: number;
  /** The FTS5 query that finds it: the term, or for a term the knowledge base lacks, the words it begins. */
  query?: string;
  /** The term as passages hold it (a typo fixed), and whether longer terms it begins match too. */
  form?: string;
  prefix?: boolean;
  /** Credit when matched: 1 (itself or its typo fixed), or 0.5 by prefix. */
  credit: number;
}

/**
 * Finds the passages that answer a question in a knowledge base's on-disk index: candidates
 * from SQLite FTS5 (the passages holding all the question's known words, else any), then each
 * candidate scored per term (BM25 with column weights), so the question's own words, their
 * joined forms and the conversation's words can weigh differently, and the relevance gate
 * (how much of the question, weighed by rarity, the best passage covers).
 */
export class Retriever {
  readonly #index: KbIndex;
  readonly #settings: RetrievalSettings;

  constructor(index: KbIndex, settings: Partial<RetrievalSettings> = {}) {
    this.#index = index;
    this.#settings = { ...DEFAULT_RETRIEVAL, ...settings, weights: { ...DEFAULT_RETRIEVAL.weights, ...settings.weights } };
  }

  /** Every candidate passage for the question, best first (ties by place in the folder, so deterministic). */
  search(question: string, context?: string): SearchHit[] {
    return this.#index.read(() => this.#withPassages(this.#search(questionTerms(question), context)));
  }

  /**
   * The passages a model writes from: `chosen` (the decision's) first, then the search's next
   * best of other passages, best first.
   */
  forModel(question: string, context: string | undefined, chosen: readonly Passage[]): Passage[] {
    const taken = new Set(chosen.map((p) => p.index));
    return [...chosen, ...this.search(question, context).map((hit) => hit.passage).filter((p) => !taken.has(p.index))];
  }

  /**
   * The passages good enough to answer from: the best-scoring one that covers enough of the
   * question with telling enough terms, then others as telling that cover at least half as
   * much and score near it (one per page with `onePerPage`). Empty: no answer. `context` (a
   * follow-up's earlier turns) helps rank, weighing less than the question's words; the gate
   * looks at the question's words only, so the question decides whether there is an answer.
   */
  relevant(question: string, context?: string): SearchHit[] {
    const decision = this.decide(question, context);
    return decision.outcome === 'answered' ? decision.hits : [];
  }

  /**
   * The three outcomes: the passages that answer (as `relevant`); else, when some passages
   * match enough of the question's telling words to be worth a look, the closest ones, one per
   * page (`not_sure`); else none (`refused`).
   */
  decide(question: string, context?: string): Decision {
    return this.#index.read(() => {
      const { outcome, hits, judged, samePage, asked } = this.#decision(question, context);
      const read = this.#withPassages(hits);
      // The first page's other candidates, read once for its subsections, its section stating a figure and the section beside a short one.
      const same = read.length && samePage?.length ? this.#withPassages(samePage) : [];
      const told = new Set((asked ?? []).filter((term) => !FRAME_WORDS.has(term)));
      const quoted = withAnswerSections(read, same, question, told, this.#index, this.#settings);
      if (!judged) return { outcome, hits: quoted };
      const at = hits.indexOf(judged.hit);
      return { outcome, hits: quoted, judged: { ...judged, hit: at >= 0 ? read[at]! : this.#withPassages([judged.hit])[0]! } };
    });
  }

  /**
   * The question's outcome: decided once (`#decide`), and again where a second reading is due.
   * A question asked alone that a word the docs lack left "not sure" over one page is decided
   * again with the word waived (`tellingLone`). A follow-up not answered as ranked with the
   * conversation (the rules on its own words, then the model: `followUpConfidence`) is decided
   * again as the same words asked alone: a follow-up that changes the subject ("And how do I
   * book a flight?" after a release's rollback) is ranked away from its page by the
   * conversation's words, yet is no less answered by its own than a question asked alone.
   */
  #decision(question: string, context: string | undefined): Decided {
    // Asked alone, its words make the same full-text queries again, in the same snapshot: each is run once.
    const matches: Matches = new Map();
    const decided = this.#decide(question, context, matches);
    // Asked alone and "not sure" with one page shown of the several its words find: a word the docs lack is waived for that page (`tellingLone`).
    const s = this.#settings;
    const lone = decided.outcome === 'not_sure' && decided.otherPages && decided.hits.every((hit) => hit.docId === decided.hits[0]!.docId);
    if (lone && !context?.trim() && s.tellingLone && s.minConfidence > 0) {
      const waived = this.#decide(question, undefined, matches, true);
      if (waived.outcome === 'answered' && waived.hits[0]!.docId === decided.hits[0]!.docId) return waived;
    }
    if (decided.outcome === 'answered' || !context?.trim() || s.followUpConfidence <= 0) return decided;
    const alone = this.#decide(question, undefined, matches);
    return alone.outcome === 'answered' ? alone : decided;
  }

  /** One decision; `waived`: a telling word the docs lack need not be matched, but a name `lackedName` keeps (`tellingLone`). */
  #decide(question: string, context: string | undefined, matches?: Matches, waived = false): Decided {
    const s = this.#settings;
    const { maxPassages, minCoverage, minStrength, fullCoverage, fullStrength, relativeScore, onePerPage } = s;
    const analysed = questionTerms(question);
    const named = s.namedOnPage > 0 || s.lackedName > 0 ? namedTerms(question) : undefined;
    const hits = this.#search(analysed, context, s.namedOnPage > 0 ? named : undefined, matches);
    const asked = analysed.terms;
    // Words that frame a question ("how do I *make* a UUID") need not be matched for it to be answered.
    const topical = asked.filter((term) => !s.frameWords || !FRAME_WORDS.has(term));
    const words = asked.length;
    const fullWords = topical.length || words;
    // The question decides: with none of its own words found anywhere, the conversation's words answer nothing.
    const ownMatched = hits.some((hit) => hit.matchedTerms.length > 0);
    const answers = (hit: ScoredHit): boolean =>
      (ownMatched && hit.matchedTerms.length + hit.contextMatched >= Math.min(words, 2) && hit.coverage >= minCoverage && (hit.strength >= minStrength || (s.headedStrength > 0 && hit.strength >= s.headedStrength && hit.headTelling > 0 && hit.exact >= Math.min(words, 2)))) ||
      ((s.fullExact ? hit.exact : hit.matchedTerms.length) >= fullWords && hit.coverage >= fullCoverage && hit.strength >= fullStrength) ||
      (s.headedGate > 0 && ownMatched && words >= 2 && hit.headTelling >= s.headedGate && hit.exact >= 1 && hit.coverage >= minCoverage);
    // A follow-up names little of its own: the conversation helped find its passages, and the gate of its matched share decides.
    const followUp = Boolean(context?.trim());
    // ...but its own words must still tell, as a question's do (`followUpTrust`): unless it names
    // too few of them to judge by their share (`followUpWords`), its passage must match enough of
    // them, and a telling word of it no page holds must be matched (but an everyday one,
    // `followUpEveryday`), whatever the conversation found.
    const gateOnly = followUp && !s.followUpTrust;
    const fewOwnWords = followUp && topical.length <= s.followUpWords;
    // ...and both reliefs are the conversation's: a passage matching none of its words gets neither (`followUpCarried`).
    const carried = (hit: ScoredHit): boolean => !s.followUpCarried || hit.contextMatched > 0;
    const passing = hits.filter((hit) => answers(hit) && (gateOnly || (fewOwnWords && carried(hit)) || hit.telling >= s.confidentTelling));
    // Each telling word must be matched by a passage that answers: by the best one, or (a question
    // of two parts: "roll back a release or book a flight") by another that answers too.
    const matched = new Set(passing.flatMap((hit) => hit.matchedTerms));
    // A passage matching most of the question's telling weight answers though a word the docs lack is left: that word weighs little beside the rest.
    // ...but not a name the docs lack that everyday English lacks too ("Maven"): it is what the question is about (`lackedName`).
    const lacked = named && s.lackedName > 0 ? [...named].filter((term) => englishRarity(term) >= s.lackedName && this.#index.documentFrequency(term) === 0) : [];
    // A name written in mixed case that no page holds whole: its parts matched speak of something else (`wholeNames`).
    const unheld = s.wholeNames && mixedCaseNames(question).some((forms) => forms.every((form) => this.#index.documentFrequency(form) === 0));
    const open = s.tellingEnough > 0 && s.tellingEnoughOpen > 0 && !followUp && !asksYesNo(question);
    // ...the lower bar only while another page matches a word of the question: compared and set aside, not absent ("Where do lions sleep at the zoo?" over one page on lions).
    const enoughFor = (hit: ScoredHit): number => (open && hits.some((other) => other.docId !== hit.docId && other.matchedTerms.length > 0) ? s.tellingEnoughOpen : s.tellingEnough);
    const passesGate = (hit: ScoredHit, loosely: boolean): boolean =>
      gateOnly ||
      ((waived || (s.tellingEnough > 0 && hit.telling >= enoughFor(hit))) && !hit.missing.some((term) => lacked.includes(term))) ||
      hit.missing.every((term) => matched.has(term) || (loosely && hit.looseMissing.includes(term)) || (followUp && carried(hit) && englishRarity(term) < s.followUpEveryday));
    const strictlyFound = unheld ? undefined : passing.find((hit) => passesGate(hit, false));
    // Else a passage missing only words the docs lack that name no topic, for a surer model (`tellingNouns`).
    const looselyFound = unheld || strictlyFound || s.tellingNouns <= 0 ? undefined : passing.find((hit) => passesGate(hit, true));
    const found = strictlyFound ?? looselyFound;
    // The passage it would answer from, and how sure retrieval is of its page. A follow-up's
    // passages were found with the conversation's help: it must pass the rules on its own telling
    // words above, and then the model judges it as ranked (`followUpConfidence`).
    // A question's telling words the docs lack must be matched, whatever the confidence ("FIFA", "dress code").
    const candidate = followUp ? (s.followUpConfidence > 0 ? found : undefined) : unheld ? undefined : (found ?? hits.find((hit) => answers(hit) && (waived ? !hit.missing.some((term) => lacked.includes(term)) : hit.missing.length === 0)) ?? hits.find((hit) => answers(hit) && !waived && hit.missing.length === hit.looseMissing.length));
    const loosely = candidate !== undefined && candidate.looseMissing.length > 0 && (candidate === found ? candidate === looselyFound : !waived);
    const judged = candidate ? this.#judge(candidate, hits, asked.length, followUp && s.followUpModel ? FOLLOW_UP_MODEL : CONFIDENCE_MODEL) : undefined;
    // The rules below but the name rule compare the candidate with the pages its words alone
    // would rank: a follow-up's ranking holds the conversation's words, and (measured) they stop
    // as many of its right pages as of its unanswerable ones.
    const ownRules = candidate !== undefined && !followUp;
    // The rules after the model, for a passage judged: what holds its answer back. `own`: the rules read by the question's own ranking.
    const rulesAfter = (hit: ScoredHit, sure: Judged<ScoredHit> | undefined, own: boolean) => {
      // Another page's passage scoring near it and matching clearly more of the question's telling weight.
      const outmatched = own && s.tellingRival > 0 ? hits.find((other) => other.docId !== hit.docId && other.score >= hit.score * RIVAL_SCORE && other.telling >= hit.telling + s.tellingRival) : undefined;
      // A page matching the very same words of the question and scoring as well within the
      // margin, for an answer the model is only just sure of (`twinMargin`, `twinConfidence`).
      const twin = own && sure && s.twinMargin > 0 && !outmatched && (s.twinConfidence <= 0 || sure.confidence < s.twinConfidence) ? this.#twinOf(hit, hits, s.twinMargin) : undefined;
      const held =
        outmatched !== undefined ||
        twin !== undefined ||
        // A name the question asks about that the page does not hold (`namedOnPage`): a follow-up's own name too.
        hit.unnamed.length > 0 ||
        (own && s.numberedInPassage && this.#lacksNumber(question, hit, hits)) ||
        // A name written as a package, an identifier or a place that the page's passages found do not
        // write (`writtenOnPage`): a follow-up's own names too, since the page is read, not ranked.
        ((own || s.writtenFollowUps) && s.writtenOnPage && this.#lacksWritten(question, hit, hits)) ||
        // A price asked that the passage judged states no figure for (`pricedInPassage`).
        (own && s.pricedInPassage && asksPrice(question) && !this.#statesPrice(hit)) ||
        // A yes/no question whose passage holds too little of what it asks, while the model is only just sure (`yesNoTelling`).
        (own && sure !== undefined && hit.telling < s.yesNoTelling && sure.confidence < s.yesNoConfidence && asksYesNo(question));
      return { outmatched, twin, held };
    };
    const { outmatched, twin, held } = candidate ? rulesAfter(candidate, judged, ownRules) : { outmatched: undefined, twin: undefined, held: false };
    const bar = Math.max(followUp ? s.followUpConfidence : s.minConfidence, loosely ? s.tellingNouns : 0);
    const best = judged && s.minConfidence > 0 ? (judged.confidence >= bar && !held ? candidate : undefined) : found;
    // The answer from a passage: it, then others as telling scoring near it (one per page with `onePerPage`).
    const answer = (from: ScoredHit, sure: Judged<ScoredHit> | undefined): Decided => {
      const pages = new Set([from.docId]);
      const chosen = [from];
      for (const hit of hits) {
        if (chosen.length >= maxPassages) break;
        if (hit === from || hit.coverage < from.coverage / 2 || hit.strength < fullStrength || hit.score < from.score * relativeScore) continue;
        if (onePerPage && pages.has(hit.docId)) continue;
        pages.add(hit.docId);
        chosen.push(hit);
      }
      const answering = s.gateDecides && !(s.judgedFirst && sure && s.minConfidence > 0) ? chosen.sort((a, b) => b.score - a.score) : chosen;
      const first = answering[0]!;
      const samePage = s.subsections > 0 ? hits.filter((hit) => hit.docId === first.docId && hit !== first) : [];
      return { outcome: 'answered', hits: answering, ...(sure ? { judged: sure } : {}), samePage, asked };
    };
    if (!best) {
      // "Not sure", or a refusal (`relatedPages`). An answer made unsure counts the page it
      // would have quoted, with the page that outmatched it, its twin (`twinMargin`, also when
      // the model alone made it unsure), or else the best of another page fitting the question
      // as well (as much of its telling weight, by itself and with its page), whatever the
      // related pages' bar.
      // (With `found`, the candidate is `found`, so the page that outmatched it is another.)
      const rival = found && (outmatched ?? twin ?? hits.find((hit) => hit.docId !== found.docId && hit.telling >= found.telling && hit.pageTelling >= found.pageTelling));
      const related = relatedPages({ hits, found, rival, judged: judged !== undefined, question, followUp, sameText: (a, b) => this.#sameText(a, b), settings: s });
      if (!related) return { outcome: 'refused', hits: [], ...(judged ? { judged } : {}) };
      if (related.carried) return { outcome: 'not_sure', hits: related.pages, ...(judged ? { judged } : {}), otherPages: false };
      const { pages: listed, otherPages } = related;
      // The page shown first is not the one judged: the model judges its passage too, and the same rules (`shownFirstConfidence`).
      const alt = listed[0];
      if (s.shownFirstConfidence > 0 && s.minConfidence > 0 && !followUp && judged && alt && alt.docId !== judged.hit.docId && answers(alt) && alt.missing.length === 0 && alt.unnamed.length === 0) {
        const again = this.#judge(alt, hits, asked.length, CONFIDENCE_MODEL);
        if (again.confidence >= s.shownFirstConfidence && !rulesAfter(alt, again, true).held) return answer(alt, again);
      }
      return { outcome: 'not_sure', hits: listed, ...(judged ? { judged } : {}), otherPages };
    }
    return answer(best, judged);
  }

  /**
   * Whether the candidate's passage lacks a number the question writes after a word while the
   * candidates write that word with another (`numberedInPassage`). Passages are read only for a
   * question naming such a number.
   */
  #lacksNumber(question: string, candidate: ScoredHit, hits: ScoredHit[]): boolean {
    const numbered = numberedWords(question);
    if (!numbered.length) return false;
    const [own] = this.#index.passagesById([candidate.id]);
    const ownText = own ? passageText(own) : undefined;
    // A passage writing a range ("Versions 9+") answers for the numbers it leaves out.
    const lacking = ownText !== undefined && !holdsRange(ownText) ? numbered.filter(({ number }) => !holdsNumber(ownText, number)) : [];
    if (!lacking.length) return false;
    const texts = mapped(this.#index.passagesById(mapped(hits, (hit) => hit.id)), passageText);
    return lacking.some(({ word, number }) => texts.some((text) => numbersAfter(text, word).some((other) => other !== number)));
  }

  /** Whether the passages found of the candidate's page (titles, headings, text) lack a name the question writes (`writtenOnPage`). */
  #lacksWritten(question: string, candidate: ScoredHit, hits: ScoredHit[]): boolean {
    const names = writtenNames(question);
    if (this.#settings.writtenPhrases) names.push(...capitalisedPhrases(question));
    if (!names.length) return false;
    const ids = mapped(hits.filter((hit) => hit.docId === candidate.docId), (hit) => hit.id);
    const text = mapped(this.#index.passagesById(ids), passageText).join('\n').replace(/[ \t]*\n[ \t]*(?=\S)/g, ' ');
    return names.some((name) => !holdsWritten(text, name));
  }

  /** Whether the candidate's passage (its title, headings and text, not a link's target or a tag) states a figure or "free", not in a compound ("step-free") (`pricedInPassage`). */
  #statesPrice(candidate: ScoredHit): boolean {
    const [own] = this.#index.passagesById([candidate.id]);
    if (!own) return true;
    const text = passageText(own).replace(/\]\([^)]*\)/g, ']').replace(/<[^>]*>/g, '');
    return /\d|(?<!-)\bfree\b(?!-)/i.test(text);
  }

  /** The candidate's confidence features (`confidence.ts`) and score. */
  #judge(candidate: ScoredHit, hits: ScoredHit[], words: number, model: ConfidenceModel): Judged<ScoredHit> {
    // A copy of the page (a mirror, another version) says the same: it is no rival.
    const other = hits.find((hit) => hit.docId !== candidate.docId && !this.#sameText(candidate, hit));
    const features: ConfidenceFeatures = {
      margin: other ? Math.min(MAX_MARGIN, Math.log(candidate.score / other.score)) : MAX_MARGIN,
      coverage: candidate.coverage,
      pageTelling: candidate.pageTelling,
      headTelling: candidate.headTelling,
      strength: Math.min(1, candidate.strength / STRENGTH_SCALE),
      words: Math.log(1 + words),
      pagePeak: Math.log(candidate.score / pagesMedian(hits)),
    };
    return { hit: candidate, features, confidence: confidence(features, model) };
  }

  /** The best passage of another page (not a copy) matching the same question words as `candidate` and scoring within `margin` (ln of the score ratio) of it. */
  #twinOf(candidate: ScoredHit, hits: ScoredHit[], margin: number): ScoredHit | undefined {
    const words = new Set(candidate.matchedTerms);
    const floor = candidate.score * Math.exp(-margin);
    return hits.find(
      (hit) =>
        hit.docId !== candidate.docId &&
        hit.score >= floor &&
        hit.matchedTerms.length === words.size &&
        hit.matchedTerms.every((term) => words.has(term)) &&
        !this.#sameText(candidate, hit),
    );
  }

  /** Whether two hits' passages say the same (a page copied, a mirror, another version linking its own): quoting either one is right, so neither is the other's rival. */
  #sameText(a: ScoredHit, b: ScoredHit): boolean {
    const [first, second] = this.#index.passagesById([a.id, b.id]);
    // Each version of a page links its own version's pages: where a link goes is not what it says.
    const said = (markdown: string): string => markdown.replace(/\]\([^)]*\)/g, ']()');
    return first !== undefined && second !== undefined && said(first.markdown) === said(second.markdown);
  }

  /** The hits with their passages, read from the index (in the same snapshot as the search). */
  #withPassages(hits: ScoredHit[]): SearchHit[] {
    const passages = new Map(mapped(this.#index.passagesById(mapped(hits, (hit) => hit.id)), (passage) => [passage.index, passage]));
    return mapped(hits, ({ id, docId: _docId, exact: _exact, ownWords: _ownWords, missing: _missing, looseMissing: _looseMissing, unnamed: _unnamed, pageTelling: _pageTelling, pageStrength: _pageStrength, ...hit }) => ({ passage: passages.get(id)!, ...hit }));
  }

  // Arrays here are built by `mapped`, not `.map`: V8 compiles this function again each time an optimised `.map`'s holey array meets code compiled on packed ones.
  #search(question: QuestionTerms, context: string | undefined, named?: ReadonlySet<string>, matches?: Matches): ScoredHit[] {
    const s = this.#settings;
    const index = this.#index;
    const count = index.passages;
    if (count === 0) return [];
    const { terms: words, joins, written } = question;
    let terms: Term[] = mapped(words, (term) => {
      const df = index.documentFrequency(term);
      // A word the knowledge base lacks weighs as its rarest word: missing it costs, but one such word alone does not sink a question.
      return { term, df, idf: idf(count, Math.max(1, df)), credit: 1, ...(df > 0 ? { query: quote(term), form: term } : {}) };
    });
    if (terms.length === 0) return [];
    // Terms in most passages tell nothing apart; scoring them would visit most passages.
    const telling = terms.filter((t) => t.df <= count * COMMON_SHARE);
    const inMost = terms.filter((t) => t.df > count * COMMON_SHARE);
    // Left out of the search, the common words still count for the gate where a candidate holds them.
    const common = s.commonInGate && telling.length ? inMost : [];
    const commonWords = new Set(mapped(inMost, (t) => t.term));
    if (telling.length) terms = telling;
    if (s.prefix) {
      for (const t of terms) {
        const docs = t.df > 0 ? undefined : docsForm(index, t.term, s.misspeltWords ? written.get(t.term) : undefined);
        if (!docs) continue;
        t.query = docs.prefix ? `${quote(docs.form)}*` : quote(docs.form);
        t.form = docs.form;
        t.prefix = docs.prefix;
        // A typo fixed is the docs' own spelling of the word, matched in full; a beginning may be another word's.
        t.credit = docs.prefix ? 0.5 : 1;
      }
    }
    const known = terms.filter((t) => t.query);
    const rarest = idf(count, 1);
    const joined = mapped(joins, (j) => ({ ...j, df: index.documentFrequency(j.term) })).filter((j) => j.df > 0 && j.covers.some((c) => terms.some((t) => t.term === c)));
    const ownTerms = new Set(words);
    const related = s.lexiconWeight > 0 ? this.#related(terms, joins, written, ownTerms, joined, count) : [];
    const conversation = s.contextWeight > 0 && context?.trim() ? this.#contextTerms(context, ownTerms, count) : [];

    // Candidates: the passages holding all the words (each word or a joined form covering it)
    // and those holding any of the telling ones, from the heading paths and from the bodies.
    const alternatives = (t: Term): string[] => [
      ...(t.query ? [t.query] : []),
      ...mapped([...joined, ...related].filter((j) => j.covers.includes(t.term)), (j) => quote(j.term)),
    ];
    // The words found in the index, or through a word the lexicon relates to them.
    const findable = terms.filter((t) => alternatives(t).length > 0);
    const any = [...mapped(known, (t) => t.query!), ...mapped(joined, (j) => quote(j.term)), ...mapped(related, (r) => quote(r.term))];
    if (any.length === 0 && conversation.length === 0) return [];
    const rareLimit = Math.max(RARE_MIN, count * RARE_SHARE);
    const someOf = s.allWordsFirst
      ? [...mapped(known.filter((t) => t.df <= rareLimit || t.credit < 1), (t) => t.query!), ...mapped(joined, (j) => quote(j.term)), ...mapped(related.filter((r) => r.df <= rareLimit), (r) => quote(r.term))]
      : any;
    const lists: number[][] = [];
    const add = (table: FullTextTable, query: string, limit: number): void => {
      const key = `${table} ${limit} ${query}`;
      let ids = matches?.get(key);
      if (!ids) {
        ids = mapped(index.match(table, query, s.weights, limit), (row) => row.id);
        matches?.set(key, ids);
      }
      if (ids.length) lists.push(ids);
    };
    for (const table of TABLES) {
      if (s.allWordsFirst && findable.length > 1) add(table, mapped(findable, (t) => `(${alternatives(t).join(' OR ')})`).join(' AND '), s.candidates);
      if (someOf.length) add(table, someOf.join(' OR '), s.candidates);
      if (table === 'headings' && s.dropOne > 0 && findable.length >= 3) {
        for (const left of findable) {
          const rest = findable.filter((t) => t !== left);
          add(table, mapped(rest, (t) => `(${alternatives(t).join(' OR ')})`).join(' AND '), s.dropOne);
        }
      }
      if (conversation.length) add(table, [...any, ...mapped(conversation, (c) => c.query)].join(' OR '), s.candidates);
    }
    // The best of each list first, in turns, up to the number of candidates scored.
    const candidates = new Set<number>();
    for (let rank = 0; candidates.size < s.candidates && lists.some((list) => rank < list.length); rank++) {
      for (const list of lists) if (rank < list.length && candidates.size < s.candidates) candidates.add(list[rank]!);
    }
    if (candidates.size === 0) return [];

    // Each candidate scored in full: BM25 over the heading path and over the body apart (as
    // BM25F does per field), each normalised by its own average length, per term, so each kind
    // of term weighs what it should: the question's words, their joined forms, the conversation's
    // words. The candidates' analysed fields come from the index: no passage is analysed again.
    const rows = index.scoringRows([...candidates]);
    const averages = index.averageLengths();
    const gated = [...terms, ...common];
    const total = gated.reduce((sum, t) => sum + t.idf, 0) + s.contextWeight * conversation.reduce((sum, c) => sum + c.idf, 0);
    const tellingWeight = new Map(mapped(gated, (t) => [t.term, t.idf * englishRarity(t.term)]));
    const mostTelling = Math.max(...tellingWeight.values());
    // The question's names the docs hold, weighing enough beside its most telling word.
    const names = named ? mapped(gated.filter((t) => t.df > 0 && named.has(t.term) && tellingWeight.get(t.term)! >= s.namedOnPage * mostTelling), (t) => t.term) : [];
    const lacking = new Set(mapped(terms.filter((t) => t.df === 0 && !(s.frameWords && FRAME_WORDS.has(t.term))), (t) => t.term));
    // A value the docs lack ("2am") is neither a telling word nor the measure of one (`tellingValues`).
    const ruled = [...tellingWeight].filter(([term]) => s.tellingValues || !(lacking.has(term) && /\d/.test(term)));
    const mostRuled = Math.max(0, ...mapped(ruled, ([, w]) => w));
    const tellingWords = s.tellingWordShare > 0 ? mapped(ruled.filter(([term, w]) => w >= s.tellingWordShare * mostRuled && (!s.tellingLacking || lacking.has(term))), ([term]) => term) : [];
    // Of those the docs lack, the ones that name no topic: mostly not nouns, or a person or a time (`tellingNouns`).
    const loose = new Set(
      s.tellingNouns > 0
        ? tellingWords.filter((term) => {
            const forms = written.get(term) ?? [];
            return lacking.has(term) && !named?.has(term) && forms.length > 0 && forms.every((form) => mostlyNotNoun(form) || namesPersonOrTime(form));
          })
        : [],
    );
    const tellingTotal = [...tellingWeight.values()].reduce((sum, w) => sum + w, 0);
    // The docs' terms a misspelt telling word may stand for (`tellingMisspelt`).
    const misspelt = new Map<string, string[]>();
    if (s.tellingMisspelt) {
      for (const term of tellingWords) {
        if (term.length < MIN_PREFIX || !lacking.has(term) || named?.has(term) || inEnglish(term)) continue;
        const meant = this.#oneEditFrom(term);
        const word = s.misspeltWords ? misspeltWord(index, term, written.get(term) ?? []) : undefined;
        if (word && !meant.includes(word)) meant.push(word);
        if (meant.length) misspelt.set(term, meant);
      }
    }
    // Each part weighs a term by its rarity there, as a search over that part alone would.
    const partIdf = (form: string): number[] => {
      const { headings, body } = index.frequencies(form);
      return mapped([headings, body], (n) => Math.max(1e-6, Math.log((count - n + 0.5) / (n + 0.5))));
    };
    const scorers: Scorer[] = [
      ...mapped(known, (t) => ({ form: t.form!, prefix: Boolean(t.prefix), idf: partIdf(t.prefix ? t.term : t.form!), weight: 1, own: true, credit: [t.term], value: t.credit })),
      ...mapped(joined, (j) => ({ form: j.term, prefix: false, idf: partIdf(j.term), weight: s.joinWeight, own: false, credit: j.covers, value: 1 })),
      ...mapped(related, (r) => ({ form: r.term, prefix: false, idf: partIdf(r.term), weight: s.lexiconWeight, own: false, credit: r.covers, value: s.lexiconCredit })),
      ...mapped(conversation, (c) => ({ form: c.term, prefix: false, idf: partIdf(c.term), weight: s.contextWeight, own: false, credit: [CONTEXT + c.term], value: 1 })),
    ];
    const groups = mapped(GROUPS, (group) => ({
      fields: mapped(group, (field) => ({ field, at: FIELDS.indexOf(field), weight: s.weights[field] })),
      average: Math.max(1, group.reduce((sum, field) => sum + averages[field], 0)),
    }));
    const ranked = mapped(rows, (row): RankedHit => {
      const fields = storedFields(row.terms);
      const got = new Map<string, number>();
      const inBody = new Set<string>();
      const inHead = new Set<string>();
      let score = 0;
      for (const scorer of scorers) {
        let fieldScore = 0;
        // By index, not entries(): this runs for every candidate and term, and each entry would be garbage.
        for (let g = 0; g < groups.length; g++) {
          const group = groups[g]!;
          let tf = 0;
          let length = 0;
          for (const { field, at, weight } of group.fields) {
            length += row.lengths[at] ?? 0;
            if (weight !== 0) tf += weight * countTerm(fields[field], scorer.form, scorer.prefix);
          }
          if (tf === 0) continue;
          if (g === 1) for (const term of scorer.credit) inBody.add(term);
          else if (scorer.own) for (const term of scorer.credit) inHead.add(term);
          fieldScore += (scorer.idf[g]! * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * length) / group.average));
        }
        if (fieldScore === 0) continue;
        score += scorer.weight * fieldScore;
        for (const term of scorer.credit) got.set(term, Math.max(got.get(term) ?? 0, scorer.value));
      }
      for (const t of common) if (FIELDS.some((field) => countTerm(fields[field], t.term) > 0)) got.set(t.term, 1);
      let weight = 0;
      let telling = 0;
      let bodyTelling = 0;
      let headTelling = 0;
      for (const t of gated) {
        weight += t.idf * (got.get(t.term) ?? 0);
        telling += tellingWeight.get(t.term)! * (got.get(t.term) ?? 0);
        if (inBody.has(t.term)) bodyTelling += tellingWeight.get(t.term)! * (got.get(t.term) ?? 0);
        if (inHead.has(t.term)) headTelling += tellingWeight.get(t.term)! * (got.get(t.term) ?? 0);
      }
      let fromContext = 0;
      for (const c of conversation) fromContext += s.contextWeight * c.idf * (got.get(CONTEXT + c.term) ?? 0);
      const missing = tellingWords.filter(
        (term) => (got.get(term) ?? 0) < s.tellingCredit && !misspelt.get(term)?.some((form) => FIELDS.some((field) => countTerm(fields[field], form) > 0)),
      );
      const own = [...got.keys()].filter((term) => !term.startsWith(CONTEXT));
      const exact = own.filter((term) => got.get(term) === 1 && !(s.frameWords && FRAME_WORDS.has(term)));
      const coverage = total > 0 ? (weight + fromContext) / total : 0;
      return {
        id: row.id,
        docId: row.docId,
        score,
        matchedTerms: own,
        exact: exact.length,
        ownWords: exact.filter((term) => !commonWords.has(term)).length,
        contextMatched: got.size - own.length,
        // Coverage: the question's words, and the conversation's at their lower weight (a follow-up
        // names little of its own).
        coverage,
        strength: (weight + fromContext) / rarest,
        telling: tellingTotal > 0 ? telling / tellingTotal : 0,
        missing,
        looseMissing: loose.size ? missing.filter((term) => loose.has(term)) : NONE,
        unnamed: [],
        bodyTelling: tellingTotal > 0 ? bodyTelling / tellingTotal : 0,
        headTelling: tellingTotal > 0 ? headTelling / tellingTotal : 0,
        place: `${row.path}\u0000${String(row.ord).padStart(9, '0')}`,
        got,
        pageTelling: 0,
        pageStrength: 0,
      };
    });
    pageMatches(ranked, { terms: gated, tellingWeight, tellingTotal, names, rarest, tellingCredit: s.tellingCredit });
    withPageEvidence(ranked, s);
    const scored = ranked.filter((hit) => hit.score > 0).sort((a, b) => b.score - a.score || (a.place < b.place ? -1 : 1));
    return mapped(scored, ({ place: _place, bodyTelling: _bodyTelling, got: _got, ...hit }) => hit);
  }

  /**
   * The terms of the index one edit from `term`, among the most frequent beginning with its first
   * two letters (an edit after them) or with its first and third (its second and third letters
   * swapped, "lsit", or a letter too many after its first): the beginnings the typo fix reads
   * (`docsForm`), so the index remembers them for both.
   */
  #oneEditFrom(term: string): string[] {
    const found = new Set<string>();
    for (const start of new Set([term.slice(0, 2), term[0]! + term[2]!])) {
      for (const { term: known } of this.#index.termsBeginning(start, TYPO_CANDIDATES)) if (oneEditApart(known, term)) found.add(known);
    }
    return [...found];
  }

  /**
   * The words the lexicon relates to the question's (and to its adjacent words joined: "turn
   * off"), those the index holds and that tell passages apart, each with the question's terms it
   * stands for.
   */
  #related(terms: Term[], joins: Array<{ term: string; covers: string[] }>, written: QuestionTerms['written'], own: Set<string>, joined: Array<{ term: string }>, count: number): Array<{ term: string; covers: string[]; df: number }> {
    const found = new Map<string, { term: string; covers: string[]; df: number }>();
    const taken = new Set(mapped(joined, (j) => j.term));
    const asked = new Set(mapped(terms, (t) => t.term));
    // A word as the question writes it brings the lexicon's relatives, not another word of its stem ("terminal": no "exit").
    const relativesOfTerm = (term: string): string[] => [...new Set((written.get(term) ?? []).flatMap((word) => relativesOf(term, word)))];
    const sources = [...mapped(terms, (t) => ({ term: t.term, covers: [t.term], relatives: relativesOfTerm(t.term) })), ...mapped(joins, (j) => ({ term: j.term, covers: j.covers.filter((c) => asked.has(c)), relatives: relativesOf(j.term) }))];
    for (const source of sources) {
      if (source.covers.length === 0) continue;
      for (const relative of source.relatives) {
        if (own.has(relative) || taken.has(relative)) continue;
        const known = found.get(relative);
        if (known) {
          for (const c of source.covers) if (!known.covers.includes(c)) known.covers.push(c);
          continue;
        }
        const df = this.#index.documentFrequency(relative);
        if (df > 0 && df <= count * COMMON_SHARE) found.set(relative, { term: relative, covers: [...source.covers], df });
      }
    }
    return [...found.values()];
  }

  /** The conversation's most telling words the question does not have, with their FTS5 queries and IDF. */
  #contextTerms(context: string, own: Set<string>, count: number): Array<{ term: string; query: string; idf: number }> {
    const seen = new Set<string>();
    const found: Array<{ term: string; df: number }> = [];
    for (const term of analyze(context)) {
      if (own.has(term) || seen.has(term)) continue;
      seen.add(term);
      const df = this.#index.documentFrequency(term);
      if (df > 0 && df <= count * COMMON_SHARE) found.push({ term, df });
    }
    const rarest = found.sort((a, b) => a.df - b.df).slice(0, this.#settings.contextTerms);
    return mapped(rarest, (c) => ({ term: c.term, query: quote(c.term), idf: idf(count, c.df) }));
  }
}

/** A term as an FTS5 string: terms are letters and digits only, so quoting is all it needs. */
function quote(term: string): string {
  return `"${term}"`;
}
