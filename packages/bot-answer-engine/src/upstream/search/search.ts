import type { SearchResult } from '../../../../bot-answer/src/protocol/search.js';
import type { LinkDefinitions } from '../folder/clean-markdown.js';
import { plainHeading } from '../folder/markdown-text.js';
import type { ColumnWeights, FullTextTable, KbIndex } from '../index/kb-index.js';
import { countTerm, FIELDS, processTerm, storedFields, type Field } from '../retrieval/analyzer.js';
import { englishRarity } from '../retrieval/english.js';
import { idf } from '../retrieval/idf.js';
import { docsForm } from '../retrieval/docs-form.js';
import { DEFAULT_RETRIEVAL } from '../retrieval/settings.js';
import { plainText } from './plain-text.js';
import { matchesForm, typedWords, type TermForm, type TypedWord } from './query.js';
import { snippetFor } from './snippet.js';

/**
 * Candidates read from each full-text query: the sections whose heading path holds every typed
 * word (the title weighing most, so no query of the titles alone: it found no other page and cost
 * a query's fixed part, counting every typed term's passages), those whose text does, and (for
 * each word) those whose heading path, then text, holds all the others, and when few hold all
 * but one, each word's own (`single`: more than `mixed`, as one word matches more sections and
 * the right one is often not among its first 10); the best by BM25 among the first `SCAN`
 * matches, so a query costs no more in a large folder than in a small one (ranking reads every
 * match).
 */
const CANDIDATES = { headings: 60, body: 30, mixed: 10, single: 20 };
const SCAN = 400;
/**
 * Sections holding every typed word below which the search widens to those holding all but one
 * (their texts too), and sections holding all but one below which it widens to those holding
 * fewer: a few typed words of a question often hold one the docs do not use ("long take drippi").
 * A number of its own, not the results' `limit`, so the order of the hits does not depend on how many are asked for.
 */
const ENOUGH = 10;
/**
 * A word being typed begins this many letters at least before the bodies are searched by its
 * beginning (the heading paths always are; a shorter one is looked up there as a word): FTS5
 * reads every body term a prefix begins whole, which in a large folder costs most of a search
 * for a short one ("fas": fastify, in every page).
 */
const BODY_PREFIX = 4;
/**
 * In the bodies, a word being typed matches the most frequent terms it begins, this many, rather than
 * every one: FTS5 merges the lists of every term a prefix query begins before reading any, which for a
 * beginning of a word in most passages ("fasti": fastify) costs most of a search in a large folder; the
 * terms' own lists are read only as far as the candidates need. Candidates only: scoring counts every
 * term a typed beginning begins.
 */
const BODY_EXPANSIONS = 8;
/** A match in the heading path (title, headings, path) weighs this much more than one in the body. */
const HEADING_BOOST = 3;
/** Share of the scores of a section's page's other matching sections it gains (as answers weigh pages: RetrievalSettings.pageWeight). */
const PAGE_WEIGHT = DEFAULT_RETRIEVAL.pageWeight;
/** Share of a typed word's weight a section covers when only another matching section of its page holds the word. */
const PAGE_COVER = 0.5;
/** `englishRarity` of a word of average frequency in English (Zipf 4): a word being typed, or a number, weighs this much. */
const TYPED_ENGLISH_RARITY = 3;
const K1 = 1.2;
const B = 0.75;
/**
 * BM25's length normalisation (its b) for the heading path, more than the body's: a long heading
 * path (a generated reference's type page under a long path, a section deep under long headings)
 * saying a typed word once is less about it than a short title saying the same word.
 */
const HEADING_B = 0.95;
/**
 * Share a section's rank gains when its page's title is all typed words ("Button" for "button stretches full"),
 * a part of it for a title partly typed: a page whose whole title the visitor typed is about what they typed,
 * where a long title holding the same words is about more (a twin's, an API page's).
 */
const TITLE_BONUS = 0.25;
/** Markdown characters a snippet is made from, and most of them before the first typed word. */
const EXCERPT_CHARS = 600;
const EXCERPT_LEAD = 200;
const HEADING_FIELDS: readonly Field[] = ['title', 'headings', 'path'];
const BODY_FIELDS: readonly Field[] = ['code', 'body', 'joined'];
const WEIGHTS: ColumnWeights = DEFAULT_RETRIEVAL.weights;
/**
 * The column weights a candidate is scored with: the retrieval's, but a word written as code
 * (`zorbling`, counted in the body too) adding half a word, not one and a half: a visitor types
 * the words a page is about, and a page naming an option as code is often not the page about it.
 */
