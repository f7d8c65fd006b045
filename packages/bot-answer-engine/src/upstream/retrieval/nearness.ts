import { processTerm } from './analyzer.js';

/** One form a question's word is looked for under in a text: a term as the analyzer makes them, or (`prefix`) the beginning of terms. */
export interface NearForm {
  form: string;
  prefix: boolean;
}

// A word as `scanWords` makes them, near enough: a camelCase word's parts apart ("firstName": first, Name).
const WORD = /\p{Lu}?[\p{Ll}\p{Lo}\p{Lm}\p{N}]+|\p{Lu}+/uy;
const WORDS = new RegExp(WORD.source, 'gu');
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const UPPER = /\p{Lu}/u;
const LOWER_OR_DIGIT = /[\p{Ll}\p{N}]/u;
/** Characters between two found words beyond which the words between them are not counted: they are a window apart at least. */
const FAR_CHARS = 120;

/** Whether a word begins at a place of a text: none before it, or it begins a camelCase word's part ("Name" of "firstName"). */
function beginsWord(text: string, at: number): boolean {
  return at === 0 || !LETTER_OR_DIGIT.test(text[at - 1]!) || (UPPER.test(text[at]!) && LOWER_OR_DIGIT.test(text[at - 1]!));
}

function matches(forms: readonly NearForm[], lower: string, term: string | null): boolean {
  return forms.some(({ form, prefix }) => (prefix ? lower.startsWith(form) || (term !== null && term.startsWith(form)) : term === form || lower === form));
}

/**
 * The most of these words (each any of its forms) a text says within `window` consecutive words
 * (stop words counted): 0 when it says none of them, 1 when no two are that close. Only the
 * words beginning with a form less its last letter (a stem is a word's beginning but for its
 * last letter: "happi", happy) are found and analysed, and the words between two of them
 * counted when they are near: the text is not analysed whole, as this runs for several
 * passages a question.
 */
export function mostNear(markdown: string, words: ReadonlyArray<readonly NearForm[]>, window: number): number {
  const lower = markdown.toLowerCase();
  const heads = new Set(words.flatMap((forms) => forms.map(({ form }) => form.slice(0, Math.max(1, form.length - 1)))));
  const found = new Map<number, number>();
  for (const head of heads) {
    for (let at = lower.indexOf(head); at >= 0; at = lower.indexOf(head, at + 1)) {
      if (found.has(at) || !beginsWord(markdown, at)) continue;
      WORD.lastIndex = at;
      // (A text whose lower case is longer, "İ", finds its words at other places: those are left out.)
      const word = WORD.exec(markdown)?.[0];
      if (word === undefined) continue;
      const low = word.toLowerCase();
      const term = processTerm(word);
      found.set(at, words.findIndex((forms) => matches(forms, low, term)));
    }
  }
  const places = [...found].filter(([, w]) => w >= 0).sort((a, b) => a[0] - b[0]);
  if (places.length === 0) return 0;
  // Each found word's place in words from the first, a far gap counted as a window's length.
  const count = places.map(() => 0);
  for (let i = 1; i < places.length; i++) {
    const [before, at] = [places[i - 1]![0], places[i]![0]];
    count[i] = count[i - 1]! + (at - before > FAR_CHARS ? window : (markdown.slice(before, at).match(WORDS)?.length ?? 0));
  }
  let most = 1;
  for (let i = 0; i < places.length; i++) {
    const seen = new Set<number>();
    for (let j = i; j < places.length && count[j]! - count[i]! < window; j++) seen.add(places[j]![1]);
    most = Math.max(most, seen.size);
  }
  return most;
}
