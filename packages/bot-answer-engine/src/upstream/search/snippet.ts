import { processTerm } from '../retrieval/analyzer.js';
import { matchesForm, type TypedWord } from './query.js';

/** Longest snippet, in UTF-16 code units, the `…` marks included. */
export const SNIPPET_CHARS = 180;
// Text kept before the first matched word, so it is read in its sentence.
const LEAD_CHARS = 40;
const WORD = /[\p{L}\p{N}]+/gu;
// camelCase parts of a word, as the analyzer splits identifiers ("onRequest": on, Request).
const CAMEL_PART = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{N}]+|\p{Lu}+[\p{N}]*|[\p{L}\p{N}]+/gu;
const HAS_CAMEL = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;
const ELLIPSIS = '…';

/** A matched stretch of the text: `[start, end)` in UTF-16 code units, and which typed word it matched. */
interface Match {
  start: number;
  end: number;
  word: number;
}

/** A snippet and the ranges of its matched words. */
export interface Snippet {
  snippet: string;
  highlights: Array<[number, number]>;
}

/**
 * The stretch of `text` (plain text) that best shows why it matched: the window of about
 * `SNIPPET_CHARS` holding the most of the typed words, starting a little before the first of
 * them, cut at word boundaries and marked `…` where text was left out; its start when nothing
 * matches. `highlights` are the matched words in it, as `[start, end)` offsets in UTF-16 code
 * units (so `snippet.slice(start, end)` is the word), in order: a word matches as the analyzer
 * reads it (its stem), a word being typed by its beginning, and an identifier's part alone.
 */
export function snippetFor(text: string, typed: readonly TypedWord[], maxChars = SNIPPET_CHARS): Snippet {
  const matches = findMatches(text, typed);
  let from = 0;
  if (text.length > maxChars && matches.length > 0) {
    let best = -1;
    for (const m of matches) {
      const start = Math.max(0, m.start - LEAD_CHARS);
      const covered = new Set(matches.filter((o) => o.start >= start && o.end <= start + maxChars - 2).map((o) => o.word)).size;
      if (covered > best) {
        best = covered;
        from = start;
      }
    }
  }
  from = wordStart(text, from);
  const lead = from > 0 ? ELLIPSIS : '';
  let to = text.length;
  if (to - from + lead.length > maxChars) {
    to = wordEnd(text, from + maxChars - lead.length - ELLIPSIS.length, from);
  }
  const tail = to < text.length ? ELLIPSIS : '';
  const snippet = `${lead}${text.slice(from, to)}${tail}`;
  const shift = lead.length - from;
  const highlights = matches.filter((m) => m.start >= from && m.end <= to).map((m): [number, number] => [m.start + shift, m.end + shift]);
  return { snippet, highlights };
}

/** Every word (or identifier part) of `text` that one of the typed words matches, in order. */
function findMatches(text: string, typed: readonly TypedWord[]): Match[] {
  const matches: Match[] = [];
  if (typed.length === 0) return matches;
  // A word's stem begins with its first letter, as every form does: a word whose first letter begins none is not stemmed.
  const firsts = new Set(typed.flatMap((t) => t.forms.map((f) => f.form[0])));
  const which = (piece: string): number => {
    if (!firsts.has(piece[0]!.toLowerCase())) return -1;
    const lower = piece.toLowerCase();
    const term = processTerm(piece);
    return typed.findIndex((t) => matchesForm(t.forms, lower, term));
  };
  for (const found of text.matchAll(WORD)) {
    const word = found[0];
    const at = found.index;
    const whole = which(word);
    if (whole >= 0) {
      matches.push({ start: at, end: at + word.length, word: whole });
      continue;
    }
    if (!HAS_CAMEL.test(word)) continue;
    for (const part of word.matchAll(CAMEL_PART)) {
      const index = which(part[0]);
      if (index >= 0) matches.push({ start: at + part.index, end: at + part.index + part[0].length, word: index });
    }
  }
  return matches;
}

/** Where the word holding `at` begins (a surrogate pair is never cut). */
function wordStart(text: string, at: number): number {
  if (at <= 0) return 0;
  const space = text.lastIndexOf(' ', at);
  return space < 0 ? 0 : space + 1;
}

/** Where to end a cut before `at`: at the last space after `from`, or at `at` outside a surrogate pair. */
function wordEnd(text: string, at: number, from: number): number {
  const space = text.lastIndexOf(' ', at);
  if (space > from) return space;
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}