const SCORE_WEIGHTS: ColumnWeights = { ...WEIGHTS, code: 0.5 };

/**
 * Search as you type over a knowledge base's on-disk index: the sections holding the typed
 * words (in their heading path or their text), the last one as the beginning of a word, a whole
 * one the index lacks as answers read it (`withDocsForm`; a misspelling the stem hides too with
 * `misspeltWords`, as `RetrievalSettings` has it): those
 * holding every word, those holding all but one, and when few do, those holding fewer; each
 * page's best section before a page's other sections, a copy of a section of another page shown
 * before left out; at most `limit`, one result per section.
 * Candidates come from SQLite FTS5 (prefix queries, BM25 over the heading path's and the
 * body's tables); each is scored over its stored terms (BM25 with the retrieval's column
 * weights, a word written as code weighing less), a match in the title or headings weighing more than one in the text, and ranked by
 * its score times the square of the share of the typed words' weight (rarity in the docs and in
 * English; the word being typed by the share of pages holding it) it covers, the first sections
 * gaining more the closer together their text says the typed words. A result
 * names the page and section, links where answers cite it, and shows plain text around the
 * matched words with their ranges.
 */
export function searchSections(index: KbIndex, text: string, limit: number, misspeltWords = DEFAULT_RETRIEVAL.misspeltWords): SearchResult[] {
  return index.read(() => {
    const typed = typedWords(text, (term) => index.documentFrequency(term) > 0);
    if (typed.length === 0 || index.passages === 0) return [];
    for (const word of typed) withDocsForm(index, word, misspeltWords);
    const ranked = rank(index, typed);
    const results: SearchResult[] = [];
    const seen = new Set<string>();
    for (let at = 0; at < ranked.length && results.length < limit; at += limit) {
      for (const passage of index.passagesById(ranked.slice(at, at + limit))) {
        const title = [passage.document.source.title, ...passage.headings.map(plainHeading)].join(' › ');
        const key = `${passage.url}\u0000${title}`;
        if (seen.has(key) || results.length >= limit) continue;
        seen.add(key);
        results.push({ title, url: passage.url, ...snippetFor(excerptText(excerptAround(passage.markdown, typed), passage.document.links), typed) });
      }
    }
    return results;
  });
}

/**
 * A whole typed word no passage holds, read as answers read it: the docs often write the same
 * word another way ("practise": practice, "statuses": status, "complain": complaint) or longer
 * ("deliver": delivery, "track": tracker), and a misspelling the stem hides is the word meant
 * ("chnage": change), so it also matches the form answers read (`docsForm`).
 * Its weight is left as a word the docs lack.
 */
function withDocsForm(index: KbIndex, word: TypedWord, misspeltWords: boolean): void {
  const term = word.forms[0]!.form;
  if (word.partial || index.documentFrequency(term) > 0) return;
  const docs = docsForm(index, term, misspeltWords && word.written ? [word.written] : []);
  if (docs) word.forms.push(docs);
}

/** Plain text of the excerpts shown last, by their Markdown: a word typed letter by letter shows the same sections again. */
const recentTexts = new Map<string, string>();
const RECENT_TEXTS = 256;

/** `plainText` of an excerpt, remembered for the excerpts shown last (those of a page without link definitions, which the text alone decides). */
function excerptText(markdown: string, links: LinkDefinitions | undefined): string {
  if (links?.size) return plainText(markdown, links);
  let text = recentTexts.get(markdown);
  if (text === undefined) {
    text = plainText(markdown);
    if (recentTexts.size >= RECENT_TEXTS) recentTexts.delete(recentTexts.keys().next().value!);
  } else recentTexts.delete(markdown);
  recentTexts.set(markdown, text);
  return text;
}

/**
 * The part of a section's Markdown a snippet can come from: all of a short one; of a long one,
 * from the paragraph of the first place that may hold a typed word (a form found in its text),
 * `EXCERPT_CHARS` long, so a long section costs no more to show than a short one.
 */
