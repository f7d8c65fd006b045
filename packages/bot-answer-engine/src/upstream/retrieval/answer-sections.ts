import { answerType, typedTerms } from '../compose/answer-type.js';
import { cleanMarkdown } from '../folder/clean-markdown.js';
import type { Passage } from '../folder/knowledge-base.js';
import type { KbIndex } from '../index/kb-index.js';
import { analyze } from './analyzer.js';
import { COMMON_SHARE } from './idf.js';
import { mapped } from './mapped.js';
import type { SearchHit } from './search-hit.js';
import type { RetrievalSettings } from './settings.js';
import { holdsNumber } from './terms.js';

// The first page's quoted sections this short in all leave the answer room for the page's next section (`shortSection`).
const SHORT_SECTIONS_CHARS = 300;
// A number a question writes, standing alone ("16", "5.5", "130" of "130g/km").
const QUESTION_NUMBER = /(?<![\p{L}\p{N}.])\d+(?:\.\d+)*(?![\p{N}]|\.\d)/gu;

/** A passage's Markdown cleaned (`cleanMarkdown`), each passage cleaned once for one answer. */
type Cleaned = (passage: Passage) => string;

/** A `Cleaned` for one answer: the rules after ranking read the first page's passages more than once. */
function cleanedOnce(): Cleaned {
  const known = new Map<number, string>();
  return (passage) => {
    let text = known.get(passage.index);
    if (text === undefined) {
      text = cleanMarkdown(passage.markdown);
      known.set(passage.index, text);
    }
    return text;
  };
}

/** Whether a passage's own heading or text (not the headings above it) holds one of `asked`, analysed as the question is. */
function holdsOwnWord(passage: Passage, asked: ReadonlySet<string>, cleaned: Cleaned): boolean {
  return analyze(`${passage.headings[passage.headings.length - 1] ?? ''}\n${cleaned(passage)}`).some((term) => asked.has(term));
}

/** The hits of the first hit's page among `read` (they come first, together). */
function firstPage(read: SearchHit[]): SearchHit[] {
  const page = read[0]?.passage.document.index;
  return read.filter((hit) => hit.passage.document.index === page);
}

/** `read` with `found` after its first page's hits, linked as itself. */
function afterFirstPage(read: SearchHit[], found: SearchHit): SearchHit[] {
  const ofPage = firstPage(read);
  return [...ofPage, found, ...read.slice(ofPage.length)];
}

/** `read` with the first of the page's other candidates (best first) not quoted yet that `takes`, after the first page's hits; `read` when none does. */
function withSamePage(read: SearchHit[], samePage: SearchHit[], takes: (hit: SearchHit) => boolean): SearchHit[] {
  const shown = new Set(read.map((hit) => hit.passage.index));
  const found = samePage.find((hit) => !shown.has(hit.passage.index) && takes(hit));
  return found ? afterFirstPage(read, found) : read;
}

/**
 * The first hit's subsections among `samePage` (its page's other candidates, best first) whose
 * own heading or text holds a word of the question (`asked`, its analysed words but the frame's;
 * not only the headings above them), at most `subsections`, right after it and linked as it is.
 */
function withSubsections(read: SearchHit[], samePage: SearchHit[], asked: ReadonlySet<string>, cleaned: Cleaned, settings: RetrievalSettings): SearchHit[] {
  const [first, ...rest] = read;
  if (!first || samePage.length === 0) return read;
  const { headings, url } = first.passage;
  const below: SearchHit[] = [];
  // Best first, each analysed only when under the section, until enough are found.
  for (const hit of samePage) {
    if (below.length >= settings.subsections) break;
    const { passage } = hit;
    if (passage.headings.length <= headings.length || !headings.every((heading, i) => passage.headings[i] === heading)) continue;
    if (holdsOwnWord(passage, asked, cleaned)) below.push({ ...hit, passage: { ...passage, url } });
  }
  return [first, ...below, ...rest];
}

/**
 * For a question asking for a figure (`answerType`: "how much", "how long", "when"), or else
 * for a name in code (`codeSection`: a code span, a flag), the first
 * of its page's other candidates (best first) whose units stating one hold a word of the
 * question that no such unit of the page's passages quoted holds (`typedTerms`): the section
 * with the figure beside the question's words. It comes after the first page's passages,
 * linked as itself, and only while the answer cites fewer passages than it may, so no other
 * page loses its place among the sources.
 */
function withTypedSection(read: SearchHit[], samePage: SearchHit[], question: string, asked: ReadonlySet<string>, cleaned: Cleaned, settings: RetrievalSettings): SearchHit[] {
  const type = answerType(question) ?? (settings.codeSection ? 'code' : undefined);
  const [first] = read;
  if (!type || !first || samePage.length === 0 || read.length >= settings.maxPassages) return read;
  const ofPage = firstPage(read);
  const have = new Set(ofPage.flatMap((hit) => [...typedTerms(type, hit.passage.markdown, asked, cleaned(hit.passage))]));
  // A candidate's typed units must hold a word asked that the quoted ones lack: with none left, none can.
  const lacking = new Set([...asked].filter((term) => !have.has(term)));
  if (lacking.size === 0) return read;
  return withSamePage(read, samePage, (hit) => typedTerms(type, hit.passage.markdown, lacking, cleaned(hit.passage)).size > 0);
}

