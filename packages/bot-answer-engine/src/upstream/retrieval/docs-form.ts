import type { KbIndex } from '../index/kb-index.js';
import { analyze } from './analyzer.js';
import { englishNear, inEnglish } from './english.js';

/** A word the docs lack is read in another form (`docsForm`) from this many letters. */
export const MIN_PREFIX = 4;
/** ... and by its typo fixed (`docsForm`, `misspeltWord`) from this many. */
const MIN_TYPO = 6;
/** Terms sharing a word's first two letters looked at for a typo, the most frequent first. */
export const TYPO_CANDIDATES = 5000;

/**
 * How passages hold a word no passage holds as written, from `MIN_PREFIX` letters: the plain form
 * of a superlative or an "-ier" comparative when the docs hold it (`adjectiveBase`: "cheapest":
 * cheap); else the most frequent term of the index one edit (a letter left out, added, changed or
 * two swapped) from it, sharing its first two letters, from `MIN_TYPO` letters ("practis":
 * practic); else its own form as the beginning of longer terms ("defib": defibrillator). Answers
 * and search as you type read such a word alike. Undefined for a shorter word.
 */
export function docsForm(index: KbIndex, term: string, written: readonly string[] = []): { form: string; prefix: boolean } | undefined {
  if (term.length < MIN_PREFIX) return undefined;
  const base = adjectiveBase(term).find((form) => index.documentFrequency(form) > 0);
  if (base) return { form: base, prefix: false };
  if (term.length >= MIN_TYPO) {
    for (const { term: known } of index.termsBeginning(term.slice(0, 2), TYPO_CANDIDATES)) {
      if (Math.abs(known.length - term.length) <= 1 && oneEditApart(known, term)) return { form: known, prefix: false };
    }
  }
  const meant = misspeltWord(index, term, written);
  if (meant) return { form: meant, prefix: false };
  return { form: term, prefix: true };
}

/**
 * The docs' term a misspelt word stands for when stemming hides the slip: "chnage" stems to
 * itself, two edits from "change"'s "chang", and "cirlce" to "cirlc", too short for the typo fix.
 * The word as written (from `MIN_TYPO` letters, English lacking its stem) is read as the most
 * common English word one edit from it (`englishNear`) whose stem the docs hold. Undefined when
 * none is, or no word is given.
 */
export function misspeltWord(index: KbIndex, term: string, written: readonly string[]): string | undefined {
  const words = written.filter((word) => word.length >= MIN_TYPO && /^[a-z]+$/.test(word));
  if (words.length === 0 || inEnglish(term)) return undefined;
  for (const word of words) {
    for (const near of englishNear(word)) {
      const form = analyze(near)[0];
      if (form && form !== term && index.documentFrequency(form) > 0) return form;
    }
  }
  return undefined;
}

/**
 * The Porter stems a superlative or an "-ier" comparative may come from, likeliest first
 * ("cheapest": cheap, "latest": lat or late, "biggest": bigg or big, "earlier": earli, as
 * "early" stems): the stemmer leaves these forms whole, so a question asking for the cheapest
 * tariff misses a page about cheap ones. A plain "-er" is left alone: it ends more nouns
 * ("router", "offer", "timer") than comparatives.
 */
export function adjectiveBase(term: string): string[] {
  const y = /^(.{3,})i(?:er|est)$/.exec(term);
  if (y) return [`${y[1]}i`];
  const est = /^(.{3,})est$/.exec(term);
  if (!est) return [];
  const base = est[1]!;
  return [base, `${base}e`, ...(/(.)\1$/.test(base) ? [base.slice(0, -1)] : [])];
}

/** Whether two words are one edit apart: a letter left out, added or changed, or two adjacent letters swapped. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
