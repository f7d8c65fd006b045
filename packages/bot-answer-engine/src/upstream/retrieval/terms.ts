import { analyze } from './analyzer.js';

/**
 * The terms of a text as retrieval matches them (lower case, stop words out, stemmed,
 * identifiers split into their words and kept whole, compounds joined), in order, repeats
 * kept. It is the analyzer the index is built with, so the composer, finding which sentences,
 * list items and rows of a passage hold the question's terms, agrees with retrieval on what
 * "the same word" is.
 */
export function termsOf(text: string): string[] {
  return analyze(text);
}