/**
 * When the first page's quoted sections are short (`SHORT_SECTIONS_CHARS` of cleaned text in
 * all), its best other candidate not quoted yet, scoring at least `shortSection` of the first
 * passage, whose own heading or text holds a word of the question (`asked`; not only the
 * headings above it, as for `subsections`): it comes after the first page's passages, linked
 * as itself, while the answer cites fewer passages than it may, or whatever it cites under
 * `shortSectionFull`: no other page loses its place among the sources.
 */
function withShortSection(read: SearchHit[], samePage: SearchHit[], asked: ReadonlySet<string>, cleaned: Cleaned, settings: RetrievalSettings): SearchHit[] {
  const share = settings.shortSection;
  const [first] = read;
  // An answer citing all it may takes the section only under `shortSectionFull`, at its share.
  const full = read.length >= settings.maxPassages;
  const bar = full ? (settings.shortSectionFull > 0 ? Math.max(share, settings.shortSectionFull) : Infinity) : share;
  if (share <= 0 || !first || samePage.length === 0 || bar === Infinity) return read;
  const length = firstPage(read).reduce((sum, hit) => sum + cleaned(hit.passage).length, 0);
  if (length >= SHORT_SECTIONS_CHARS) return read;
  // Best first, each analysed only when it scores enough, until one holds a word of the question itself.
  return withSamePage(read, samePage, ({ passage, score }) => score >= first.score * bar && holdsOwnWord(passage, asked, cleaned));
}

/**
 * For a question writing a number that no quoted section of the first page holds in its own
 * heading or text, that page's best other candidate not quoted yet holding it, scoring at least
 * `numberSection` of the first passage: after the first page's passages, linked as itself.
 */
function withNumberSection(read: SearchHit[], samePage: SearchHit[], question: string, cleaned: Cleaned, settings: RetrievalSettings): SearchHit[] {
  const share = settings.numberSection;
  const [first] = read;
  if (share <= 0 || !first || samePage.length === 0) return read;
  if (read.length >= settings.maxPassages && !settings.numberSectionFull) return read;
  const numbers = [...new Set(mapped([...question.matchAll(QUESTION_NUMBER)], (match) => match[0]))];
  if (!numbers.length) return read;
  const own = (passage: Passage): string => `${passage.headings[passage.headings.length - 1] ?? ''}\n${cleaned(passage)}`;
  const quoted = mapped(firstPage(read), (hit) => own(hit.passage));
  const lacking = numbers.filter((number) => !quoted.some((text) => holdsNumber(text, number)));
  if (!lacking.length) return read;
  return withSamePage(read, samePage, ({ passage, score }) => score >= first.score * share && lacking.some((number) => holdsNumber(own(passage), number)));
}

/**
 * The first page's best other candidate not quoted yet whose own heading holds a telling word
 * of the question that no quoted section of the page holds in its own heading, scoring at least
 * `headedSection` of the first passage, its cleaned text at most `headedSectionChars`.
 */
function withHeadedSection(read: SearchHit[], samePage: SearchHit[], asked: ReadonlySet<string>, cleaned: Cleaned, settings: RetrievalSettings, index: KbIndex): SearchHit[] {
  const share = settings.headedSection;
  const [first] = read;
  if (share <= 0 || !first || samePage.length === 0 || (read.length >= settings.maxPassages && !settings.headedSectionFull)) return read;
  const headed = (passage: Passage): string[] => analyze(passage.headings[passage.headings.length - 1] ?? '');
  const have = new Set(firstPage(read).flatMap((hit) => headed(hit.passage)));
  const count = index.passages;
  const lacking = new Set([...asked].filter((term) => !have.has(term) && index.documentFrequency(term) <= count * COMMON_SHARE));
  if (!lacking.size) return read;
  return withSamePage(read, samePage, ({ passage, score }) => score >= first.score * share && headed(passage).some((term) => lacking.has(term)) && (settings.headedSectionChars <= 0 || cleaned(passage).length <= settings.headedSectionChars));
}

/**
 * The sections an answer quotes from its first page beyond the passages ranked: `read` (the
 * decision's hits, with their passages) with, after the first page's, its subsections, its
 * section stating the figure or code asked for, the section beside a short one, the section
 * holding a number asked and the section headed by a telling word asked, each as its setting
 * allows. `samePage`: the first page's other candidates, best first; `asked`: the question's
 * analysed words but the frame's. Each passage is cleaned once however many rules read it.
 */
export function withAnswerSections(read: SearchHit[], samePage: SearchHit[], question: string, asked: ReadonlySet<string>, index: KbIndex, settings: RetrievalSettings): SearchHit[] {
  const cleaned = cleanedOnce();
  let hits = withSubsections(read, samePage, asked, cleaned, settings);
  hits = withTypedSection(hits, samePage, question, asked, cleaned, settings);
  hits = withShortSection(hits, samePage, asked, cleaned, settings);
  hits = withNumberSection(hits, samePage, question, cleaned, settings);
  return withHeadedSection(hits, samePage, asked, cleaned, settings, index);
}
