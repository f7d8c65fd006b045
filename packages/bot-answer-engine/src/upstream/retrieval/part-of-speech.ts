import { createRequire } from 'node:module';

/**
 * How English mostly uses a word, from the `wink-lexicon` package's lexicon (13,462 words, each
 * with its Penn Treebank tags, the commonest first): "far", "quickly" and "bought" are mostly
 * not nouns, "dog" and "stock" are. A word the lexicon lacks (a name, a rare or new word) is
 * read as a noun: it names something.
 */

let lexicon: Record<string, readonly string[]> | undefined;

/** Whether English uses this word, as written (lower case), mostly as other than a noun: a verb, an adjective, an adverb, a preposition or a number. */
export function mostlyNotNoun(word: string): boolean {
  lexicon ??= createRequire(import.meta.url)('wink-lexicon/src/lexicon.js') as Record<string, readonly string[]>;
  const tags = Object.hasOwn(lexicon, word) ? lexicon[word] : undefined;
  const commonest = tags?.[0];
  return commonest !== undefined && !commonest.startsWith('NN') && commonest !== 'FW';
}
