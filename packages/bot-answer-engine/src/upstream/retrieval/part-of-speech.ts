import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/**
 * What kind of word English mostly makes of a word, from the `wink-lexicon` package (13,462
 * words, each with its Penn Treebank tags, the commonest first, and WordNet's senses), through
 * two lists the engine ships, written from the package by scripts of the same names:
 * - `not-nouns.txt`, the 6,822 words whose commonest tag is not a noun's: "far", "quickly" and
 *   "bought" are mostly not nouns, "dog" and "stock" are;
 * - `person-time-nouns.txt`, the 680 common nouns whose every sense names a person or a time:
 *   "son", "teenager", "deadline", "summer"; not "kid" (a young goat too).
 * A word the lexicon lacks (a name, a rare or new word) is in neither: it names something.
 */

const lists = new Map<string, ReadonlySet<string>>();

function list(name: string): ReadonlySet<string> {
  let words = lists.get(name);
  if (!words) {
    words = new Set(
      readFileSync(join(packageRoot(), 'src', 'upstream', 'retrieval', name), 'utf8')
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('#')),
    );
    lists.set(name, words);
  }
  return words;
}

/** Whether English uses this word, as written (lower case), mostly as other than a noun: a verb, an adjective, an adverb, a preposition or a number. */
export function mostlyNotNoun(word: string): boolean {
  return list('not-nouns.txt').has(word);
}

/** Whether this word, as written (lower case), is a common noun that names only a person or a time. */
export function namesPersonOrTime(word: string): boolean {
  return list('person-time-nouns.txt').has(word);
}
