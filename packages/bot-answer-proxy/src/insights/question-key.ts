import { stemmer } from 'stemmer';

/**
 * Words that say how a question is asked rather than what it is about: articles, pronouns,
 * auxiliaries, question words, politeness. "How do I reset my password?" and "password reset"
 * keep the same words once these are out.
 */
const STOP_WORDS = new Set(
  `a about after again all also am an and any anyone anything are as at be been being but by can could did do does doing
  for from get gets getting got had has have having he her here him his how i if in into is it its just know let lets like
  many may me might much must my need needs of on one or our please possible shall she should so some someone something tell
  than that the their them then there these they this those to too us use using want wants was way we were what when where
  which who whom why will with would you your yours hello hi hey thanks thank ok okay`.split(/\s+/),
);

/** The term a negation leaves in a key ("not", "n't", "cannot", "dont", "never"): kept, as it turns a question around. */
const NOT = 'not';

/**
 * What the ending of a contraction stands for. `'s` is read as a possessive ("the user's
 * password") and dropped: as "is" or "has" ("it's", "that's") it would be a stop word anyway.
 */
const ENDINGS = new Map<string, string[]>([
  ['m', ['am']],
  ['re', ['are']],
  ['ve', ['have']],
  ['ll', ['will']],
  ['d', ['would']],
  ['s', []],
]);

/** The verbs whose `n't` form is spelt otherwise: can't, won't, shan't, ain't. */
const NEGATED = new Map([
  ['ca', 'can'],
  ['wo', 'will'],
  ['sha', 'shall'],
  ['ai', 'am'],
]);

/**
 * A word as its words: a contraction ("don't", "I'm", "user's") as what it stands for; a word
 * with another apostrophe ("o'clock") as its parts, as before apostrophes were read.
 */
function expand(word: string): string[] {
  const parts = word.split("'");
  if (parts.length !== 2) return parts;
  const [base, ending] = parts as [string, string];
  if (ending === 't' && base.endsWith('n')) {
    const verb = base.slice(0, -1);
    return verb ? [NEGATED.get(verb) ?? verb, NOT] : [NOT];
  }
  const standsFor = ENDINGS.get(ending);
  return standsFor ? [base, ...standsFor] : parts;
}

/**
 * Words read as other words: contractions typed without their apostrophe, `cannot`, and `never`
 * as the negation it is ("the e-mail never came" asks what "the e-mail didn't come" does).
 * Contractions that are words of their own too are read as typed: well, hell, shell, were, id,
 * its, ill, shed, hed, wed, lets.
 */
const READ_AS = new Map<string, string[]>([
  ['cannot', ['can', NOT]],
  ['never', [NOT]],
  ...`don't doesn't didn't isn't aren't wasn't weren't hasn't haven't hadn't wouldn't shouldn't couldn't mustn't needn't ain't
  can't won't i'm i've you're you've you'll you'd they're they've they'll we've that's what's there's where's who's how's
  she's it'll`
    .split(/\s+/)
    .map((contraction): [string, string[]] => [contraction.replace("'", ''), expand(contraction)]),
]);

/** Compounds written as one word or two (compared stemmed, so `rolling back` is `rollback` too). */
const COMPOUNDS = new Map(
  [
    ['roll', 'back', 'rollback'],
    ['log', 'in', 'login'],
    ['log', 'out', 'logout'],
    ['sign', 'in', 'signin'],
    ['sign', 'out', 'signout'],
    ['sign', 'up', 'signup'],
    ['set', 'up', 'setup'],
    ['back', 'up', 'backup'],
    ['check', 'out', 'checkout'],
    ['e', 'mail', 'email'],
    ['on', 'board', 'onboard'],
    ['web', 'hook', 'webhook'],
  ].map(([a, b, joined]) => [`${stem(a!)} ${stem(b!)}`, stem(joined!)]),
);

