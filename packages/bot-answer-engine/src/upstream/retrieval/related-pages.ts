import { mapped } from './mapped.js';
import type { ScoredHit } from './scored-hit.js';
import type { RetrievalSettings } from './settings.js';
import { refersBack } from './terms.js';

/** What a "not sure" answer shows: its pages, first the likeliest, each by its best passage. */
export interface RelatedPages {
  /** At most `relatedPages` hits, one per page. */
  pages: ScoredHit[];
  /** Whether a candidate of another page than the first shown matches a word of the question. */
  otherPages: boolean;
  /** The pages are the conversation's, for a follow-up whose own words relate nowhere (`followUpRelated`): no page of them is judged again. */
  carried: boolean;
}

/** The question, its candidates and the decision so far, as `relatedPages` reads them. */
export interface RelatedInput {
  /** The candidates, best-scoring first. */
  hits: ScoredHit[];
  /** The passage that passed the gate, if one did, and the page that outmatched it, its twin or another fitting as well. */
  found: ScoredHit | undefined;
  rival: ScoredHit | undefined;
  /** Whether the model judged a passage. */
  judged: boolean;
  question: string;
  /** Asked with a conversation. */
  followUp: boolean;
  /** Whether two hits' passages say the same (a copy of a page), read from the index. */
  sameText: (a: ScoredHit, b: ScoredHit) => boolean;
  settings: RetrievalSettings;
}

/**
 * The best-scoring hit of each page among `hits` (best first), ordered by the reciprocal ranks,
 * summed, of the page's place by its best score x the most telling share of its passages, its
 * place by that share alone and, with `byScore`, its place by its best score.
 */
function fusedPages(hits: readonly ScoredHit[], k: number, byScore: boolean): ScoredHit[] {
  const pages = new Map<number, { hit: ScoredHit; telling: number }>();
  for (const hit of hits) {
    const page = pages.get(hit.docId);
    if (!page) pages.set(hit.docId, { hit, telling: hit.telling });
    else page.telling = Math.max(page.telling, hit.telling);
  }
  const list = [...pages.values()];
  const rank = (key: (page: (typeof list)[number]) => number): Map<number, number> =>
    new Map([...list].sort((a, b) => key(b) - key(a) || b.hit.score - a.hit.score).map((page, i) => [page.hit.docId, i + 1]));
  const byBoth = rank((page) => page.hit.score * page.telling);
  const byTelling = rank((page) => page.telling);
  const byClose = byScore ? rank((page) => page.hit.score) : undefined;
  const fused = (page: (typeof list)[number]): number =>
    1 / (k + byBoth.get(page.hit.docId)!) + 1 / (k + byTelling.get(page.hit.docId)!) + (byClose ? 1 / (k + byClose.get(page.hit.docId)!) : 0);
  return mapped(list.sort((a, b) => fused(b) - fused(a) || b.hit.score - a.hit.score), (page) => page.hit);
}

/** Whether `lead`'s page is ahead of every other page of `hits` both by its best score x the most telling share of its passages and by that share (a tie is not ahead). */
function leadsBoth(hits: readonly ScoredHit[], lead: ScoredHit): boolean {
  const telling = new Map<number, number>();
  const score = new Map<number, number>();
  for (const hit of hits) {
    telling.set(hit.docId, Math.max(telling.get(hit.docId) ?? 0, hit.telling));
    if (!score.has(hit.docId)) score.set(hit.docId, hit.score);
  }
  const own = telling.get(lead.docId)!;
  const both = score.get(lead.docId)! * own;
  for (const [docId, share] of telling) {
    if (docId === lead.docId) continue;
    if (share >= own || score.get(docId)! * share >= both) return false;
  }
  return true;
}

/**
 * The pages of a "not sure" answer, or `undefined` for a refusal (nothing related). The rules
 * count the pages worth showing, which decides how many show and which is first; the fused
 * ranking (`relatedFusion`) chooses the pages after the first. An answer made unsure counts the
 * page it would have quoted (`found`), with its `rival`, whatever the related pages' bar.
 */