export function excerptAround(markdown: string, typed: readonly TypedWord[]): string {
  if (markdown.length <= EXCERPT_CHARS) return markdown;
  const lower = markdown.toLowerCase();
  let first = lower.length;
  for (const word of typed) for (const { form } of word.forms) {
    const at = lower.indexOf(form);
    if (at >= 0 && at < first) first = at;
  }
  if (first === lower.length) return markdown.slice(0, EXCERPT_CHARS);
  const paragraph = markdown.lastIndexOf('\n\n', first);
  const line = markdown.lastIndexOf('\n', first);
  const from = paragraph >= 0 && first - paragraph <= EXCERPT_LEAD ? paragraph + 2 : line + 1;
  return markdown.slice(from, from + EXCERPT_CHARS);
}

/**
 * The FTS5 expression of one typed word: any of its forms. In the bodies, a short beginning of a word
 * is a word of its own, and a longer one its `BODY_EXPANSIONS` most frequent terms (`expand`).
 */
function expression(forms: readonly TermForm[], table: FullTextTable, expand: (prefix: string) => string[]): string {
  const terms = forms.flatMap(({ form, prefix }) =>
    !prefix ? [`"${form}"`] : table === 'headings' ? [`"${form}"*`] : form.length >= BODY_PREFIX ? expand(form).map((term) => `"${term}"`) : [`"${form}"`],
  );
  return `(${[...new Set(terms)].join(' OR ')})`;
}

/** A candidate scored: which typed words it holds, and how well. */
interface Scored {
  id: number;
  docId: number;
  matched: number;
  /** Whether it holds each typed word, in order. */
  held: boolean[];
  score: number;
  /** Share of its page's title terms that are typed words. */
  titleTyped: number;
  place: string;
  /** Its text's terms as stored (code and body), to know a copy of another section's text. */
  text: string;
}

/**
 * Ids of the sections holding the typed words, best first: those holding every word, and when
 * fewer than `ENOUGH` do, those holding all but one (a question's words typed as they come:
 * "spend hotels meal" has a word no page holds); when fewer than `ENOUGH` hold all but one,
 * those holding fewer ("sure tests neve": only "tests" is the docs' word), from each word's best
 * candidates. Ranked by score times the square of the share of the words' weight (their rarity
 * in the docs, the word being typed's over pages, times their rarity in English) a section covers, a word held only by another matching section of its page counting
 * `PAGE_COVER`: a section holding a rare word goes before one holding two common ones; a section
 * of a page whose title is typed words gains up to `TITLE_BONUS`; of the first `NEAR_RANKED`, a
 * section saying the typed words close together gains up to `NEAR_BONUS`.
 */
