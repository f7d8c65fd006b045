import type { AnswerResponse, Source } from '../../../packages/bot-answer/src/protocol/types.js';
import type { Passage } from '../folder/knowledge-base.js';
import { plainHeading } from '../folder/markdown-text.js';

/** The whole answer when nothing in the knowledge base is relevant enough. */
export const NO_ANSWER_TEXT = "I couldn't find an answer to that in the knowledge base.";

/** Longest excerpt quoted from one passage, in characters; it is cut only between Markdown blocks. */
const MAX_EXCERPT_CHARS = 1200;
const MAX_SNIPPET_CHARS = 200;

/**
 * Builds the answer from the chosen passages, best first (passages of one document are kept
 * together). Each passage becomes a bold lead line
 * naming where it comes from, followed by its Markdown quoted as written (lists, tables and code
 * intact). With `inlineSources`, the lead line cites the passage as `[[n]](url)`; either way
 * `sources` lists each URL once (a document, or a section of it when anchors are on), numbered
 * in the order first cited. `question` is what was asked (the excerpts will focus on what answers it).
 */
export function composeAnswer(passages: Passage[], inlineSources: boolean, _question?: string): AnswerResponse {
  if (passages.length === 0) return { answer: NO_ANSWER_TEXT, answer_found: false, sources: [] };
  const sources: Source[] = [];
  const numbers = new Map<string, number>();
  const parts = groupByDocument(passages).map((passage) => {
    const { document } = passage;
    // A passage's URL is its document's, or its section's when anchors are on: one source each.
    let n = numbers.get(passage.url);
    if (n === undefined) {
      n = sources.length + 1;
      numbers.set(passage.url, n);
      const section = passage.url === document.source.url ? undefined : passage.headings[passage.headings.length - 1];
      const title = section ? `${document.source.title} › ${plainHeading(section)}` : document.source.title;
      sources.push({ ...document.source, title, url: passage.url, snippet: snippetOf(passage.markdown) });
    }
    const label = [document.source.title, ...passage.headings].join(' › ');
    const citation = inlineSources ? ` [[${n}]](${linkTarget(passage.url)})` : '';
    return `**${label}**${citation}\n\n${excerptOf(passage.markdown)}`;
  });
  return { answer: parts.join('\n\n'), answer_found: true, sources };
}

/** Keeps passages of one document together; otherwise the order stays as given (best first). */
function groupByDocument(passages: Passage[]): Passage[] {
  const rank = new Map<number, number>();
  for (const p of passages) if (!rank.has(p.document.index)) rank.set(p.document.index, rank.size);
  return passages
    .map((passage, order) => ({ passage, order }))
    .sort((a, b) => rank.get(a.passage.document.index)! - rank.get(b.passage.document.index)! || a.order - b.order)
    .map(({ passage }) => passage);
}

/** The passage's leading Markdown blocks up to the length limit, never splitting a block (a table, a code fence). */
export function excerptOf(markdown: string): string {
  const blocks = splitBlocks(markdown);
  let excerpt = blocks[0] ?? '';
  for (const block of blocks.slice(1)) {
    if (excerpt.length + 2 + block.length > MAX_EXCERPT_CHARS) break;
    excerpt += `\n\n${block}`;
  }
  return excerpt;
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

/** Markdown blocks separated by blank lines, keeping fenced code (which may hold blank lines) whole. */
function splitBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^[ \t]{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
    }
    if (line.trim() === '' && fence === undefined) {
      if (current.length) blocks.push(current.join('\n'));
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length) blocks.push(current.join('\n'));
  return blocks;
}

/** A URL usable as a Markdown link target: spaces and parentheses would end it early. */
function linkTarget(url: string): string {
  return url.replace(/[ ()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