export function relatedPages({ hits, found, rival, judged, question, followUp, sameText, settings: s }: RelatedInput): RelatedPages | undefined {
  const closest: ScoredHit[] = found ? [found, ...(rival ? [rival] : [])] : [];
  const pages = new Set(closest.map((hit) => hit.docId));
  const top = hits[0];
  const runnerUp = top && hits.find((hit) => hit.docId !== top.docId);
  const standsOut = s.relatedStandout > 0 && top !== undefined && (!runnerUp || top.score >= s.relatedStandout * runnerUp.score);
  for (const hit of hits) {
    if (closest.length >= s.relatedPages) break;
    const [telling, strength] = s.relatedByPage ? [hit.pageTelling, hit.pageStrength] : [hit.telling, hit.strength];
    const strongEnough = strength >= s.minStrength || (standsOut && hit === top) || (s.relatedWords > 0 && hit.ownWords >= s.relatedWords);
    if (hit.matchedTerms.length === 0 || telling < s.relatedTelling || !strongEnough || pages.has(hit.docId)) continue;
    pages.add(hit.docId);
    closest.push(hit);
  }
  // The page scoring best may match too little of the question to pass the related pages'
  // bar, yet it is the likeliest: once some page is related, it counts too, in the last one's place.
  if (s.relatedBest && closest.length && top && !pages.has(top.docId)) {
    if (closest.length >= s.relatedPages) closest.pop();
    closest.push(top);
  }
  // The page matching the most of the question's telling weight, when no page counted matches
  // as much, takes the place of the lowest-scoring one but the best and the one judged.
  if (s.relatedMostTelling && closest.length && top) {
    const most = hits.reduce<ScoredHit | undefined>((m, hit) => (hit.matchedTerms.length > 0 && (!m || hit.telling > m.telling) ? hit : m), undefined);
    if (most && closest.every((hit) => hit.docId !== most.docId) && closest.every((hit) => hit.telling < most.telling)) {
      if (closest.length >= s.relatedPages) {
        const out = [...closest].sort((a, b) => a.score - b.score).find((hit) => hit.docId !== top.docId && hit.docId !== found?.docId);
        if (out) closest.splice(closest.indexOf(out), 1);
      }
      if (closest.length < s.relatedPages) closest.push(most);
    }
  }
  // A follow-up leaning on the question before, that its own words relate nowhere: the conversation's pages (`followUpRelated`).
  if (!closest.length && followUp && s.followUpRelated && refersBack(question)) {
    for (const hit of hits) {
      if (closest.length >= s.relatedPages) break;
      if (hit.contextMatched === 0 || pages.has(hit.docId)) continue;
      pages.add(hit.docId);
      closest.push(hit);
    }
    if (closest.length) return { pages: closest, otherPages: false, carried: true };
  }
  if (!closest.length) return undefined;
  // Free places: one for each page scoring next, not counted yet, matching enough by its passages together.
  if (s.relatedFill > 0 && top) {
    const counted = new Set(closest.map((hit) => hit.docId));
    for (const hit of hits) {
      if (closest.length >= s.relatedPages || hit.score < top.score * s.relatedFill) break;
      if (hit.matchedTerms.length === 0 || counted.has(hit.docId) || hit.pageTelling < s.relatedTelling) continue;
      counted.add(hit.docId);
      closest.push(hit);
    }
  }
  // (a) First: of the pages counted, the one both close and about the question's telling words (ties: the earliest counted).
  const order = (hit: ScoredHit): number => (s.relatedOrderTelling ? hit.score * hit.telling : 0);
  const first = closest.reduce((head, hit) => (order(hit) > order(head) || (order(hit) === order(head) && hit.score > head.score) ? hit : head));
  // (b) How many: as many as the pages counted. (c) Which others: the fused ranking's pages after the first,
  // unless the page leading both its telling rankings is another: it goes first, the rules' first second (`relatedFusedFirst`).
  const fused = closest.length > 1 ? fusedPages(hits, s.relatedFusion, s.relatedFusedScore).filter((hit) => hit.matchedTerms.length > 0) : [];
  // The page leading both telling rankings, wherever the score ranking puts it among the fused.
  const leader = s.relatedFusedFirst ? fused.find((hit) => leadsBoth(hits, hit)) : undefined;
  const lead = leader && leader.docId !== first.docId ? leader : undefined;
  const heads = lead ? [lead, first] : [first];
  let others = fused.filter((hit) => heads.every((head) => head.docId !== hit.docId));
  if (s.relatedDistinct && others.length > 1) {
    // Only the places shown are looked at: each page is read against those placed before it.
    const placed = [...heads];
    const copies: ScoredHit[] = [];
    for (const hit of others) {
      if (placed.length >= closest.length) break;
      (placed.some((shown) => sameText(shown, hit)) ? copies : placed).push(hit);
    }
    others = [...placed.slice(heads.length), ...copies];
  }
  const shown = [...heads, ...others];
  // A follow-up's passage that passed its own words' rules comes first: the related pages' first may be the page the conversation alone carries.
  const listed = followUp && found && judged ? [found, ...shown.filter((hit) => hit.docId !== found.docId)] : shown;
  const otherPages = hits.some((hit) => hit.docId !== listed[0]?.docId && hit.matchedTerms.length > 0);
  return { pages: listed.slice(0, closest.length), otherPages, carried: false };
}