function rank(index: KbIndex, typed: TypedWord[]): number[] {
  const expansions = new Map<string, string[]>();
  const expand = (prefix: string): string[] => {
    let terms = expansions.get(prefix);
    if (!terms) expansions.set(prefix, (terms = index.termsBeginning(prefix, BODY_EXPANSIONS).map(({ term }) => term)));
    // A beginning no term of the bodies has: itself, which matches nothing (the heading paths may hold it).
    return terms.length > 0 ? terms : [prefix];
  };
  const query = (words: TypedWord[], table: FullTextTable): string => words.map((word) => expression(word.forms, table, expand)).join(' AND ');
  const rest = (left: TypedWord, table: FullTextTable): string => query(typed.filter((word) => word !== left), table);
  const best = (table: FullTextTable, match: string, limit: number): number[] => index.matchAmong(table, match, WEIGHTS, limit, SCAN).map((hit) => hit.id);
  const lists = [best('headings', query(typed, 'headings'), CANDIDATES.headings), best('body', query(typed, 'body'), CANDIDATES.body)];
  const leftOut = typed.length > 1 ? typed : [];
  for (const left of leftOut) lists.push(best('headings', rest(left, 'headings'), CANDIDATES.mixed));
  // A word's rarity (BM25's idf) weighs its matches; a word being typed weighs as a word of average rarity.
  const idf = typed.map((word) => rarity(index, word));
  const score = scorer(index, typed, idf);
  // What a section covers weighs each word by how telling it is, as answers do: its rarity in the docs times its rarity in English
  // (the word being typed, by the pages holding it: a word most pages use tells little, however few of their sections say it).
  const weights = typed.map((word, w) => (word.partial ? typingRarity(index, word, idf[w]!) : idf[w]!) * tellingInEnglish(index, word));
  const scored = score([...new Set(lists.flat())]);
  if (scored.filter((hit) => hit.matched === typed.length).length < ENOUGH && leftOut.length > 0) {
    const seen = new Set(scored.map((hit) => hit.id));
    const more = leftOut.flatMap((left) => best('body', rest(left, 'body'), CANDIDATES.mixed));
    scored.push(...score([...new Set(more)].filter((id) => !seen.has(id))));
  }
  let least = Math.max(1, typed.length - 1);
  // Few sections hold all the words but one ("long take drippi", "sure tests neve"): those holding fewer too, each word's best heading paths, then texts.
  if (least > 1 && scored.filter((hit) => hit.matched >= least).length < ENOUGH) {
    const seen = new Set(scored.map((hit) => hit.id));
    const more = typed.flatMap((word) => [...best('headings', query([word], 'headings'), CANDIDATES.single), ...best('body', query([word], 'body'), CANDIDATES.single)]);
    scored.push(...score([...new Set(more)].filter((id) => !seen.has(id))));
    least = scored.some((hit) => hit.matched >= least) ? least - 1 : 1;
  }
  const kept = scored.filter((hit) => hit.matched >= least);
  // A page that matches has more than one section that does: each section gains a share of its page's others, as answers weigh them.
  const byPage = new Map<number, { score: number; held: boolean[] }>();
  for (const hit of kept) {
    const page = byPage.get(hit.docId);
    if (page) {
      page.score += hit.score;
      for (const [w, held] of hit.held.entries()) page.held[w] ||= held;
    } else byPage.set(hit.docId, { score: hit.score, held: [...hit.held] });
  }
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const rankOf = new Map<Scored, number>();
  for (const hit of kept) {
    const page = byPage.get(hit.docId)!;
    let covered = 0;
    for (const [w, weight] of weights.entries()) covered += hit.held[w] ? weight : page.held[w] ? PAGE_COVER * weight : 0;
    rankOf.set(hit, (hit.score + PAGE_WEIGHT * (page.score - hit.score)) * (covered / total) ** 2 * (1 + TITLE_BONUS * hit.titleTyped));
  }
  const order = (a: Scored, b: Scored): number => rankOf.get(b)! - rankOf.get(a)! || (a.place < b.place ? -1 : 1);
  kept.sort(order);
  // Of the first sections, those saying the typed words close together ("swimming lessons") go up: a tie of words held and scores
  // is most often broken by the section where they make one phrase, not one where each is said apart.
  if (typed.length > 1) {
    const top = kept.slice(0, NEAR_RANKED);
    const byId = new Map(top.map((hit) => [hit.id, hit]));
    for (const passage of index.passagesById(top.filter((hit) => hit.matched > 1).map((hit) => hit.id))) {
      const hit = byId.get(passage.index)!;
      const { near, adjacent } = nearness(passage.markdown, typed);
      rankOf.set(hit, rankOf.get(hit)! * (1 + NEAR_BONUS * near + ADJACENT_BONUS * adjacent));
    }
    top.sort(order);
    kept.splice(0, top.length, ...top);
  }
  const ranked = withoutCopies(kept);
  // Pages before more sections of a page already shown: each page's best section first, in rank order, then the others.
  const pages = new Set<number>();
  const firsts = ranked.filter((hit) => !pages.has(hit.docId) && pages.add(hit.docId));
  const shown = new Set(firsts);
  return [...firsts, ...ranked.filter((hit) => !shown.has(hit))].map((hit) => hit.id);
}

/**
 * The first sections ranked, this many, whose text is read to know which say the typed words
 * close together: more costs a search more (each one's Markdown read from the index and searched
 * for the typed words), fewer breaks fewer ties (10: one question less of the tune half).
 */
const NEAR_RANKED = 20;
/** Words apart at most (NEAR_WINDOW consecutive words, stop words counted) for typed words to be close together. */
const NEAR_WINDOW = 5;
/** Share a section's rank gains when it says every typed word within `NEAR_WINDOW` words; a part of it for some of them. */
const NEAR_BONUS = 1;
/**
 * Share a section's rank gains, beside `NEAR_BONUS`, when its text says each typed word right after
 * the one typed before it ("chat history" for "chat history stor"); a part of it for some of them:
 * words in the visitor's order, one after the other, are most often one phrase of the page's.
 */
const ADJACENT_BONUS = 1;

