import { termsOf } from '../retrieval/terms.js';
import { answerType, leafStatesType, type AnswerType } from './answer-type.js';
import { FENCE_LINE, holds, renderParts, type CodeCap } from './excerpt-markdown.js';
import type { Item, Leaf, Part, PassageParts } from './passage-units.js';

/** A passage to quote from: its parts, the terms its label line already shows, and its rank in retrieval. */
export interface FocusPassage {
  parts: PassageParts;
  /** Terms of the passage's title and headings, shown in its label line. */
  headingTerms: ReadonlySet<string>;
  /** The passage's own heading (the last of its trail), as written; empty for a page's opening. */
  heading: string;
  /** 0 for the passage retrieval found best. */
  rank: number;
  /** The page it is a section of (passages of one page share it). */
  page: number;
}

/** How much an answer quotes. */
export interface FocusOptions {
  /** Characters all excerpts together aim at. */
  budget: number;
  /** Characters of a passage's opening quoted when nothing in it matches the question. */
  leadChars?: number;
  /** Longest code block quoted; a longer one is cut between lines, with a `…` line. */
  maxCodeChars?: number;
}

const DEFAULT_LEAD_CHARS = 500;
const DEFAULT_MAX_CODE_CHARS = 1200;
/** Least of a code block quoted when it has to be cut to make room. */
const MIN_CODE_CHARS = 400;
/** A leaf this short is quoted even past the budget: every passage gets a line. */
const SHORT_LEAF_CHARS = 240;
/** A code block before a quoted paragraph's opening sentence this short (lines, characters of code) is the signature it describes. */
const SIGNATURE_LINES = 4;
const SIGNATURE_CHARS = 200;
/** A section this short that holds the question's terms is quoted whole. */
const WHOLE_SECTION_CHARS = 400;
/**
 * A best page whose excerpts are shorter than this in all, once every other step is done, is
 * quoted more: the rest of what holds the question's words, up to this length of its own.
 */
const SHORT_ANSWER_CHARS = 500;
/** Leaves quoted last must be worth this share of the best leaf. */
const FILL_SHARE = 0.5;
/** A term of the label line weighs this much in the passage's text: the reader sees it already. */
const HEADING_TERM_WEIGHT = 0.5;
/** A question term that matches only the start of a longer term (retrieval's prefix match) counts this much. */
const PREFIX_CREDIT = 0.5;
/** Each rank below the best passage divides a leaf's worth by 1 + this. */
const RANK_DISCOUNT = 0.25;
/** A leaf's worth is divided by 1 + its length in these many characters. */
const LENGTH_UNIT = 400;
/**
 * Words that frame a question rather than say what it is about ("how do I *use* ...", "*make*
 * a request"): they weigh this much, so the leaf holding the topic's words wins.
 */
