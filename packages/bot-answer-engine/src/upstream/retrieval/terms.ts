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

/**
 * The terms of the words a question writes with a capital letter where a sentence does not
 * begin ("How do I export my scene into a *Unity* project?"): names of products, vendors and
 * places, whatever their lower-case form means in everyday English.
 */
export function namedTerms(question: string): Set<string> {
  const named = new Set<string>();
  for (const sentence of question.split(/[.?!:;]\s+/)) {
    const words = sentence.match(/[\p{L}\p{N}][\p{L}\p{N}'’_./-]*/gu) ?? [];
    // An acronym ("API", "CI") is written in capitals wherever it stands: its case names nothing.
    for (const word of words.slice(1)) if (/^\p{Lu}/u.test(word) && /\p{Ll}/u.test(word)) for (const term of analyze(word)) named.add(term);
  }
  return named;
}
