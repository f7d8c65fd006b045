/**
 * Writes the local Answer API's list of English words used mostly as other than a noun
 * (`packages/bot-answer-engine/src/upstream/retrieval/not-nouns.txt`), from the lexicon of the
 * `wink-lexicon` package: each word whose commonest Penn Treebank tag is not a noun's (NN, NNS,
 * NNP, NNPS) nor a foreign word's (FW). The engine reads the list, not the package: the package
 * installs 13 MB, and loading its lexicon as a module costs a server about 7 MiB of memory, for
 * 60 KB of words. `test/upstream/part-of-speech.test.ts` checks the list against the package.
 *
 *   node scripts/not-nouns.mjs
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The list's file. */
export const NOT_NOUNS_FILE = fileURLToPath(new URL('../packages/bot-answer-engine/src/upstream/retrieval/not-nouns.txt', import.meta.url));

/** The list's text: a header naming its source and licence, then the words, one a line, sorted. */
export function notNounsText() {
  const { version } = require('wink-lexicon/package.json');
  const lexicon = require('wink-lexicon/src/lexicon.js');
  const words = Object.keys(lexicon)
    .filter((word) => /^[a-z]+$/.test(word))
    .filter((word) => {
      const commonest = lexicon[word][0];
      return !commonest.startsWith('NN') && commonest !== 'FW';
    })
    .sort();
  const header = [
    `# English words used mostly as other than a noun: written by scripts/not-nouns.mjs from wink-lexicon ${version}'s lexicon.`,
    '# wink-lexicon: Copyright (C) GRAYPE Systems Private Limited; MIT licence (https://github.com/winkjs/wink-lexicon).',
  ];
  return `${[...header, ...words].join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(NOT_NOUNS_FILE, notNounsText());