// A word as `scanWords` makes them, near enough: a camelCase word's parts apart ("firstName": first, Name).
const WORD = /\p{Lu}?[\p{Ll}\p{Lo}\p{Lm}\p{N}]+|\p{Lu}+/uy;
const WORDS = new RegExp(WORD.source, 'gu');
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const UPPER = /\p{Lu}/u;
const LOWER_OR_DIGIT = /[\p{Ll}\p{N}]/u;
/** Characters between two typed words beyond which they are not looked at as close together (the words between not counted). */
const NEAR_CHARS = 120;

/** Whether a word begins at a place of a text: none before it, or it begins a camelCase word's part ("Name" of "firstName"). */
function beginsWord(text: string, at: number): boolean {
  return at === 0 || !LETTER_OR_DIGIT.test(text[at - 1]!) || (UPPER.test(text[at]!) && LOWER_OR_DIGIT.test(text[at - 1]!));
}

/**
 * How close together a section's text says the typed words: `near`, the most different typed
 * words within `NEAR_WINDOW` consecutive words, beyond one, as a share of the typed words beyond
 * one (0: none two close; 1: all of them); `adjacent`, the typed words said right after the one
 * typed before them, as a share of the same. Only the words beginning with a typed word's form
 * less its last letter (a stem is a word's beginning, but for its last letter: "happi", happy) are
 * found and matched, and the words between two of them counted when they are near: the text is
 * not analysed whole.
 */
function nearness(markdown: string, typed: readonly TypedWord[]): { near: number; adjacent: number } {
  const lower = markdown.toLowerCase();
  const heads = new Set(typed.flatMap((word) => word.forms.map(({ form }) => form.slice(0, Math.max(1, form.length - 1)))));
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
      found.set(at, typed.findIndex((t) => matchesForm(t.forms, low, term)));
    }
  }
  const places = [...found].filter(([, w]) => w >= 0).sort((a, b) => a[0] - b[0]);
  // Each found word's place in words from the first, a far gap counted as a window's length.
  const count = places.map(() => 0);
  for (let i = 1; i < places.length; i++) {
    const [before, at] = [places[i - 1]![0], places[i]![0]];
    count[i] = count[i - 1]! + (at - before > NEAR_CHARS ? NEAR_WINDOW : (markdown.slice(before, at).match(WORDS)?.length ?? 0));
  }
  // Each typed word said right after the one typed before it, once however often.
  const follows = new Set<number>();
  for (let i = 1; i < places.length; i++) if (count[i]! - count[i - 1]! === 1 && places[i]![1] === places[i - 1]![1] + 1) follows.add(places[i]![1]);
  let most = 1;
  for (let i = 0; i < places.length; i++) {
    const words = new Set<number>();
    for (let j = i; j < places.length && count[j]! - count[i]! < NEAR_WINDOW; j++) words.add(places[j]![1]);
    most = Math.max(most, words.size);
  }
  return { near: (most - 1) / (typed.length - 1), adjacent: follows.size / (typed.length - 1) };
}

/**
 * Ranked sections less those whose text is the same as a section of another page ranked before
 * them (a reference page's option repeated on each command's page): a copy would take a place of
 * the first three with nothing new. A section with no text of its own (a heading alone) stays.
 */
function withoutCopies(ranked: Scored[]): Scored[] {
  const pageOf = new Map<string, number>();
  return ranked.filter((hit) => {
    if (hit.text === '\n') return true;
    const first = pageOf.get(hit.text);
    if (first === undefined) pageOf.set(hit.text, hit.docId);
    return first === undefined || first === hit.docId;
  });
}

/** Scores candidates over their stored terms: BM25 per typed word, over the heading path and the body apart, the heading path weighing more. */
function scorer(index: KbIndex, typed: TypedWord[], idf: readonly number[]): (ids: number[]) => Scored[] {
  const averages = index.averageLengths();
  const groups = [
    { fields: HEADING_FIELDS, boost: HEADING_BOOST, b: HEADING_B, average: Math.max(1, HEADING_FIELDS.reduce((sum, f) => sum + averages[f], 0)) },
    { fields: BODY_FIELDS, boost: 1, b: B, average: Math.max(1, BODY_FIELDS.reduce((sum, f) => sum + averages[f], 0)) },
  ];
  return (ids) => {
    if (ids.length === 0) return [];
    return index.scoringRows(ids).map((row) => {
      const fields = storedFields(row.terms);
      let score = 0;
      let matched = 0;
      const held = typed.map(() => false);
      for (const [w, word] of typed.entries()) {
        let wordScore = 0;
        for (const group of groups) {
          let tf = 0;
          let length = 0;
          for (const field of group.fields) {
            length += row.lengths[FIELDS.indexOf(field)] ?? 0;
            for (const { form, prefix } of word.forms) tf += SCORE_WEIGHTS[field] * countTerm(fields[field], form, prefix);
          }
          if (tf > 0) wordScore += (group.boost * idf[w]! * tf * (K1 + 1)) / (tf + K1 * (1 - group.b + (group.b * length) / group.average));
        }
        if (wordScore > 0) {
          matched++;
          held[w] = true;
        }
        score += wordScore;
      }
      return { id: row.id, docId: row.docId, matched, held, score, titleTyped: typedShare(fields.title, typed), place: `${row.path}\u0000${String(row.ord).padStart(9, '0')}`, text: `${fields.code}\n${fields.body}` };
    });
  };
}

