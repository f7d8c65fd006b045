import type { AnswerResponse, Source } from '../../../../bot-answer/src/protocol/types.js';
import { cleanInline, cleanMarkdown, type LinkDefinitions } from '../folder/clean-markdown.js';
import type { DocumentUrlSettings } from '../folder/document-url.js';
import type { KbDocument, Passage } from '../folder/knowledge-base.js';
import { plainHeading } from '../folder/markdown-text.js';
import { termsOf } from '../retrieval/terms.js';
import { focusExcerpts } from './focus.js';
import { linkResolver } from './link-targets.js';
import { passageParts } from './passage-units.js';

/** The whole answer when nothing in the knowledge base is relevant enough. */
export const NO_ANSWER_TEXT = "I couldn't find an answer to that in the knowledge base.";

/** The whole answer when no passage answers but some pages are close: they come as its sources, shown as related pages. */
export const NOT_SURE_TEXT = "I'm not sure the docs answer this. These pages look closest.";

/** Characters an answer aims at, label lines included; one code block may take it further. */
const ANSWER_CHARS = 1200;
/** Least room left for the excerpts, however long the label lines are. */
const MIN_EXCERPT_CHARS = 400;
const MAX_SNIPPET_CHARS = 200;
/** Most related pages a "not sure" answer lists. */
const MAX_RELATED = 3;

/**
 * Builds the answer from the chosen passages, best first. Each passage becomes a bold label
 * line naming where it comes from (the document's title and the section's headings), followed
 * by what in it answers the question: the sentences, list items (with their parent items),
 * table rows (under the table's header) and code blocks that hold the question's terms, in page
 * order, `…` marking what was left out between them, about 1,200 characters in all; a passage
 * where nothing matches is quoted from its start. Passages of one document are kept together,
 * its best first, the others after it in page order. What a docs site does not show (HTML
 * comments, metadata, MDX statements, link definitions, badges, HTML tags) is left out; code is
 * quoted as written. With `inlineSources`,
 * the label line cites the passage as `[[n]](url)`; either way `sources` lists each URL once (a
 * document, or a section of it when anchors are on), numbered in the order first cited.
 * Links in the quoted text point where the docs site publishes their targets (`urls`, the
 * folder's base URL and extension; see `linkResolver`), as the answer is read on other pages.
 */
export function composeAnswer(passages: Passage[], inlineSources: boolean, question?: string, urls: DocumentUrlSettings = {}): AnswerResponse {
  if (passages.length === 0) return { answer: NO_ANSWER_TEXT, answer_found: false, sources: [] };
  const sources: Source[] = [];
  const numbers = new Map<string, number>();
  const rank = new Map(passages.map((passage, i) => [passage, i]));
  const quoted = groupByDocument(passages).map((passage) => {
    const { document } = passage;
    const definitions = definitionsOf(document);
    const placeLink = linkResolver(document, urls);
    const markdown = cleanMarkdown(passage.markdown, { definitions, linkTarget: placeLink });
    // A passage's URL is its document's, or its section's when anchors are on: one source each.
    let n = numbers.get(passage.url);
    if (n === undefined) {
      n = sources.length + 1;
      numbers.set(passage.url, n);
      sources.push(sourceOf(passage, markdown));
    }
    const headings = passage.headings.map((heading) => cleanInline(heading, definitions, placeLink));
    const label = [document.source.title, ...headings].join(' › ');
    const citation = inlineSources ? ` [[${n}]](${linkTarget(passage.url)})` : '';
    return {
      line: `**${label}**${citation}`,
      parts: passageParts(markdown),
      headingTerms: new Set(termsOf(label)),
      heading: headings[headings.length - 1] ?? '',
      rank: rank.get(passage)!,
      page: document.index,
    };
  });
  const labels = quoted.reduce((sum, { line }) => sum + line.length + 4, 0);
  const excerpts = focusExcerpts(quoted, question, { budget: Math.max(MIN_EXCERPT_CHARS, ANSWER_CHARS - labels) });
  const answer = quoted.map(({ line }, i) => (excerpts[i] ? `${line}\n\n${excerpts[i]}` : line)).join('\n\n');
  return { answer, answer_found: true, sources };
}

/**
 * The "not sure" answer: no passage answers, but these are the closest (one per page, best
 * first). The answer is a short honest text with no link; `sources` lists the passages' pages,
 * which clients show as related pages, never as an answer's sources.
 */
export function composeNotSure(passages: Passage[], urls: DocumentUrlSettings = {}): AnswerResponse {
  const pages = new Set<number>();
  const closest = passages.filter((p) => !pages.has(p.document.index) && pages.add(p.document.index)).slice(0, MAX_RELATED);
  if (closest.length === 0) return { answer: NO_ANSWER_TEXT, answer_found: false, sources: [] };
  const sources = closest.map((passage) => {
    const markdown = cleanMarkdown(passage.markdown, { definitions: definitionsOf(passage.document), linkTarget: linkResolver(passage.document, urls) });
    return sourceOf(passage, markdown);
  });
  return { answer: NOT_SURE_TEXT, answer_found: false, sources };
}

/** A passage as a source: its document's fields, titled with its section when it links to one, its start as the snippet. */
function sourceOf(passage: Passage, markdown: string): Source {
  const { document } = passage;
  const section = passage.url === document.source.url ? undefined : passage.headings[passage.headings.length - 1];
  const title = section ? `${document.source.title} › ${plainHeading(section)}` : document.source.title;
  return { ...document.source, title, url: passage.url, snippet: snippetOf(markdown) };
}

const NO_DEFINITIONS: LinkDefinitions = new Map();

/** The document's link reference definitions: a passage's links are often defined at the page's end. */
function definitionsOf(document: KbDocument): LinkDefinitions {
  return document.links ?? NO_DEFINITIONS;
}

/**
 * Documents in the order of their best passage; passages of one document together, its best
 * first (the one retrieval ranked highest: what the visitor reads first), then the others in
 * page order.
 */
function groupByDocument(passages: Passage[]): Passage[] {
  const rank = new Map<number, number>();
  const best = new Set<Passage>();
  for (const p of passages) {
    if (rank.has(p.document.index)) continue;
    rank.set(p.document.index, rank.size);
    best.add(p);
  }
  return [...passages].sort((a, b) => rank.get(a.document.index)! - rank.get(b.document.index)! || Number(best.has(b)) - Number(best.has(a)) || a.index - b.index);
}

/** Plain text of the passage's start, without Markdown syntax, cut at a word boundary. */
export function snippetOf(markdown: string): string {
  const text = markdown
    .replace(/^[ \t]*(`{3,}|~{3,}).*$/gm, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^[ \t]*\|?[ \t:|-]+\|[ \t:|-]*$/gm, ' ')
    .replace(/^[ \t]*(?:[-*+]|\d+[.)]|>+)[ \t]+/gm, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/[|#]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= MAX_SNIPPET_CHARS) return text;
  const cut = text.slice(0, MAX_SNIPPET_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_SNIPPET_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** A URL usable as a Markdown link target: spaces and parentheses would end it early. */
function linkTarget(url: string): string {
  return url.replace(/[ ()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
