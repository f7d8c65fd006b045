import { analyze, joinTerm, processTerm, scanWords } from './analyzer.js';
import { mapped } from './mapped.js';

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

// A word written in mixed case: a capital after a small letter ("WhatsApp", "iOS") or before one ("OAuth"), not an acronym's plural ("APIs").
const MIXED_CASE = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;
const PLURAL_ACRONYM = /^\p{Lu}{2,}s$/u;

/**
 * The names a question writes in mixed case ("WhatsApp", "iOS", "OAuth2", `jest.useFakeTimers`),
 * each as the terms a page holding it would be indexed with, in any form: the name joined whole
 * as written (with the `.` or `_` it is written with), each mixed-case word of it joined, in
 * lower case ("whatsapp"), and without the version it ends with ("OAuth2": "oauth"). The
 * analyser splits such a word into its parts, and a part may be a stop word or on many pages
 * ("Whats", "App"): whole, the name is what the question asks about.
 */
export function mixedCaseNames(question: string): string[][] {
  const names: string[][] = [];
  for (const written of question.match(/[\p{L}\p{N}]+(?:[._][\p{L}\p{N}]+)*/gu) ?? []) {
    const words = written.split(/[._]/).filter((word) => MIXED_CASE.test(word) && !PLURAL_ACRONYM.test(word));
    if (!words.length) continue;
    const forms = new Set<string>();
    for (const { parts } of scanWords(written).identifiers) forms.add(joinTerm(parts));
    for (const word of words) {
      forms.add(joinTerm(scanWords(word).words));
      const lower = processTerm(word.toLowerCase());
      if (lower) forms.add(lower);
      // A version written on ("OAuth2") a page may write apart ("OAuth 2.0").
      const unnumbered = word.replace(/\p{N}+$/u, '');
      if (unnumbered !== word && unnumbered.length > 1) forms.add(joinTerm(scanWords(unnumbered).words));
    }
    names.push([...forms]);
  }
  return names;
}

/**
 * The names a question writes as a package or an identifier is written, to be found as written:
 * in mixed case or joined by a dot between letters ("generateText", "getOrders", "app.param",
 * "package.json"), and lower-case words joined by hyphens that end a clause or own something
 * ("How do I configure retries in *node-fetch*?", "pnpm's *public-hoist-pattern*?"). A page
 * about them writes them so, while their parts or stems ("get", "orders", "node", "fetch") are
 * on many pages about something else.
 */
