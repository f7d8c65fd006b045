import type { Passage } from '../folder/knowledge-base.js';

/** A passage that matched a question, with how well. */
export interface SearchHit {
  passage: Passage;
  /** Orders the hits: BM25 of the question's terms, their joined forms and (less) the conversation's. */
  score: number;
  /** The question's terms this passage matched (itself or through a joined form). */
  matchedTerms: string[];
  /** How many of the conversation's words it matched (a follow-up's earlier turns). */
  contextMatched: number;
  /**
   * Share of the question that this passage matched, 0..1: each term weighs its rarity in the
   * knowledge base (IDF), so missing the rare, telling word of a question counts most; a term
   * matched only by prefix counts half.
   */
  coverage: number;
  /** How telling the matched terms are, in units of the IDF of a term found in one passage (the most telling a match can be). */
  strength: number;
  /**
   * Share of the question's telling weight this passage matched, 0..1: each term weighs its
   * rarity in the knowledge base (IDF) times its rarity in everyday English (`english.ts`), so
   * "FIFA" (in no passage, rare in English) outweighs "world" and "cup".
   */
  telling: number;
  /** Share of the question's telling weight its heading path (the page's title, the section's headings, the page's path) matches by the question's own words. */
  headTelling: number;
}
