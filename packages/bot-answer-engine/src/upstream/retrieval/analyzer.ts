import { stemmer } from 'stemmer';
import { FENCE, mapOutsideFences, plainHeading } from '../folder/markdown-text.js';
import { mapped } from './mapped.js';

/**
 * The analyzer: how text becomes the terms the index holds and a question is matched with.
 * Words are letters and digits of any script; identifiers are split into their words
 * (`parseMIMEType`: parse, MIME, type; `max_sockets`: max, sockets) and also kept whole;
 * words are lower-cased and stemmed (Porter), stop words and one-letter words left out.
 * Changing what it produces changes `ANALYZER_VERSION`, so indexes made before are rebuilt.
 */
export const ANALYZER_VERSION = 9;

// Words that say nothing about what is asked; without them "what is the" would match everything.
// The parts of contractions too ("I've": "ve"; "doesn't": "doesn"), and contractions typed without
// the apostrophe ("im", "doesnt"): a word the English list lacks would count as the most telling.
export const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by
  can cannot could did do does doing done down during each either else etc ever every few for from further get gets getting got
  had has have having he her here hers herself him himself his how however i if in into is it its itself just know let like
  many may me might mine more most much must my myself need needs no nor not now of often on once one only or other our ours
  ourselves out over own please same shall she should so some such tell than that the their theirs them themselves then there
  these they thing things this those though through to too under until up upon us very want wants was way we were what whats
  when where which while who whom whose why will with within without would yes yet you your yours yourself yourselves
  hello hi hey thanks thank ok okay
  ve ll re don doesn didn isn aren wasn weren hasn haven hadn wouldn shouldn couldn mustn needn won shan ain
  im ive youre youve youll youd theyre theyve theyll shes hes thats theres whos wheres hows
  dont doesnt didnt isnt arent wasnt werent hasnt havent hadnt wouldnt shouldnt couldnt mustnt neednt cant wont aint`.split(/\s+/),
);

const WORD = /[\p{L}\p{N}]+/gu;
const NOT_LETTERS = /[^\p{L}]/u;
// camelCase and PascalCase boundaries: "parseMIMEType" is parse, MIME, Type; digits stay with their letters (http2).
const CAMEL_PART = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{N}]+|\p{Lu}+[\p{N}]*|[\p{L}\p{N}]+/gu;
const HAS_CAMEL = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;
// An acronym's plural ("APIs", "URLs", "SATs") is one word, not "AP" and "Is".
const PLURAL_ACRONYM = /^\p{Lu}{2,}s$/u;
// Most words are plain lower-case ASCII: letters, no camelCase; tested without Unicode classes.
const LOWER_ASCII = /^[a-z]+$/;
const MAX_PART = 7;
const ARTICLES = new Set(['a', 'an', 'the']);

/** What one scan of a text finds; see `scanWords`. */
export interface ScannedText {
  /** Words in order, identifiers split into their parts. */
  words: string[];
  /** Adjacent words written apart, joined ("roll back": "rollback"), with the two words. */
  pairs: Array<{ joined: string; parts: [string, string] }>;
  /** Words of three or more joined by hyphens, joined whole ("end-to-end": "endtoend"). */
  chains: string[];
  /** Identifiers of several parts, whole ("parseMIMEType", "max_sockets": "maxsockets"), with their parts. */
  identifiers: Array<{ joined: string; parts: string[] }>;
}

/**
 * The words of a text in one pass, with what they make together:
 * - `pairs`: adjacent words written apart, joined, so the compound and the split form of a word
 *   meet whichever way the document and the question write it. Pairs are of letters only,
 *   apart by spaces or one hyphen, each word of up to 7 letters; a pair apart by spaces whose
 *   first word is a stop word ("the kettle") or whose second is a single letter is left out.
 * - `chains`: words of three or more joined by hyphens, joined whole.
 * - `identifiers`: a camelCase word, or words joined by `_` or `.` with no space, split into its
 *   parts (which are also `words`) and kept whole.
 */
export function scanWords(text: string): ScannedText {
  const words: string[] = [];
  const pairs: ScannedText['pairs'] = [];
  const chains: string[] = [];
  const identifiers: ScannedText['identifiers'] = [];
  let previous = '';
  let previousEnd = -1;
  let previousIsLetters = false;
  // The hyphen chain and the identifier under way, in arrays used again (a new one a word costs).
  const chain: string[] = [];
  let chainLength = 0;
  const name: string[] = [];
  let nameLength = 0;
  const endChain = (): void => {
    if (chainLength >= 3) chains.push(chain.slice(0, chainLength).join(''));
  };
  const endName = (): void => {
    if (nameLength < 2) return;
    const parts = name.slice(0, nameLength);
    identifiers.push({ joined: parts.join(''), parts });
  };
  // Most of a text is ASCII: its words are read by character codes here; a word with any other
  // character (or the next word, from one) is read with WORD, which says what a word is.
  const n = text.length;
  for (let at = 0; at < n; ) {
    let start = -1;
    for (; at < n; at++) {
      const c = text.charCodeAt(at);
      if (c >= 128 || isAsciiLetterOrDigit(c)) break;
    }
    if (at >= n) break;
    let end = at;
    let lowerAscii = true;
    let hasDigit = false;
    let ascii = text.charCodeAt(at) < 128;
    if (ascii) {
      start = at;
      for (; end < n; end++) {
        const c = text.charCodeAt(end);
        if (c >= 97 && c <= 122) continue;
        if (c >= 48 && c <= 57) hasDigit = true;
        else if (!(c >= 65 && c <= 90)) {
          ascii = c < 128;
          break;
        }
        lowerAscii = false;
      }
    }
    let word: string;
    if (ascii) word = text.slice(start, end);
    else {
      WORD.lastIndex = start >= 0 ? start : at;
      const match = WORD.exec(text);
      if (!match) break;
      word = match[0];
      start = match.index;
      end = start + word.length;
      lowerAscii = LOWER_ASCII.test(word);
    }
    at = end;
    const isLetters = lowerAscii || (ascii ? !hasDigit : !NOT_LETTERS.test(word));
    // What separates it from the word before, by its length and first two characters.
    const gap = previousEnd < 0 ? -1 : start - previousEnd;
    const g0 = gap > 0 ? text.charCodeAt(previousEnd) : 0;
    const hyphen = gap === 1 && (g0 === 0x2d || g0 === 0x2010 || g0 === 0x2011);
    if (previousIsLetters && isLetters && previous.length <= MAX_PART && word.length <= MAX_PART) {
      const apart = word.length > 1 && gap > 0 && onlySpaces(text, previousEnd, start) && !STOP_WORDS.has(previous.toLowerCase());
      if (apart || hyphen) pairs.push({ joined: previous + word, parts: [previous, word] });
    }
    if (!hyphen) {
      endChain();
      chainLength = 0;
    }
    chain[chainLength++] = word;
    const camel = !lowerAscii && (ascii ? asciiCamel(text, start, end) : HAS_CAMEL.test(word)) && !PLURAL_ACRONYM.test(word);
    // `_` and `.` inside a name (`max_sockets`, `fs.watch`, `FST_ERR_NOT_FOUND`), or `__`, join its parts into one identifier.
    const joint = (gap === 1 && (g0 === 0x5f || g0 === 0x2e)) || (gap === 2 && g0 === 0x5f && text.charCodeAt(previousEnd + 1) === 0x5f);
    if (!joint) {
      endName();
      nameLength = 0;
    }
    if (camel) {
      for (const part of word.match(CAMEL_PART)!) {
        name[nameLength++] = part;
        words.push(part);
      }
    } else {
      name[nameLength++] = word;
      words.push(word);
    }
    previous = word;
    previousEnd = end;
    previousIsLetters = isLetters;
  }
  endChain();
  endName();
  return { words, pairs, chains, identifiers };
}

function isAsciiLetterOrDigit(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

/** Whether `text` from `from` to `to` is spaces and tabs, at least one. */
function onlySpaces(text: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}

/** HAS_CAMEL for an ASCII word: a lower-case letter before a capital, or two capitals before a lower-case letter. */
function asciiCamel(text: string, start: number, end: number): boolean {
  for (let i = start; i < end - 1; i++) {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    if (a >= 97 && a <= 122 && b >= 65 && b <= 90) return true;
    if (a >= 65 && a <= 90 && b >= 65 && b <= 90 && i + 2 < end) {
      const c = text.charCodeAt(i + 2);
      if (c >= 97 && c <= 122) return true;
    }
  }
  return false;
}

// Most words of a knowledge base recur: stemming each form once saves most of the indexing time.
const processed = new Map<string, string | null>();
const MAX_PROCESSED = 500_000;

/** Lower-cases, drops stop words and one-letter words, and stems (Porter), so "booking" and "booked" meet at "book". */
export function processTerm(term: string): string | null {
  const known = processed.get(term);
  if (known !== undefined) return known;
  const lower = term.toLowerCase();
  const result = lower.length < 2 || STOP_WORDS.has(lower) ? null : stem(lower);
  if (processed.size >= MAX_PROCESSED) processed.clear();
  processed.set(term, result);
  return result;
}

/** The Porter stem of a lower-case word; stems need not be words, as the index and the question go through the same function. */
export function stem(word: string): string {
  return /\d/.test(word) ? word : stemmer(word);
}

/** The terms of a text's words (identifier parts included), in order, repeats kept. */
function wordTerms(scanned: ScannedText, into: string[]): string[] {
  for (const word of scanned.words) {
    const term = processTerm(word);
    if (term) into.push(term);
  }
  return into;
}

/** The terms of what a text joins: compounds written apart, hyphen chains, whole identifiers. */
function joinedTerms(scanned: ScannedText, into: string[]): string[] {
  for (const { parts } of scanned.pairs) into.push(joinTerm(parts));
  for (const chain of scanned.chains) push(into, chain);
  for (const { parts } of scanned.identifiers) into.push(joinTerm(parts));
  return into;
}

/**
 * The term of words written joined: lower case, the last word stemmed ("roll backs" and
 * `rollBack` are "rollback", "log in" is "login"). Only the last word is stemmed, as a word of
 * its own, so joining costs no stemming of the joined string: a folder holds millions of pairs.
 */
export function joinTerm(parts: readonly string[]): string {
  let joined = '';
  for (let i = 0; i < parts.length - 1; i++) joined += parts[i]!.toLowerCase();
  const last = parts[parts.length - 1]!;
  return joined + (processTerm(last) ?? last.toLowerCase());
}

function push(into: string[], word: string): void {
  const term = processTerm(word);
  if (term) into.push(term);
}

/**
 * The terms of a text as retrieval matches them: its words' terms, then what it joins
 * (compounds written apart, hyphen chains, whole identifiers), repeats kept.
 */
export function analyze(text: string): string[] {
  const scanned = scanWords(text);
  return joinedTerms(scanned, wordTerms(scanned, []));
}

/** A passage's terms per field, in order: the index holds each field as a column. */
export interface PassageTerms {
  title: string[];
  headings: string[];
  /** Names written as code in the passage (inline code spans and headings' code). */
  code: string[];
  body: string[];
  /** Compounds, chains and whole identifiers of all the other fields but the path. */
  joined: string[];
  /** The words of the document's path in the folder (`runtime/http/server.mdx`: runtime, http, server), identifiers split and whole. */
  path: string[];
}

/** The fields of a passage, in the order the index's lengths are kept. */
export const FIELDS = ['title', 'headings', 'code', 'body', 'joined', 'path'] as const;
export type Field = (typeof FIELDS)[number];

const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;

/** A passage's fields, analysed. */
export function passageTerms(title: string, headings: readonly string[], markdown: string, path = '', origin?: string): PassageTerms {
  const joined: string[] = [];
  const column = (text: string): string[] => {
    const scanned = scanWords(text);
    joinedTerms(scanned, joined);
    return wordTerms(scanned, []);
  };
  const heading = headings.join('\n');
  const code: string[] = [];
  for (const source of [heading, proseOf(markdown)]) for (const match of source.matchAll(CODE_SPAN)) code.push(match[2]!);
  return {
    title: column(title),
    headings: column(mapped(headings, plainHeading).join('\n')),
    code: wordTerms(scanWords(code.join('\n')), []),
    body: column(withoutOwnOrigin(markdown, origin)),
    joined,
    path: pathTerms(path),
  };
}

/**
 * A passage's fields as the index stores them for scoring: one field a line in the order of
 * `FIELDS`, each its distinct terms apart by spaces, in order of first use, a term used more
 * than once followed by `:` and its count (`socket:3`). Retrieval scores its candidates from
 * this, so a question analyses no passage again.
 */
export function storedTerms(terms: PassageTerms): string {
  return mapped(FIELDS, (field) => {
    const counts = new Map<string, number>();
    for (const term of terms[field]) counts.set(term, (counts.get(term) ?? 0) + 1);
    let line = '';
    for (const [term, n] of counts) line += `${line ? ' ' : ''}${term}${n > 1 ? `:${n}` : ''}`;
    return line;
  }).join('\n');
}

/** A passage's fields from `storedTerms`, each as written there. */
export function storedFields(stored: string): Record<Field, string> {
  const lines = stored.split('\n');
  return Object.fromEntries(mapped(FIELDS, (field, i) => [field, lines[i] ?? ''])) as Record<Field, string>;
}

/**
 * A stored field (`storedTerms`) as full-text column text: each term as many times as it was
 * used, so FTS5's BM25 sees the same term frequencies and field length as the passage's own.
 */
export function fieldText(field: string): string {
  if (!field.includes(':')) return field;
  return field
    .split(' ')
    .map((entry) => {
      const colon = entry.indexOf(':');
      return colon < 0 ? entry : Array<string>(Number(entry.slice(colon + 1))).fill(entry.slice(0, colon)).join(' ');
    })
    .join(' ');
}

const SPACE = 32;
const COLON = 58;

/**
 * How many times a stored field (`storedTerms`) holds `form`, or with `prefix` terms beginning
 * with it: found with `indexOf`, no splitting, as it runs for every candidate and term of a
 * question.
 */
export function countTerm(field: string, form: string, prefix = false): number {
  let n = 0;
  for (let at = field.indexOf(form); at >= 0; at = field.indexOf(form, at + form.length)) {
    if (at > 0 && field.charCodeAt(at - 1) !== SPACE) continue;
    let end = at + form.length;
    if (prefix) while (end < field.length && field.charCodeAt(end) !== SPACE && field.charCodeAt(end) !== COLON) end++;
    if (end === field.length || field.charCodeAt(end) === SPACE) n++;
    else if (field.charCodeAt(end) === COLON) {
      let count = 0;
      for (let i = end + 1; i < field.length && field.charCodeAt(i) !== SPACE; i++) count = count * 10 + field.charCodeAt(i) - 48;
      n += count;
    }
  }
  return n;
}

/**
 * The terms of a document's path, its extension left out (a Markdown or a built HTML page's: the
 * same page either way): its words, and its names whole (`MockAgent.md`, `MockAgent.html`: mock,
 * agent, mockagent).
 */
function pathTerms(path: string): string[] {
  const scanned = scanWords(path.replace(/\.(?:mdx?|html?)$/i, ''));
  const terms = wordTerms(scanned, []);
  for (const { parts } of scanned.identifiers) terms.push(joinTerm(parts));
  return terms;
}

// A link's destination's scheme and host, `](https://undici.nodejs.org`, or a link reference definition's, `[id]: https://host`.
const LINK_ORIGIN = /(\]\(\s*<?|^ {0,3}\[[^\]\n]+\]:[ \t]*<?)([a-z][a-z0-9+.-]*:\/\/[^/?#\s)>]*)/gim;

/**
 * Markdown whose links to its own site (`origin`: `https://undici.nodejs.org`) are written as
 * from the site's root, as a relative link is: the words of a link's path name the page it goes
 * to, but a built page's absolute links would make its site's name and domain words of every
 * passage holding one. Code is left as written.
 */
function withoutOwnOrigin(markdown: string, origin: string | undefined): string {
  if (!origin || !markdown.includes('://')) return markdown;
  return mapOutsideFences(markdown, (prose) => prose.replace(LINK_ORIGIN, (link, before: string, target: string) => (target.toLowerCase() === origin ? before : link)));
}

/** The lines of Markdown outside fenced code blocks. */
function proseOf(markdown: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (marker) {
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      continue;
    }
    if (fence === undefined) out.push(line);
  }
  return out.join('\n');
}

/** A question's words as retrieval looks for them. */
export interface QuestionTerms {
  /** The question's own terms, each once, in order. */
  terms: string[];
  /**
   * Ways the question's adjacent words may be written joined (as a compound or an identifier:
   * "parse MIME type" may be `parseMIMEType`), each with the terms it stands for; retrieval keeps
   * those the knowledge base holds.
   */
  joins: Array<{ term: string; covers: string[] }>;
  /** Each term's words as the question writes them, lower case ("terminal" for "termin"). */
  written: ReadonlyMap<string, readonly string[]>;
}

/** Analyses a question: its terms, and the joined forms its adjacent words may take in the documents. */
export function questionTerms(question: string): QuestionTerms {
  const scanned = scanWords(question);
  const terms = [...new Set(wordTerms(scanned, []))];
  const written = new Map<string, string[]>();
  for (const word of scanned.words) {
    const term = processTerm(word);
    const lower = word.toLowerCase();
    if (!term) continue;
    const words = written.get(term);
    if (!words) written.set(term, [lower]);
    else if (!words.includes(lower)) words.push(lower);
  }
  const joins = new Map<string, string[]>();
  const add = (words: string[]): void => {
    // Single letters ("do I parse") make no name.
    if (words.some((word) => word.length < 2)) return;
    const term = joinTerm(words);
    const covers = mapped(words, processTerm).filter((t): t is string => Boolean(t));
    if (covers.length && !terms.includes(term) && !joins.has(term)) joins.set(term, [...new Set(covers)]);
  };
  // Runs of two and three adjacent words, whatever separates them, stop words included
  // ("get cookies" may be `getCookies`) but not articles ("parse a MIME type" may be
  // `parseMIMEType`): only those the documents hold are used.
  const words = scanned.words.filter((word) => !ARTICLES.has(word.toLowerCase()));
  for (let i = 0; i < words.length; i++) {
    if (i + 1 < words.length) add(words.slice(i, i + 2));
    if (i + 2 < words.length) add(words.slice(i, i + 3));
  }
  for (const { parts } of scanned.identifiers) if (parts.length > 3) add(parts);
  return { terms, joins: mapped([...joins], ([term, covers]) => ({ term, covers })), written };
}