export function writtenNames(question: string): string[] {
  const names = new Set<string>();
  for (const [word] of question.matchAll(/[\p{L}\p{N}]+(?:[._][\p{L}\p{N}]+)*/gu)) {
    const dotted = /\p{L}\.\p{L}/u.test(word);
    if (dotted || word.split(/[._]/).some((part) => MIXED_CASE.test(part) && !PLURAL_ACRONYM.test(part))) names.add(word);
  }
  // A hyphenated word ending a clause or owning something names a thing ("retries in node-fetch?", "node-fetch's agent"); before a word it mostly describes it ("a built-in server").
  for (const [word] of question.matchAll(/(?<![\p{L}\p{N}_.-])\p{Ll}+(?:-\p{Ll}+)+(?=['’]s\b|[?!,;:)]|\.(?![\p{L}\p{N}])|\s*$)/gu)) names.add(word);
  return [...names];
}

/**
 * The names a question writes as two or more capitalised words in a row, not counting a word
 * that opens a sentence ("the other islands, like *Great Skerry*?", "the car park on *Station
 * Road*"): a place or a product named by its words together, which a page may hold apart
 * ("Skerry Ferries", "a great day out").
 */
export function capitalisedPhrases(question: string): string[] {
  const phrases: string[] = [];
  // Words in quotes are text to write, not a name; acronyms and mixed-case words ("JSON API", "JavaScript Date") have rules of their own.
  const unquoted = question.replace(/"[^"]*"|“[^”]*”/g, (quoted) => ' '.repeat(quoted.length));
  for (const match of unquoted.matchAll(/(?<![\p{L}\p{N}])\p{Lu}\p{Ll}+(?:[ \t]+\p{Lu}\p{Ll}+)+(?![\p{L}\p{N}])/gu)) {
    let words = match[0].split(/[ \t]+/);
    const before = unquoted.slice(0, match.index).trimEnd();
    if (!before || /[.?!:]$/.test(before)) words = words.slice(1);
    // A proper name takes no article: "an Indian Aadhaar number" is a kind of number, "like Great Skerry" a place.
    else if (/\b(?:a|an|the|my|your|our|their|this|that|these|those)$/i.test(before)) continue;
    if (words.length >= 2) phrases.push(words.join(' '));
  }
  return phrases;
}

/**
 * Whether a text holds the name as written, in any case, as a word of its own: not inside a
 * longer word or identifier, nor at the head of a dotted or hyphenated one ("pnpm" in
 * `pnpm-lock.yaml`); after a prefix ("non-JavaScript") it is the name still, and so is its
 * plural or singular ("t-shirt" in "T-shirts", "zig-zags" in "zig-zag lines").
 */
export function holdsWritten(text: string, name: string): boolean {
  const stem = /\p{Ll}s$/u.test(name) ? name.slice(0, -1) : name;
  return new RegExp(`(?<![\\p{L}\\p{N}_]|[\\p{L}\\p{N}]\\.)${escaped(stem)}(?:e?s)?(?![\\p{L}\\p{N}_]|[-.][\\p{L}\\p{N}])`, 'iu').test(text);
}

/**
 * Whether a question asks yes or no: it opens with an auxiliary verb ("Can I...?", "Does it...?",
 * "Is there...?"). The benchmark's answer types (`why-type.ts`) read it here too.
 */
export function asksYesNo(question: string): boolean {
  return /^(?:do|does|did|is|are|can|should|will|would|could|must|may|might|was|were|am|has|have)\b/i.test(question.trim());
}

/**
 * Whether a question leans on the one before it: it opens with a conjunction or "what about",
 * "what if" ("and for the Under 15s?", "what about my cat?"), or names its subject by a
 * pronoun ("Can I stop it whenever I want?", "and can I get them as a CSV instead?"). "That" is
 * left out: it joins a clause as often ("a rule that limits how long a test runs").
 */
export function refersBack(question: string): boolean {
  return LEADS_BACK.test(question.trim()) || POINTS_BACK.test(question);
}

const LEADS_BACK = /^(?:and|but|or|so|also|then|what about|how about|what if)\b/i;
const POINTS_BACK = /\b(?:it|its|itself|they|them|their|themselves|this|these|those|he|him|his|she|her|one|ones)\b/i;

/**
 * Whether a question asks a price: "how much" before a verb or "to" ("How much is a day pass?",
 * "how much to hire the hall"; not "how much notice", which asks a quantity of the noun after
 * it), or the word "cost" ("what does that cost?").
 */
export function asksPrice(question: string): boolean {
  return /\bhow\s+much\s+(?:is|are|was|were|does|do|did|will|would|should|to|for)\b|\bcosts?\b/i.test(question);
}

/** A number the question writes right after a word: a version or a name's number ("HTTP/3", "Node 14", "IE 8", "Year 6"). */
export interface NumberedWord {
  /** The word as written (not a stop word). */
  word: string;
  /** The number as written ("3", "2.7"). */
  number: string;
}

// After a word: a space, slash or hyphen (or nothing), an optional "v", and a number standing alone.
const AFTER_WORD = String.raw`(?:[ /-]|[ ]?v)?(\d+(?:\.\d+)*)(?![\p{L}\p{N}]|\.\d)`;
const NUMBERED = new RegExp(String.raw`(?<![\p{L}\p{N}])(\p{L}+)` + AFTER_WORD, 'gu');

/**
 * The numbers a question names with the word before them ("How do I enable *HTTP/3*?", "Does it
 * run on *Node 14*?"): a number after a stop word ("at 5", "than 10") names no version and is left out.
 */
export function numberedWords(question: string): NumberedWord[] {
  const found: NumberedWord[] = [];
  for (const match of question.matchAll(NUMBERED)) if (processTerm(match[1]!)) found.push({ word: match[1]!, number: match[2]! });
  return found;
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a text holds the number as a number of its own (not inside a longer one). */
export function holdsNumber(text: string, number: string): boolean {
  return new RegExp(`(?<![\\d.])${escaped(number)}(?!\\.?\\d)`).test(text);
}

// "9+", ">= 18", "≥ 2.1": a range of versions, which speaks of the numbers it leaves out too.
const RANGE = /(?<![\p{L}\p{N}.])\d+(?:\.\d+)*\+(?!\d)|(?:>=|≥)\s*v?\d/u;

/** Whether a text writes a range of numbers ("Versions 9+", ">= 18"). */
export function holdsRange(text: string): boolean {
  return RANGE.test(text);
}

/** The numbers a text writes right after the word (any case, as `numberedWords` reads them). */
export function numbersAfter(text: string, word: string): string[] {
  const after = new RegExp(String.raw`(?<![\p{L}\p{N}])` + escaped(word) + AFTER_WORD, 'giu');
  return mapped([...text.matchAll(after)], (match) => match[1]!);
}