/** Share of a stored field's terms ("term" or "term:count", apart) that are one of the typed words. */
function typedShare(field: string, typed: readonly TypedWord[]): number {
  const terms = field.split(' ').filter((entry) => entry !== '');
  if (terms.length === 0) return 0;
  let typedTerms = 0;
  for (const entry of terms) {
    const colon = entry.indexOf(':');
    const term = colon < 0 ? entry : entry.slice(0, colon);
    if (typed.some((word) => word.forms.some(({ form, prefix }) => (prefix ? term.startsWith(form) : term === form)))) typedTerms++;
  }
  return typedTerms / terms.length;
}

/**
 * How telling a typed word is by its rarity in everyday English (`englishRarity`, as retrieval's
 * telling words): "keep" or "book" little, "webhook" or "Airbnb" much. A word being typed, from
 * `BODY_PREFIX` letters, as the most frequent term of the bodies it begins (the terms its body
 * query already reads: "reque", request); a shorter one as a word of the index it is, else as a
 * word of average frequency.
 */
function tellingInEnglish(index: KbIndex, word: TypedWord): number {
  const completion = word.partial && word.forms[0]!.form.length >= BODY_PREFIX ? likelyTerm(index, word) : undefined;
  if (completion) return termInEnglish(completion);
  const exact = word.forms.find((f) => !f.prefix);
  return exact ? termInEnglish(exact.form) : TYPED_ENGLISH_RARITY;
}

/**
 * `englishRarity` of a term, a number (digits only: "12", "1.1.0" as 110) weighing as a word of
 * average frequency: the word list counts no numerals, so a number would weigh as a name does
 * ("12 year old": the pages saying 12 before the page for juniors, about 12-year-olds).
 */
function termInEnglish(term: string): number {
  return /^\d+$/.test(term) ? TYPED_ENGLISH_RARITY : englishRarity(term);
}

/**
 * The term a word being typed most likely is: from `BODY_PREFIX` letters, the most frequent term
 * of the bodies it begins (the terms its body query already reads: "reque", request); a shorter
 * one, itself when the index holds it ("dog"); none when the index has no such term.
 */
function likelyTerm(index: KbIndex, word: TypedWord): string | undefined {
  const typing = word.forms[0]!.form;
  if (typing.length >= BODY_PREFIX) return index.termsBeginning(typing, BODY_EXPANSIONS)[0]?.term;
  return index.documentFrequency(typing) > 0 ? typing : undefined;
}

/**
 * How rare a word being typed is, for the share of the typed words a section covers: by the share
 * of the pages holding the term it most likely is (`likelyTerm`), at the scale of passages (as
 * `rarity`): a word that most pages use ("dog" in a vet's pages, "deploy" in a CLI's) covers little
 * however few sections of each page say it; `otherwise` when the index has no such term. BM25 still
 * weighs its matches as a word of average rarity.
 */
function typingRarity(index: KbIndex, word: TypedWord, otherwise: number): number {
  const term = likelyTerm(index, word);
  if (term === undefined || index.documents === 0) return otherwise;
  const count = index.passages;
  return idf(count, (index.pageFrequency(term) / index.documents) * count);
}

/** A typed word's rarity, BM25's idf: a word being typed (no exact form) weighs as a word of average rarity. */
function rarity(index: KbIndex, word: TypedWord): number {
  const count = index.passages;
  const exact = word.forms.find((f) => !f.prefix);
  return idf(count, exact ? index.documentFrequency(exact.form) : count / 100);
}