/** A word: letters and digits, and apostrophes between them ("don't", "user's"). */
const WORD = /[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;
const MARKS = /\p{M}+/gu;
/** Apostrophes as typed besides `'`: the right single quote phones and word processors put, the modifier letter, the acute accent. */
const APOSTROPHES = /[\u2019\u02bc\u00b4]/g;

/** A word's stem. Porter's stemmer run twice, so that `deploy` and `deployment` (`deploi`, `deploy` after one run) meet. */
function stem(word: string): string {
  return stemmer(stemmer(word));
}

/**
 * Lower case, accents dropped (NFKD without combining marks), split into words of letters and
 * digits, contractions read as their words ("don't", "dont": `do not`). Apostrophes are made
 * one before NFKD, which would turn the acute accent into a space.
 */
function words(text: string): string[] {
  const found = text.replace(APOSTROPHES, "'").normalize('NFKD').replace(MARKS, '').toLowerCase().match(WORD) ?? [];
  return found.flatMap((word) => (word.includes("'") ? expand(word) : (READ_AS.get(word) ?? [word])));
}

/**
 * The words of a question as grouping compares them: Unicode-folded, contractions read as their
 * words, punctuation out, stemmed, compounds joined, stop words out (`not` stays), each once,
 * sorted.
 */
export function questionTerms(question: string): string[] {
  const found = words(question);
  const stems = found.map(stem);
  const terms = new Set<string>();
  for (let i = 0; i < found.length; i++) {
    const compound = i + 1 < found.length ? COMPOUNDS.get(`${stems[i]} ${stems[i + 1]}`) : undefined;
    if (compound) {
      terms.add(compound);
      i++;
    } else if (!STOP_WORDS.has(found[i]!)) terms.add(stems[i]!);
  }
  return [...terms].sort();
}

/**
 * The key questions are grouped by in the database: their terms joined by spaces. A question
 * of stop words only ("How?", "Why not?") keeps its folded words instead, so it is not grouped
 * with every other such question.
 */
export function questionKey(question: string): string {
  const terms = questionTerms(question);
  if (terms.some((term) => term !== NOT)) return terms.join(' ');
  return words(question).join(' ').slice(0, 200);
}

/** A key's count, as the database groups it. */
export interface CountedKey {
  key: string;
  asked: number;
}

/** Keys found to be the same question: the most asked first. */
export interface KeyGroup<T extends CountedKey> {
  keys: T[];
  asked: number;
}

/**
 * Whether two keys ask the same thing: one's terms are all among the other's, with at least two
 * in common besides `not` ("dogs in the office" and "can I bring a dog to the office"), and both
 * negated or neither ("I can't log in with Google" is not "log in with Google").
 */
function sameQuestion(a: Set<string>, b: Set<string>): boolean {
  if (a.has(NOT) !== b.has(NOT)) return false;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size - (small.has(NOT) ? 1 : 0) < 2) return false;
  for (const term of small) if (!large.has(term)) return false;
  return true;
}

/**
 * Groups keys that are the same question in other words. Keys are taken most asked first (of
 * equal counts, the shorter first, which longer ones can then join); each joins the group
 * holding a key it matches, or starts its own. A key matching several groups is vague
 * ("export report" matches the PDF and the Excel export): it joins the most asked one, and no
 * later key joins through it, so it never chains two distinct questions together. Groups come
 * out most asked first.
 */
export function groupKeys<T extends CountedKey>(keys: readonly T[]): KeyGroup<T>[] {
  const entries = keys.map((key) => ({ key, terms: new Set(key.key.split(' ')) }));
  entries.sort((a, b) => b.key.asked - a.key.asked || a.terms.size - b.terms.size || (a.key.key < b.key.key ? -1 : 1));
  const groups: Array<KeyGroup<T> & { matchable: Set<string>[] }> = [];
  for (const { key, terms } of entries) {
    const matching = groups.filter((g) => g.matchable.some((other) => sameQuestion(terms, other)));
    const group = matching[0];
    if (!group) {
      groups.push({ keys: [key], matchable: [terms], asked: key.asked });
      continue;
    }
    group.keys.push(key);
    group.asked += key.asked;
    if (matching.length === 1) group.matchable.push(terms);
  }
  return groups.sort((a, b) => b.asked - a.asked).map(({ keys: grouped, asked }) => ({ keys: grouped, asked }));
}
