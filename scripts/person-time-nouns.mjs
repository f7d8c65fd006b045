/**
 * Writes the local Answer API's list of English nouns that name only a person or a time
 * (`packages/bot-answer-engine/src/upstream/retrieval/person-time-nouns.txt`), from the
 * `wink-lexicon` package: each word of its lexicon whose commonest Penn Treebank tag is a common
 * noun's (NN, NNS), and whose every noun sense, over each lemma it may be a form of, is in
 * WordNet's lexicographer file `noun.person` or `noun.time` ("son", "teenager", "husband",
 * "summer", "deadline"; not "kid", a young goat too, nor "gates", a plural of "gate"). The
 * engine reads the list, not the package (see `not-nouns.mjs`).
 * `test/upstream/part-of-speech.test.ts` checks the list against the package.
 *
 *   node scripts/person-time-nouns.mjs
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The list's file. */
export const PERSON_TIME_NOUNS_FILE = fileURLToPath(new URL('../packages/bot-answer-engine/src/upstream/retrieval/person-time-nouns.txt', import.meta.url));

const KINDS = new Set(['noun.person', 'noun.time']);

/** The lemmas a word as written may be a form of: itself and, for a plural, the singulars English spelling allows. */
function lemmas(word, tags, exceptions) {
  const forms = [word];
  if (tags.includes('NNS')) {
    if (exceptions[word]) forms.push(exceptions[word]);
    if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
    if (word.endsWith('es')) forms.push(word.slice(0, -2));
    if (word.endsWith('s')) forms.push(word.slice(0, -1));
  }
  return forms;
}

/** The list's text: a header naming its source and licence, then the words, one a line, sorted. */
export function personTimeNounsText() {
  const { version } = require('wink-lexicon/package.json');
  const lexicon = require('wink-lexicon/src/lexicon.js');
  const senses = require('wink-lexicon/src/wn-senses.js');
  const wordIndex = require('wink-lexicon/src/wn-words.js');
  const wordSenses = require('wink-lexicon/src/wn-word-senses.js');
  const exceptions = require('wink-lexicon/src/wn-noun-exceptions.js');
  const words = Object.keys(lexicon)
    .filter((word) => /^[a-z]+$/.test(word) && ['NN', 'NNS'].includes(lexicon[word][0]))
    .filter((word) => {
      const nounSenses = lemmas(word, lexicon[word], exceptions)
        .filter((lemma) => Object.hasOwn(wordIndex, lemma))
        .flatMap((lemma) => wordSenses[wordIndex[lemma]].map((sense) => senses[sense]))
        .filter((sense) => sense.startsWith('noun.'));
      return nounSenses.length > 0 && nounSenses.every((sense) => KINDS.has(sense));
    })
    .sort();
  const header = [
    `# English nouns that name only a person or a time: written by scripts/person-time-nouns.mjs from wink-lexicon ${version}'s lexicon and WordNet senses.`,
    '# wink-lexicon: Copyright (C) GRAYPE Systems Private Limited; MIT licence (https://github.com/winkjs/wink-lexicon). WordNet 3.0: Copyright 2006 Princeton University; WordNet licence.',
  ];
  return `${[...header, ...words].join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(PERSON_TIME_NOUNS_FILE, personTimeNounsText());