const FRAME_TERM_WEIGHT = 0.3;
/** A code span in a sentence: a name, option or value the reader can use. */
const CODE_SPAN = /`[^`\n]+`/;
/** A sentence that asks a question: a question mark at its end, before any closing quote, bracket or emphasis. */
const QUESTION_END = /\?["'”’)*_]*\s*$/;
/** A leaf that states a fact: it holds code, a number or a bold name. */
const FACT = /`[^`\n]+`|\d|\*\*[^*\n]+\*\*|__[^_\n]+__/;
/**
 * A leaf stating what the question asks for (a figure for "how much", "how long", "when") is
 * worth this many times as much: the question's words name the topic, the leaf with the
 * figure beside them answers.
 */
const TYPE_WEIGHT = 2;
const FRAME_TERMS = new Set(termsOf('use using make get set create add run work need want way find write handle change configure possible able'));

interface Candidate {
  passage: number;
  leaf: Leaf;
  /** Question terms it holds, with their credit (1 exact, PREFIX_CREDIT by prefix). */
  matches: Map<string, number>;
  score: number;
}

/**
 * Chooses, for each passage, the leaves that answer the question (sentences, list items, table
 * rows, code blocks holding its terms, each term weighted by how rare it is among the passages'
 * leaves, a leaf's worth divided by its length) and renders them as Markdown in page order, in
 * this order of priority while the excerpts fit `budget`:
 * 1. each passage's best leaf (the best passage's whatever its length; a code block there is
 *    cut to leave the others room), or its opening when nothing in it matches;
 * 2. leaves showing question terms that no chosen leaf shows yet;
 * 3. for a heading the question names: its opening sentence when it is a signature or code,
 *    and the section's code block when it has only one;
 * 4. a short section that matches, whole;
 * 5. leaves worth nearly as much as the best;
 * 6. the lists, tables and code blocks (and sentences naming code) right after a quoted part
 *    that matches: the option names, codes and values beside the sentence that answers (of a
 *    list or table too long to quote whole, the items and rows holding question terms first);
 * 7. in the best passage, the leaf right after a quoted one that matches, when it states a fact
 *    (code, a number, a bold name): the price, form or option the sentence before leads up to;
 * 8. the list a quoted sentence ending with a colon introduces, when none of it is quoted;
 * 9. for a question asking for a figure (`answerType`: "how much", "how long", "when"), in each
 *    passage none of whose quoted leaves states one, its best leaf that does;
 * 10. while the excerpts are short (under 500 characters), the other leaves holding question
 *    terms of the best passage's page (its other passages too), most worth first, up to that length;
 *    then, if they are still short, the leaves between two quoted ones of the best passage that
 *    state a fact (no table rows), shortest first;
 * 11. the leaf after a quoted sentence asking the page's own question, which answers it; where it
 *    does not fit, the question is left out, unless it is all its passage quotes;
 * 12. a passage still quoting nothing, its opening a code block longer than the room left: the
 *    block's first lines, so no source is a bare label line.
 * A leaf stating the figure such a question asks for is worth twice as much throughout.
 * A chosen sentence or item brings the code block right after it (one code block may go over
 * the budget), a paragraph's opening sentence the short code block right before it (the
 * signature it describes), and the sentence introducing its list. Nothing is quoted twice. Deterministic:
 * ties go to the better passage, then to page order.
 */
export function focusExcerpts(passages: FocusPassage[], question: string | undefined, options: FocusOptions): string[] {
  const leadChars = options.leadChars ?? DEFAULT_LEAD_CHARS;
  const maxCode = options.maxCodeChars ?? DEFAULT_MAX_CODE_CHARS;
  const caps = new Map<Leaf, number>();
  const codeCap: CodeCap = (leaf) => caps.get(leaf) ?? maxCode;
  const selections = passages.map(() => new Set<number>());
  const renders = passages.map(() => '');
  const render = (i: number, selected = selections[i]!): string => renderParts(passages[i]!.parts.parts, selected, codeCap).join('\n\n');
  const total = (): number => renders.reduce((sum, text) => sum + text.length, 0);
  let overflowUsed = false;
  // What is quoted already, by its words: docs repeat themselves (one option list on two pages).
  const quoted = new Set<string>();
  const duplicate = (i: number, leaf: Leaf): boolean => !selections[i]!.has(leaf.id) && quoted.has(wordsOf(leaf));

  /**
   * Adds leaves to a passage's selection if the excerpts still fit (`limit`, the budget unless
   * given), or anyway with `force`; one code block may go over when `overflow` allows (the code
   * that goes with a chosen sentence). Returns whether it added them.
   */
  const tryAdd = (i: number, ids: number[], force = false, overflow = false, limit = options.budget): boolean => {
    const fresh = ids.filter((id) => !selections[i]!.has(id));
    if (fresh.length === 0) return true;
    // A leaf adds at least its own length: no need to render to see it does not fit.
    const least = fresh.reduce((sum, id) => sum + Math.min(codeCap(passages[i]!.parts.leaves[id]!), passages[i]!.parts.leaves[id]!.markdown.length), 0);
    if (!force && !overflow && total() + least > limit) return false;
    const next = new Set([...selections[i]!, ...fresh]);
    const text = render(i, next);
    const fits = total() - renders[i]!.length + text.length <= limit;
    if (!fits && !force) {
      // One code block may take the answer over its budget: the code is what answers.
      const onlyCode = fresh.every((id) => passages[i]!.parts.leaves[id]!.kind === 'code');
      if (!overflow || !onlyCode || overflowUsed) return false;
      overflowUsed = true;
    }
    selections[i] = next;
    renders[i] = text;
    for (const id of fresh) quoted.add(wordsOf(passages[i]!.parts.leaves[id]!));
    return true;
  };

  const asked = questionTerms(question);
  const type = answerType(question);
  const candidates = scoreLeaves(passages, asked, type);
  const weights = termWeights(passages, candidates);
  const byPassage = passages.map((_, i) => candidates.filter((c) => c.passage === i));
  const rankFactor = (c: Candidate): number => 1 / (1 + RANK_DISCOUNT * passages[c.passage]!.rank);
  // What a leaf is worth for its length: a long code block matches many words, a sentence says it in few.
  const value = (c: Candidate, worth = c.score): number => (worth * rankFactor(c)) / (1 + c.leaf.markdown.length / LENGTH_UNIT);
  const order = (a: Candidate, b: Candidate): number => a.passage - b.passage || a.leaf.id - b.leaf.id;
  const byValue = (list: Candidate[], worth?: (c: Candidate) => number): Candidate[] =>
    list
      .map((c) => ({ c, v: value(c, worth?.(c)) }))
      .sort((a, b) => b.v - a.v || order(a.c, b.c))
      .map(({ c }) => c);
  const add = (c: Candidate, force = false): boolean => {
    if (duplicate(c.passage, c.leaf) || !tryAdd(c.passage, [c.leaf.id], force)) return false;
    const parts = passages[c.passage]!.parts.parts;
    const intro = listIntro(parts, c.leaf);
    if (intro) tryAdd(c.passage, [intro.id]);
    const code = companionCode(parts, c.leaf);
    for (const block of [code.after, code.before]) if (block) tryAdd(c.passage, [block.id], false, true);
    return true;
  };

  // Each passage is quoted by its best leaf that fits (or is short), or its opening when nothing
  // in it matches; the best passage's whatever its length.
  // A code block that is the best passage's best leaf comes after the others' best leaves, cut
  // to half the room they leave, so one long example does not crowd out every other source.
  let deferred: Candidate | undefined;
  passages.forEach((passage, i) => {
    const force = passage.rank === 0;
    const ranked = byValue(byPassage[i]!.filter((c) => !duplicate(i, c.leaf)));
    if (force && passages.length > 1 && ranked[0]?.leaf.kind === 'code') deferred = ranked[0];
    else if (ranked.length ? !ranked.some((c) => add(c, force || c.leaf.markdown.length <= SHORT_LEAF_CHARS)) : true) {
      tryAdd(i, leadLeaves(passage.parts, leadChars, (leaf) => !duplicate(i, leaf)), force);
    }
  });
  if (deferred) {
    caps.set(deferred.leaf, Math.min(maxCode, Math.max(MIN_CODE_CHARS, (options.budget - total()) / 2)));
    add(deferred, true);
  }

  // Leaves that show question terms no chosen leaf shows yet, most telling first.
  const shown = new Set<string>();
  for (;;) {
    for (const c of candidates) if (selections[c.passage]!.has(c.leaf.id)) for (const term of c.matches.keys()) shown.add(term);
    const gain = (c: Candidate): number => [...c.matches].reduce((sum, [term, credit]) => sum + (shown.has(term) ? 0 : (weights.get(term) ?? 0) * credit), 0);
    const open = candidates.filter((c) => !selections[c.passage]!.has(c.leaf.id) && gain(c) > 0);
    if (!byValue(open, gain).some((c) => add(c))) break;
  }

  passages.forEach((passage, i) => {
    const named = passage.heading && termsOf(passage.heading).some((term) => asked.has(term));
    if (!named) return;
    // A function or option heading (code, or a signature) that the question names: its opening sentence says what it is.
    const first = firstSentence(passage.parts.parts);
    if (/[`(]/.test(passage.heading) && first !== undefined) tryAdd(i, [first]);
    // A section the question names with one code block: that block is its example.
    const code = onlyCode(passage.parts.parts);
    if (code && !selections[i]!.has(code.id)) tryAdd(i, [code.id], false, i === 0);
  });

  // A short section that answers is quoted whole: it is focused already.
  passages.forEach((passage, i) => {
    const all = passage.parts.leaves.filter((leaf) => !duplicate(i, leaf)).map((leaf) => leaf.id);
    if (byPassage[i]!.length && render(i, new Set(all)).length <= WHOLE_SECTION_CHARS) tryAdd(i, all);
  });

  // Then what is worth nearly as much as the best, while there is room.
  const best = Math.max(0, ...candidates.map((c) => value(c)));
  byValue(candidates.filter((c) => value(c) >= best * FILL_SHARE)).forEach((c) => add(c));

  // Last, the lists, tables and code right after a quoted part that matches: the option
  // names, values and steps beside the sentence that answers, rather than more of the section.
  passages.forEach((passage, i) => {
    const { parts } = passage.parts;
    const matching = new Set(byPassage[i]!.filter((c) => selections[i]!.has(c.leaf.id)).map((c) => c.leaf));
    const holding = new Set(byPassage[i]!.map((c) => c.leaf));
    parts.forEach((part, p) => {
      if (!partLeaves(part).some((leaf) => matching.has(leaf))) return;
      for (const next of parts.slice(p + 1)) {
        if (next.type === 'block') break;
        if (holds(next, selections[i]!)) continue;
        // Prose goes on only where it names code (`Bun.build`); a paragraph without it ends the run.
        const leaves = next.type === 'paragraph' ? next.sentences.filter((s) => CODE_SPAN.test(s.markdown)) : partLeaves(next);
        if (leaves.length === 0) break;
        // Where the whole list or table does not fit, its items and rows holding a question word come first.
        const ordered = [...leaves.filter((leaf) => holding.has(leaf)), ...leaves.filter((leaf) => !holding.has(leaf))];
        if (!ordered.every((leaf) => duplicate(i, leaf) || tryAdd(i, [leaf.id]))) return;
      }
    });
  });

  // With room left, the leaf right after each quoted leaf of the best passage that matches, when
  // it states a fact (code, a number, a bold name): the sentence that answers often follows the
  // one holding the question's words ("Year 6 spend three nights at the lake. It costs **£265**.").
  passages.forEach((passage, i) => {
    if (passage.rank !== 0) return;
    const { leaves } = passage.parts;
    for (const c of byValue(byPassage[i]!.filter((c) => selections[i]!.has(c.leaf.id)))) {
      const next = leaves[c.leaf.id + 1];
      // A table's next row is another case, not more of this one.
      if (next && next.kind !== 'row' && !selections[i]!.has(next.id) && !duplicate(i, next) && FACT.test(next.markdown)) tryAdd(i, [next.id]);
    }
  });

  // A quoted sentence ending with a colon, none of whose list is quoted, brings the list it
  // introduces ("To use the Float Grid, you need to:"), while it fits.
  passages.forEach((passage, i) => {
    for (const leaf of passage.parts.leaves) {
      if (!selections[i]!.has(leaf.id) || leaf.kind !== 'sentence' || !/:\s*$/.test(leaf.markdown)) continue;
      const list = introducedList(passage.parts.parts, leaf);
      if (list && !holds(list, selections[i]!)) tryAdd(i, partLeaves(list).filter((item) => !duplicate(i, item)).map((item) => item.id));
    }
  });

  // A question asking for a figure ("how much", "how long", "when") whose passage is quoted by no
  // leaf stating one: the passage's best leaf that states one and holds a question word, while it fits.
  if (type) {
    passages.forEach((passage, i) => {
      if (passage.parts.leaves.some((leaf) => selections[i]!.has(leaf.id) && leafStatesType(type, leaf))) return;
      byValue(byPassage[i]!.filter((c) => leafStatesType(type, c.leaf) && !duplicate(i, c.leaf))).some((c) => add(c));
    });
  }

  // A best page still quoted short quotes more of its passages, most worth first, up to
  // SHORT_ANSWER_CHARS of its own: the sentence, item or row that answers often holds one word of
  // the question ("Only Google Fonts are supported") while the section's opening holds them all.
  // Other pages' quotes keep their room and do not count: they can take the answer past that
  // length while the best page's quote is one sentence.
  const short = Math.min(options.budget, SHORT_ANSWER_CHARS);
  const bestPage = passages.find((passage) => passage.rank === 0)?.page;
  const bestPageChars = (): number => renders.reduce((sum, text, i) => sum + (passages[i]!.page === bestPage ? text.length : 0), 0);
  const onBestPage = candidates.filter((c) => passages[c.passage]!.page === bestPage && !selections[c.passage]!.has(c.leaf.id) && !duplicate(c.passage, c.leaf));
  for (const c of byValue(onBestPage)) {
    if (bestPageChars() >= short) break;
    tryAdd(c.passage, [c.leaf.id], false, false, Math.min(options.budget, total() - bestPageChars() + short));
  }

  // A best page still quoted short fills the holes in its best passage's quote with the units
  // between quoted ones that state a fact (code, a number, a bold name), shortest first, while they fit:
  // the sentence or item that answers often sits between those holding the question's words and
  // holds none of them ("Things found are taken to the **Harbour Road depot**", Stage 1 before
  // the Stage 2 that says "answer"). A table's other rows are other cases, not more of this one.
  if (bestPageChars() < short) {
    passages.forEach((passage, i) => {
      if (passage.rank !== 0) return;
      const { leaves } = passage.parts;
      betweenQuoted(selections[i]!)
        .map((id) => leaves[id]!)
        .filter((leaf) => leaf.kind !== 'row' && !duplicate(i, leaf) && FACT.test(leaf.markdown))
        .sort((a, b) => a.markdown.length - b.markdown.length || a.id - b.id)
        .forEach((leaf) => tryAdd(i, [leaf.id]));
    });
  }

  // A quoted sentence asking the page's own question ("Broken before the refresh date?") brings
  // the leaf after it, which answers it, while it fits; where that does not fit, the question is
  // left out, unless it is all its passage quotes: a quote does not stop on a question.
  passages.forEach((passage, i) => {
    const { leaves } = passage.parts;
    for (const leaf of leaves) {
      if (!selections[i]!.has(leaf.id) || leaf.kind !== 'sentence' || !QUESTION_END.test(leaf.markdown)) continue;
      const next = leaves[leaf.id + 1];
      if (!next || selections[i]!.has(next.id) || duplicate(i, next) || tryAdd(i, [next.id]) || selections[i]!.size === 1) continue;
      selections[i]!.delete(leaf.id);
      renders[i] = render(i);
    }
  });

  // Last, a passage still quoting nothing (its opening a code block longer than the room left)
  // would be a bare label line: its code block, cut to the room left, a few lines at least.
  passages.forEach((passage, i) => {
    if (selections[i]!.size) return;
    const first = passage.parts.leaves.find((leaf) => !duplicate(i, leaf));
    if (first?.kind !== 'code') return;
    caps.set(first, Math.min(maxCode, Math.max(SHORT_LEAF_CHARS, options.budget - total())));
    tryAdd(i, [first.id], true);
  });

  return renders;
}

/** The leaves of a passage between its first and last selected ones that are not selected, in page order. */
function betweenQuoted(selected: ReadonlySet<number>): number[] {
  const first = Math.min(...selected);
  const last = Math.max(...selected);
  const between: number[] = [];
  for (let id = first + 1; id < last; id++) if (!selected.has(id)) between.push(id);
  return between;
}

/** The question's terms as retrieval reads them. */
function questionTerms(question: string | undefined): Set<string> {
  return new Set(question ? termsOf(question) : []);
}

/** Each leaf holding question terms, with its score: the weights of the terms it holds. */
function scoreLeaves(passages: FocusPassage[], questionTerms: ReadonlySet<string>, type?: AnswerType): Candidate[] {
  const asked = [...questionTerms];
  if (asked.length === 0) return [];
  const found: Candidate[] = [];
  passages.forEach((passage, i) => {
    for (const leaf of passage.parts.leaves) {
      const terms = leafTerms(leaf);
      const matches = new Map<string, number>();
      for (const term of asked) {
        if (terms.has(term)) matches.set(term, 1);
        else if (term.length >= 5 && [...terms].some((t) => t.startsWith(term))) matches.set(term, PREFIX_CREDIT);
      }
      if (matches.size) found.push({ passage: i, leaf, matches, score: 0 });
    }
  });
  const weights = termWeights(passages, found);
  for (const c of found) {
    const heading = passages[c.passage]!.headingTerms;
    c.score = [...c.matches].reduce(
      (sum, [term, credit]) => sum + (weights.get(term) ?? 0) * credit * (heading.has(term) ? HEADING_TERM_WEIGHT : 1) * (FRAME_TERMS.has(term) ? FRAME_TERM_WEIGHT : 1),
      0,
    ) * (type && leafStatesType(type, c.leaf) ? TYPE_WEIGHT : 1);
  }
  return found;
}

/** How telling each question term is among the passages' leaves: the rarer, the more (an IDF over leaves). */
function termWeights(passages: FocusPassage[], candidates: Candidate[]): Map<string, number> {
  const leaves = passages.reduce((sum, p) => sum + p.parts.leaves.length, 0);
  const holding = new Map<string, number>();
  for (const c of candidates) for (const term of c.matches.keys()) holding.set(term, (holding.get(term) ?? 0) + 1);
  return new Map([...holding].map(([term, n]) => [term, Math.log(1 + leaves / n)]));
}

const leafTermCache = new WeakMap<Leaf, Set<string>>();

/** The terms of a leaf's text, without Markdown syntax, link targets or code fences. */
function leafTerms(leaf: Leaf): Set<string> {
  let terms = leafTermCache.get(leaf);
  if (!terms) {
    const text = leaf.kind === 'code' ? leaf.markdown.replace(/^.*\n|\n.*$/g, '') : leaf.markdown.replace(/\]\([^)]*\)/g, ']');
    terms = new Set(termsOf(text));
    leafTermCache.set(leaf, terms);
  }
  return terms;
}

const leafWordsCache = new WeakMap<Leaf, string>();

/** The words of a leaf, to tell the same text quoted twice. */
function wordsOf(leaf: Leaf): string {
  let words = leafWordsCache.get(leaf);
  if (words === undefined) {
    words = leaf.markdown.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    leafWordsCache.set(leaf, words);
  }
  return words;
}

/** Leaves from the passage's start (those `keep` accepts) up to about `chars` characters (at least one). */
function leadLeaves(parts: PassageParts, chars: number, keep: (leaf: Leaf) => boolean): number[] {
  const ids: number[] = [];
  let length = 0;
  for (const leaf of parts.leaves.filter(keep)) {
    if (ids.length && length + leaf.markdown.length > chars) break;
    ids.push(leaf.id);
    length += leaf.markdown.length + 1;
  }
  return ids;
}

/** The list right after the paragraph that `leaf` ends. */
function introducedList(parts: Part[], leaf: Leaf): Part | undefined {
  const at = parts.findIndex((part) => part.type === 'paragraph' && part.sentences[part.sentences.length - 1] === leaf);
  const next = at >= 0 ? parts[at + 1] : undefined;
  return next?.type === 'list' ? next : undefined;
}

/** The first sentence of the passage's first paragraph, if the passage opens with prose (after at most a list of parameters). */
function firstSentence(parts: Part[]): number | undefined {
  const paragraph = parts.slice(0, 3).find((part) => part.type === 'paragraph');
  return paragraph?.type === 'paragraph' ? paragraph.sentences[0]?.id : undefined;
}

/** The sentence that introduces the list holding `leaf` as an item (a paragraph ending with a colon right before it). */
function listIntro(parts: Part[], leaf: Leaf): Leaf | undefined {
  for (let index = 1; index < parts.length; index++) {
    const part = parts[index]!;
    if (part.type !== 'list' || !part.items.some((item) => item.lead === leaf || itemHoldsLeaf(item, leaf))) continue;
    const before = parts[index - 1]!;
    const last = before.type === 'paragraph' ? before.sentences[before.sentences.length - 1] : undefined;
    return last && /:\s*$/.test(last.markdown) ? last : undefined;
  }
  return undefined;
}

function itemHoldsLeaf(item: Item, leaf: Leaf): boolean {
  return item.lead === leaf || item.children.some((child) => partLeaves(child).includes(leaf));
}

function partLeaves(part: Part): Leaf[] {
  switch (part.type) {
    case 'paragraph':
      return part.sentences;
    case 'table':
      return part.rows;
    case 'code':
    case 'block':
      return [part.leaf];
    case 'list':
      return part.items.flatMap((item) => [...(item.lead ? [item.lead] : []), ...item.children.flatMap(partLeaves)]);
  }
}

/** The passage's code block, when it has exactly one at its top level. */
function onlyCode(parts: Part[]): Leaf | undefined {
  const code = parts.filter((part) => part.type === 'code');
  return code.length === 1 && code[0]!.type === 'code' ? code[0]!.leaf : undefined;
}

/**
 * The code blocks that go with `leaf`, found from the part holding it: `after`, the block right
 * after it when the leaf ends its paragraph, list or item, or ends with a colon ("pass the option
 * like this:"); `before`, the short block right before the paragraph the leaf opens, when it is
 * what the paragraph describes: a register, member or command written as a line of code, then a
 * sentence saying what it is ("rw num_pixels = 15: u16", then "Specifies the number of pixels in
 * the strip."). That sentence without its code names nothing; its default, type or name is there.
 */
function companionCode(parts: Part[], leaf: Leaf): { after?: Leaf; before?: Leaf } {
  const found = findContainer(parts, leaf);
  if (!found) return {};
  const own = found.siblings[found.index]!;
  const next = found.siblings[found.index + 1];
  const ownLeaves = partLeaves(own);
  const after = next?.type === 'code' && (ownLeaves[ownLeaves.length - 1] === leaf || /:\s*$/.test(leaf.markdown)) ? next.leaf : undefined;
  const previous = found.index > 0 ? found.siblings[found.index - 1] : undefined;
  const opens = own.type === 'paragraph' && own.sentences[0] === leaf;
  const before = opens && previous?.type === 'code' && isSignature(previous.leaf.markdown) ? previous.leaf : undefined;
  return { after, before };
}

/** Whether a code block is short enough to be the signature a paragraph describes (`SIGNATURE_LINES`, `SIGNATURE_CHARS`). */
function isSignature(code: string): boolean {
  const lines = code.split('\n').filter((line) => line.trim() && !FENCE_LINE.test(line));
  return lines.length <= SIGNATURE_LINES && lines.join('\n').length <= SIGNATURE_CHARS;
}

/** The parts list and position of the part that holds `leaf` directly (a paragraph, a list holding it as an item's text, a table). */
function findContainer(parts: Part[], leaf: Leaf): { siblings: Part[]; index: number } | undefined {
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    if (part.type === 'paragraph' && part.sentences.includes(leaf)) return { siblings: parts, index };
    if ((part.type === 'code' || part.type === 'block') && part.leaf === leaf) return { siblings: parts, index };
    if (part.type === 'table' && part.rows.includes(leaf)) return { siblings: parts, index };
    if (part.type === 'list') {
      for (const item of part.items) {
        // An item's code block follows its text inside the item.
        if (item.lead === leaf) return item.children.length ? { siblings: [{ type: 'block', leaf }, ...item.children], index: 0 } : { siblings: parts, index };
        const inner = findContainer(item.children, leaf);
        if (inner) return inner;
      }
    }
  }
  return undefined;
}
