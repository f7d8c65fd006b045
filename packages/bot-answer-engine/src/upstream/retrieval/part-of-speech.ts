import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/**
 * How English mostly uses a word, from the `wink-lexicon` package's lexicon (13,462 words, each
 * with its Penn Treebank tags, the commonest first), through the list of the 6,822 whose
 * commonest tag is not a noun's (`not-nouns.txt`, written from the package by
 * `scripts/not-nouns.mjs`): "far", "quickly" and "bought" are mostly not nouns, "dog" and
 * "stock" are. A word the lexicon lacks (a name, a rare or new word) is read as a noun: it
 * names something.
 */

let notNouns: ReadonlySet<string> | undefined;

function list(): ReadonlySet<string> {
  notNouns ??= new Set(
    readFileSync(join(packageRoot(), 'src', 'upstream', 'retrieval', 'not-nouns.txt'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return notNouns;
}

/** Whether English uses this word, as written (lower case), mostly as other than a noun: a verb, an adjective, an adverb, a preposition or a number. */
export function mostlyNotNoun(word: string): boolean {
  return list().has(word);
}
