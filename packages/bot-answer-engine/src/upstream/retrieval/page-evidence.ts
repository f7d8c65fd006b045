import { mapped } from './mapped.js';
import type { ScoredHit } from './scored-hit.js';
import type { RetrievalSettings } from './settings.js';

/** Marks a conversation word among a passage's matched terms. */
export const CONTEXT = '\u0000';

/** A candidate scored, before its page's evidence is added: where it stands in its page and what it matched. */
export interface RankedHit extends ScoredHit {
  /** Its page's path and its place there, to order passages that score the same. */
  place: string;
  /** Share of the question's telling weight its body matches (the heading path aside). */
  bodyTelling: number;
  /** Each term matched, by the question or (prefixed) the conversation, with its credit: 1, or 0.5 by prefix. */
  got: Map<string, number>;
}

/** What the page-level figures are weighed by: the question's terms and their telling weights. */
export interface PageWeights {
  /** The terms the gate weighs, each with its IDF. */
  terms: ReadonlyArray<{ term: string; idf: number }>;
  /** Each term's telling weight (IDF x rarity in English), and their sum. */
  tellingWeight: ReadonlyMap<string, number>;
  tellingTotal: number;
  /** The question's names the page must hold (`namedOnPage`). */
  names: readonly string[];
  /** The IDF of a term in one passage: the unit of strength. */
  rarest: number;
  /** The least credit that counts a term as matched (`tellingCredit`). */
  tellingCredit: number;
}

/**
 * What each page's candidate passages match together, each term at the best credit any of them
 * gives it, set on each of its hits: `pageTelling`, `pageStrength` and the names it lacks
 * (`unnamed`). Terms of the conversation (prefixed by `CONTEXT`) are not the page's.
 */
export function pageMatches(ranked: RankedHit[], { terms: gated, tellingWeight, tellingTotal, names, rarest, tellingCredit }: PageWeights): void {
  const pageGot = new Map<number, Map<string, number>>();
  for (const hit of ranked) {
    if (hit.score === 0) continue;
    const union = pageGot.get(hit.docId) ?? pageGot.set(hit.docId, new Map()).get(hit.docId)!;
    for (const [term, value] of hit.got) if (!term.startsWith(CONTEXT)) union.set(term, Math.max(union.get(term) ?? 0, value));
  }
  for (const hit of ranked) {
    const union = pageGot.get(hit.docId);
    if (!union) continue;
    let weight = 0;
    let telling = 0;
    for (const t of gated) {
      weight += t.idf * (union.get(t.term) ?? 0);
      telling += tellingWeight.get(t.term)! * (union.get(t.term) ?? 0);
    }
    hit.pageTelling = tellingTotal > 0 ? telling / tellingTotal : 0;
    hit.unnamed = names.filter((term) => (union.get(term) ?? 0) < tellingCredit);
    hit.pageStrength = weight / rarest;
  }
}

/**
 * Adds each page's other evidence to its passages' scores: a share of the page's other matching
 * passages (`pageWeight`, `pageDecay`), the body's telling share (`bodyTelling`), and the order
 * within a page by it (`sectionTelling`), each page keeping its best score.
 */
export function withPageEvidence(ranked: RankedHit[], s: RetrievalSettings): void {
  if (s.pageWeight > 0) {
    // A page that answers has more than one passage that matches: each passage gains a share of
    // its page's other matching passages, the best first, each counting half the one before.
    const byPage = new Map<number, number[]>();
    for (const hit of ranked) if (hit.score > 0) (byPage.get(hit.docId) ?? byPage.set(hit.docId, []).get(hit.docId)!).push(hit.score);
    for (const list of byPage.values()) list.sort((a, b) => b - a);
    for (const hit of ranked) {
      if (hit.score === 0) continue;
      let others = 0;
      let factor = 1;
      let skipped = false;
      for (const score of byPage.get(hit.docId)!) {
        if (!skipped && score === hit.score) {
          skipped = true;
          continue;
        }
        others += factor * score;
        factor *= s.pageDecay;
      }
      hit.score += s.pageWeight * others;
    }
  }
  if (s.bodyTelling > 0) for (const hit of ranked) hit.score *= 1 + s.bodyTelling * hit.bodyTelling;
  if (s.sectionTelling > 0) {
    // A section titled with the question's words can outscore the one whose text answers it
    // (Bun's `.query()` above the SQLite page's `bun:sqlite` import); only the order within a
    // page changes: each page keeps its best score, so the pages rank as they did.
    const byPage = new Map<number, RankedHit[]>();
    for (const hit of ranked) if (hit.score > 0) (byPage.get(hit.docId) ?? byPage.set(hit.docId, []).get(hit.docId)!).push(hit);
    const key = (hit: RankedHit): number => hit.score * (1 + s.sectionTelling * hit.bodyTelling);
    for (const list of byPage.values()) {
      const scores = mapped(list, (hit) => hit.score).sort((a, b) => b - a);
      list.sort((a, b) => key(b) - key(a) || (a.place < b.place ? -1 : 1));
      list.forEach((hit, i) => (hit.score = scores[i]!));
    }
  }
}
