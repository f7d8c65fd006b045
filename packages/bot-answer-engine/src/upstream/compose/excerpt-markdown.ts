/**
 * A quote's Markdown: the leaves a passage's selection holds, in page order as the page wrote
 * them, with `…` where parts were left out between them, list items with their markers (and an
 * item's first sentence as context for what it holds), and long code blocks cut between lines.
 */
import { sentencesOf, type Item, type Leaf, type Part } from './passage-units.js';

/** The elision mark between quoted parts that are not next to each other. */
export const ELISION = '…';
/** A code fence's line (its opening or closing), and the fence. */
export const FENCE_LINE = /^[ \t]*(`{3,}|~{3,})/;
/** A paragraph whose chosen sentences make up this share of it is quoted whole. */
const WHOLE_PARAGRAPH_SHARE = 0.6;

/** The longest a code block may be quoted. */
export type CodeCap = (leaf: Leaf) => number;

/** Whether any leaf of the part (at any depth) is selected. */
export function holds(part: Part, selected: ReadonlySet<number>): boolean {
  switch (part.type) {
    case 'paragraph':
      return part.sentences.some((s) => selected.has(s.id));
    case 'table':
      return part.rows.some((r) => selected.has(r.id));
    case 'code':
    case 'block':
      return selected.has(part.leaf.id);
    case 'list':
      return part.items.some((item) => itemHolds(item, selected));
  }
}

function itemHolds(item: Item, selected: ReadonlySet<number>): boolean {
  return (item.lead !== undefined && selected.has(item.lead.id)) || item.children.some((child) => holds(child, selected));
}

/** The selected leaves of a list of parts as Markdown blocks, in page order, with `…` where parts were left out between them. */
export function renderParts(parts: Part[], selected: ReadonlySet<number>, maxCode: CodeCap): string[] {
  const blocks: string[] = [];
  let skipped = false;
  for (const part of parts) {
    if (!holds(part, selected)) {
      skipped = blocks.length > 0;
      continue;
    }
    if (skipped) blocks.push(ELISION);
    skipped = false;
    blocks.push(renderPart(part, selected, maxCode));
  }
  return blocks;
}

function renderPart(part: Part, selected: ReadonlySet<number>, maxCode: CodeCap): string {
  switch (part.type) {
    case 'paragraph':
      return renderParagraph(part.sentences, selected);
    case 'table':
      return [part.header, ...part.rows.filter((row) => selected.has(row.id)).map((row) => row.markdown)].join('\n');
    case 'code':
      return capCode(part.leaf.markdown, maxCode(part.leaf));
    case 'block':
      return part.leaf.markdown;
    case 'list':
      return renderList(part, selected, maxCode);
  }
}

/** Chosen sentences of a paragraph joined, ` … ` between those not next to each other; the whole paragraph when most of it is chosen. */
function renderParagraph(sentences: Leaf[], selected: ReadonlySet<number>): string {
  const chosen = sentences.filter((s) => selected.has(s.id));
  const length = (list: Leaf[]): number => list.reduce((sum, s) => sum + s.markdown.length, 0);
  const quoted = length(chosen) >= length(sentences) * WHOLE_PARAGRAPH_SHARE ? sentences : chosen;
  let text = '';
  let previous = -1;
  for (const sentence of quoted) {
    const index = sentences.indexOf(sentence);
    if (text) text += index === previous + 1 ? ' ' : ` ${ELISION} `;
    text += sentence.markdown;
    previous = index;
  }
  return text;
}

/**
 * The items holding chosen leaves, with their markers; an item shown only for what it holds
 * gets its first sentence as context. Ordered items not next to each other are set apart by a
 * `…` line, so each run keeps its numbers.
 */
function renderList(list: Extract<Part, { type: 'list' }>, selected: ReadonlySet<number>, maxCode: CodeCap): string {
  const runs: string[][] = [];
  let previous = -2;
  list.items.forEach((item, index) => {
    if (!itemHolds(item, selected)) return;
    if (!list.ordered || index === previous + 1) (runs[runs.length - 1] ?? runs[runs.push([]) - 1]!).push(renderItem(item, selected, maxCode));
    else runs.push([renderItem(item, selected, maxCode)]);
    previous = index;
  });
  return runs.map((run) => run.join('\n')).join(`\n\n${ELISION}\n\n`);
}

function renderItem(item: Item, selected: ReadonlySet<number>, maxCode: CodeCap): string {
  const indent = ' '.repeat(item.marker.length);
  const lead = item.lead ? (selected.has(item.lead.id) ? item.lead.markdown : (sentencesOf(item.lead.markdown)[0] ?? '')) : '';
  const blocks = lead ? [lead] : [];
  let text = '';
  for (const child of renderParts(item.children, selected, maxCode)) {
    const nested = child !== ELISION && /^(?:[*+-]|\d{1,9}[.)])[ \t]/.test(child);
    blocks.push(child);
    text += blocks.length === 1 ? '' : nested && blocks.length === 2 && lead ? '\n' : '\n\n';
    text += indentLines(child, indent);
  }
  return item.marker + (indentLines(lead, indent) + text).trimStart();
}

function indentLines(text: string, indent: string): string {
  return text
    .split('\n')
    .map((line) => (line ? indent + line : line))
    .join('\n');
}

/** A code block cut between lines to about `max` characters, its fence closed, with a `…` line where it was cut. */
function capCode(code: string, max: number): string {
  if (code.length <= max) return code;
  const lines = code.split('\n');
  const fence = FENCE_LINE.exec(lines[0]!)?.[1];
  // Fenced: keep the opening line and close the fence; indented: keep the indentation.
  const closed = fence !== undefined && lines.length > 1 && lines[lines.length - 1]!.trim().startsWith(fence);
  const body = fence ? lines.slice(1, closed ? -1 : undefined) : lines;
  const kept: string[] = fence ? [lines[0]!] : [];
  let length = kept.join('\n').length;
  for (const line of body) {
    if (kept.length > (fence ? 1 : 0) && length + line.length + 1 > max - 8) break;
    kept.push(line);
    length += line.length + 1;
  }
  return fence ? [...kept, ELISION, closed ? lines[lines.length - 1]! : fence].join('\n') : [...kept, `    ${ELISION}`].join('\n');
}
