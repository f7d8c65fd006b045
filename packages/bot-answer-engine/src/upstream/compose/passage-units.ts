import { Lexer, type Token, type Tokens } from 'marked';
import { mapped } from '../retrieval/mapped.js';

/**
 * The smallest parts of a passage an answer can quote: a sentence of a paragraph, a list
 * item's own text, a table row, a code block, or a block taken whole (a quote, a heading).
 */
export interface Leaf {
  /** Position in the passage, in page order. */
  id: number;
  kind: 'sentence' | 'item' | 'row' | 'code' | 'block';
  /** The leaf's Markdown as written (a sentence, an item's text without its marker, a row's line, a whole code block). */
  markdown: string;
}

/** A block of a passage, holding its leaves. */
export type Part =
  | { type: 'paragraph'; sentences: Leaf[] }
  | { type: 'list'; ordered: boolean; items: Item[] }
  | { type: 'table'; header: string; rows: Leaf[] }
  | { type: 'code'; leaf: Leaf }
  | { type: 'block'; leaf: Leaf };

/** A list item: its marker (`- `, `3. `, `- [ ] `), its own text, and what it holds (nested lists, paragraphs, code). */
export interface Item {
  marker: string;
  /** The item's first paragraph; undefined when the item opens with something else (a code block). */
  lead?: Leaf;
  children: Part[];
}

/** A passage as parts and leaves, in page order. */
export interface PassageParts {
  parts: Part[];
  leaves: Leaf[];
}

const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });
const MARKER = /^[ \t]*((?:[*+-]|\d{1,9}[.)])(?:[ \t]+|$)(?:\[[ xX]\][ \t]+)?)/;

/** Splits a passage's (cleaned) Markdown into parts and leaves with marked's GFM lexer. */
export function passageParts(markdown: string): PassageParts {
  const leaves: Leaf[] = [];
  const leaf = (kind: Leaf['kind'], text: string): Leaf => {
    const made: Leaf = { id: leaves.length, kind, markdown: text };
    leaves.push(made);
    return made;
  };
  const partsOf = (tokens: Token[]): Part[] => {
    const parts: Part[] = [];
    for (const token of tokens) {
      switch (token.type) {
        case 'space':
        case 'def':
        case 'hr':
        case 'checkbox':
          break;
        case 'paragraph':
        case 'text':
          parts.push({ type: 'paragraph', sentences: mapped(sentencesOf(token.raw.trim()), (s) => leaf('sentence', joinSoftBreaks(s))) });
          break;
        case 'list': {
          const list = token as Tokens.List;
          parts.push({
            type: 'list',
            ordered: list.ordered,
            items: mapped(list.items, (item) => {
              const marker = MARKER.exec(item.raw)?.[1]?.replace(/[ \t]+$/, ' ') ?? '- ';
              const [first, ...rest] = item.tokens.filter((t) => t.type !== 'checkbox' && t.type !== 'space');
              const opensWithText = first?.type === 'paragraph' || first?.type === 'text';
              return {
                marker: marker.endsWith(' ') ? marker : `${marker} `,
                lead: opensWithText ? leaf('item', joinSoftBreaks(first.raw.trim())) : undefined,
                children: partsOf(opensWithText ? rest : item.tokens),
              };
            }),
          });
          break;
        }
        case 'table': {
          const lines = token.raw.replace(/\n+$/, '').split('\n');
          parts.push({ type: 'table', header: lines.slice(0, 2).join('\n'), rows: mapped(lines.slice(2), (line) => leaf('row', line)) });
          break;
        }
        case 'code':
          parts.push({ type: 'code', leaf: leaf('code', token.raw.replace(/\n+$/, '')) });
          break;
        default:
          if (token.raw.trim()) parts.push({ type: 'block', leaf: leaf('block', token.raw.replace(/\n+$/, '')) });
      }
    }
    return parts;
  };
  // Block structure only: the inline tokens (half the lexing) are not needed to pick and quote.
  const parts = partsOf(new Lexer({ gfm: true }).blockTokens(markdown));
  return { parts, leaves };
}

/**
 * Prose with its soft line breaks as spaces: the same text to a reader of the rendered Markdown
 * (a code span's line break is a space too), and one line to a reader of the raw text, so a name
 * wrapped in the source (`<ctrl> +` / `<alt> + i`) is quoted whole. A hard break (two spaces or a
 * backslash at the line's end) stays.
 */
export function joinSoftBreaks(text: string): string {
  return text.replace(/([ \t]*)\n[ \t]*/g, (line, spaces: string, at: number) => (spaces.length >= 2 || text[at - 1] === '\\' ? line : ' '));
}

/**
 * The sentences of a paragraph (Unicode sentence boundaries), merged where a boundary falls
 * inside a code span, a link or emphasis, so each sentence is valid Markdown on its own.
 */
export function sentencesOf(paragraph: string): string[] {
  const sentences: string[] = [];
  let pending = '';
  // A line break inside a paragraph is a space to a reader; Unicode would end a sentence there.
  for (const { segment, index } of SENTENCES.segment(paragraph.replace(/\n/g, ' '))) {
    pending += paragraph.slice(index, index + segment.length);
    if (balanced(pending)) {
      if (pending.trim()) sentences.push(pending.trim());
      pending = '';
    }
  }
  if (pending.trim()) sentences.push(pending.trim());
  return sentences;
}

/** Whether code spans, brackets, parentheses and strong emphasis all close within the text. */
function balanced(text: string): boolean {
  let open = 0;
  for (const [run] of text.matchAll(/`+/g)) {
    if (open === 0) open = run.length;
    else if (run.length === open) open = 0;
  }
  if (open) return false;
  const prose = text.replace(/(`+)[^]*?(?<!`)\1(?!`)/g, '');
  const count = (pattern: RegExp): number => prose.match(pattern)?.length ?? 0;
  return count(/\[/g) === count(/\]/g) && count(/\(/g) === count(/\)/g) && count(/\*\*/g) % 2 === 0 && count(/__/g) % 2 === 0;
}
