import { joinTerm, processTerm, scanWords, type ScannedText } from '../retrieval/analyzer.js';
import { relativesOf } from '../retrieval/lexicon.js';

/** One form a typed word is looked for under: a term of the index, or the beginning of terms. */
export interface TermForm {
  form: string;
  /** True: the terms beginning with `form` match. */
  prefix: boolean;
}

/** A word of the typed text, with the forms that match it (any of them). */
export interface TypedWord {
  forms: TermForm[];
  /** The word being typed (the last, with no space or punctuation after it). */
  partial: boolean;
  /** A whole word as typed, lower-cased: what a misspelling the stem hides is read from (`misspeltWord`). */
  written?: string;
}

// A partial word's forms are looked for from this many letters: one letter begins too much.
const MIN_PARTIAL = 2;
// A partial word may run past the stem of the word it begins ("validat": "valid", the stem of
// "validation"): the longest term of the index it begins with counts, this many letters shorter at most.
const STEM_SLACK = 4;
const MIN_STEM = 3;

/**
 * The words of text typed in a search box, as the analyzer makes them (lower case, stop words
 * out, stemmed, identifiers split), so a search matches the way answers do. The last word, when
 * nothing follows it, is being typed: it matches as the beginning of terms, as itself and as its
 * stem ("configuration" is indexed as "configur"), an identifier's last part and the identifier
 * whole ("onReq": "req", "onreq"), and also the longest term of the index that it
 * begins (`known`: whether the index holds a term), which is the stem of the word typed so far.
 * A whole word also matches the words the lexicon relates to it ("fake": "mock"), and two
 * adjacent words the term they make written as one ("roll back": "rollback"; "rate lim": "ratelim…").
 * A whole identifier the index holds is also a word of its own ("findOne": "findone", beside
 * "find"), weighed by its own rarity: its parts alone may be common or stop words.
 */
export function typedWords(text: string, known: (term: string) => boolean): TypedWord[] {
  const scanned = scanWords(text);
  const words = scanned.words;
  // The last word of the text, when nothing follows it; an identifier ("onReq") also whole.
  const whole = /[\p{L}\p{N}]+$/u.exec(text)?.[0];
  const typing = whole === undefined ? undefined : words.pop();
  const seen = new Set<string>();
  const typed: TypedWord[] = [];
  // Two words the documents may write as one ("roll back": rollback, "rate limit": rateLimit) match either word.
  const joined = (previous: TypedWord | undefined, form: TermForm, word: TypedWord): void => {
    if (!previous || (!form.prefix && !known(form.form))) return;
    previous.forms.push(form);
    word.forms.push(form);
  };
  let previousWord: string | undefined;
  let previousTyped: TypedWord | undefined;
  for (const word of words) {
    const term = processTerm(word);
    if (term === null || seen.has(term)) {
      previousWord = undefined;
      continue;
    }
    seen.add(term);
    // The lexicon's words for the same thing ("fake": mock), those the index holds, as answers read them.
    const relatives = relativesOf(term, word).filter(known);
    const current: TypedWord = { forms: [term, ...relatives].map((form) => ({ form, prefix: false })), partial: false, written: word.toLowerCase() };
    if (previousWord !== undefined) joined(previousTyped, { form: joinTerm([previousWord, word]), prefix: false }, current);
    typed.push(current);
    previousWord = word;
    previousTyped = current;
  }
  for (const { parts } of completeIdentifiers(text, scanned.identifiers, whole)) {
    const form = joinTerm(parts);
    if (seen.has(form) || !known(form)) continue;
    seen.add(form);
    typed.push({ forms: [{ form, prefix: false }], partial: false });
  }
  if (typing !== undefined && typing.length >= MIN_PARTIAL) {
    const lower = typing.toLowerCase();
    const forms: TermForm[] = [{ form: lower, prefix: true }];
    if (whole !== undefined && whole.length > typing.length) forms.push({ form: whole.toLowerCase(), prefix: true });
    const stem = processTerm(typing);
    if (stem !== null && stem !== lower) forms.push({ form: stem, prefix: true });
    for (let length = lower.length - 1; length >= Math.max(MIN_STEM, lower.length - STEM_SLACK); length--) {
      const shorter = lower.slice(0, length);
      if (known(shorter)) {
        if (!forms.some((f) => shorter.startsWith(f.form))) forms.push({ form: shorter, prefix: false });
        break;
      }
    }
    const current: TypedWord = { forms, partial: true };
    if (previousWord !== undefined && typing.length >= MIN_STEM) joined(previousTyped, { form: (previousWord + typing).toLowerCase(), prefix: true }, current);
    typed.push(current);
  }
  return typed;
}

/**
 * The identifiers of a text written whole: all of them when nothing is being typed; else those
 * before the word being typed (`whole`), less one it continues ("Bun.ser": `Bun` is not whole yet).
 */
function completeIdentifiers(text: string, identifiers: ScannedText['identifiers'], whole: string | undefined): ScannedText['identifiers'] {
  if (whole === undefined) return identifiers;
  const before = text.slice(0, text.length - whole.length);
  const done = scanWords(before).identifiers;
  return /[._]$/.test(before) ? done.slice(0, -1) : done;
}

/** Whether a word of a text (lower case, and its analyzed term) is one of these forms. */
export function matchesForm(forms: readonly TermForm[], lower: string, term: string | null): boolean {
  return forms.some(({ form, prefix }) => (prefix ? lower.startsWith(form) || (term !== null && term.startsWith(form)) : term === form || lower === form));
}
