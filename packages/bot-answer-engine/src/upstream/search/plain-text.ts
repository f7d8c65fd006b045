import { marked, type Token, type Tokens } from 'marked';
import { cleanMarkdown, type LinkDefinitions } from '../folder/clean-markdown.js';

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const ENTITY = /&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]+));/gi;
// What is left of an HTML tag once the docs' own tags are gone (cleanMarkdown keeps text such as `Array<T>`).
const BLOCKS = new Set(['paragraph', 'heading', 'code', 'table', 'list', 'list_item', 'blockquote', 'html']);
const INLINE_TAG = /<\/?[a-z][\w-]*(?:\s[^<>]*)?\/?>/gi;

/**
 * A section's Markdown as a reader sees it, as plain text: what the docs site hides is dropped
 * (`cleanMarkdown`), then the Markdown syntax (emphasis, links, code marks, tables, lists,
 * quotes, headings) and HTML tags are removed, their text kept, entities decoded and white
 * space collapsed. Code is kept as text. Never holds Markdown or HTML syntax of the page.
 */
export function plainText(markdown: string, definitions?: LinkDefinitions): string {
  const cleaned = cleanMarkdown(markdown, definitions ? { definitions } : {});
  const parts: string[] = [];
  collect(marked.lexer(cleaned), parts);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

function collect(tokens: readonly Token[], into: string[]): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'space':
      case 'hr':
      case 'def':
      case 'image':
        break;
      case 'html':
        into.push(decode(token.text.replace(INLINE_TAG, (tag: string) => (token.block ? ' ' : tag.startsWith('</') || /^<br\b/i.test(tag) ? ' ' : ''))));
        break;
      case 'code':
      case 'codespan':
        into.push(inline(token.text));
        break;
      case 'br':
        into.push(' ');
        break;
      case 'escape':
        into.push(token.text);
        break;
      case 'table': {
        const table = token as Tokens.Table;
        for (const row of [table.header, ...table.rows]) {
          for (const cell of row) {
            collect(cell.tokens, into);
            into.push(' ');
          }
        }
        break;
      }
      case 'list':
        for (const item of (token as Tokens.List).items) {
          collect(item.tokens, into);
          into.push(' ');
        }
        break;
      default: {
        const nested = (token as { tokens?: Token[] }).tokens;
        if (nested) collect(nested, into);
        else if ('text' in token && typeof token.text === 'string') into.push(decode(token.text));
      }
    }
    // Blocks and table cells apart; the inline pieces of one block together.
    if (BLOCKS.has(token.type)) into.push(' ');
  }
}

/** Code as one line of text. */
function inline(code: string): string {
  return code.replace(/\s+/g, ' ');
}

function decode(text: string): string {
  return text.replace(ENTITY, (whole, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}
