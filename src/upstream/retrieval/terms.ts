import { processTerm, scanWords } from './search.js';

/**
 * The terms of a text as retrieval matches them (lower case, stop words out, stemmed, compounds
 * joined), in order, repeats kept. The composer uses it to find which sentences, list items and
 * rows of a passage hold the question's terms, so both sides agree on what "the same word" is.
 */
export function termsOf(text: string): string[] {
  const { words, pairs } = scanWords(text);
  const terms: string[] = [];
  for (const word of words) {
    const term = processTerm(word);
    if (term) terms.push(term);
  }
  for (const { joined } of pairs) {
    const term = processTerm(joined);
    if (term) terms.push(term);
  }
  return terms;
}
