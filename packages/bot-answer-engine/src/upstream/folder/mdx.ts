import { marked } from 'marked';
import { componentText, expressionString, type TagAttributes } from './component-props.js';
import { fencedCode, mapOutsideFences } from './markdown-text.js';

// A code span (kept as is) or a JSX component tag: a capitalised or dotted name, attributes
// that may hold `{...}` expressions (with `>` inside, as in arrow functions), over several lines.
const CODE_SPAN_OR_COMPONENT = /(`+)[\s\S]*?\1|<\/?[A-Z][\w.]*(?:\s(?:[^<>{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)?\/?>|<>|<\/>/g;
const JSX_COMMENT = /\{\/\*[\s\S]*?\*\/\}/g;
const ESM_START = /^(?:import|export)(?:\s|\{|\*|$)/;
const FENCE_MARKER = /^[ \t]*(`{3,}|~{3,})/;
// A code span (skipped) or the start of a component tag, for reading tags' data.
const CODE_SPAN_OR_TAG_START = /(`+)[\s\S]*?\1|<[A-Z][\w.]*(?=[\s/>])/g;
// How far one tag is read: past this, it is left to be dropped as any other tag.
const MAX_TAG_CHARS = 200_000;

/**
 * MDX as plain Markdown: `import` / `export` statements and JSX comments are dropped, component
 * tags (`<Tabs>`, `<TabItem value="a">`, `<Note />`) are removed and the text between them is
 * kept. A reference component's data (a parameter table in an attribute, a field's name and
 * type) becomes Markdown text in place of its tag (see `component-props.ts`), and is cleaned
 * with the rest. Fenced code blocks and code spans are left exactly as written.
 */
export function mdxToMarkdown(mdx: string): string {
  return withoutIndentedCode(
    mapOutsideFences(mdx, (text) =>
      dropExpressionBlocks(renderComponentData(dropEsm(text).replace(JSX_COMMENT, '')).replace(CODE_SPAN_OR_COMPONENT, (match, ticks) => (ticks ? match : ''))),
    ),
  );
}

/**
 * MDX has no indented code blocks: text indented inside a component (`<Tab>` then a fence
 * indented four spaces, a card's description, a tab-indented `<p>`) is text, fenced code is
 * code. Read as Markdown once the tags are gone, such lines would be a code block holding the
 * fence's backticks or the prose; so each block marked's lexer reads as indented code (at the
 * top level: inside a list the indentation is the list's) loses the indentation its lines share.
 */
function withoutIndentedCode(markdown: string): string {
  // A block made text may hold one indented deeper (a card's text under its title): a few passes.
  for (let pass = 0; pass < 4; pass++) {
    const next = dedentOnce(markdown);
    if (next === markdown) break;
    markdown = next;
  }
  return markdown;
}

function dedentOnce(markdown: string): string {
  if (!/\n(?: {4}|\t)/.test(markdown)) return markdown;
  const tokens = marked.lexer(markdown);
  // Only when the tokens give back the text as it is (they do): nothing is lost in the rewriting.
  if (!tokens.some((token) => token.type === 'code' && (token as { codeBlockStyle?: string }).codeBlockStyle === 'indented')) return markdown;
  if (tokens.map((token) => token.raw).join('') !== markdown) return markdown;
  return tokens
    .map((token) => {
      if (token.type !== 'code' || (token as { codeBlockStyle?: string }).codeBlockStyle !== 'indented') return token.raw;
      const lines = token.raw.split('\n');
      const shared = Math.min(...lines.filter((line) => line.trim() !== '').map(indentWidth));
      return lines.map((line) => (line.trim() === '' ? '' : withoutColumns(line, shared))).join('\n');
    })
    .join('');
}

/** The text with each component tag it can read whole replaced by its data as Markdown (`componentText`), or by nothing. */
function renderComponentData(text: string): string {
  if (!/<[A-Z]/.test(text)) return text;
  let out = '';
  let from = 0;
  CODE_SPAN_OR_TAG_START.lastIndex = 0;
  for (let match = CODE_SPAN_OR_TAG_START.exec(text); match; match = CODE_SPAN_OR_TAG_START.exec(text)) {
    if (match[1]) continue;
    const tag = readTag(text, match.index + match[0].length);
    if (!tag) continue;
    // A tag read whole is skipped whole: backticks in its attributes open no code span.
    CODE_SPAN_OR_TAG_START.lastIndex = tag.end;
    // A tag read whole goes whole, whatever its attributes hold (code too deep in braces for the pattern below included).
    const data = componentText(tag.attributes);
    const label = visibleLabel(match[0].slice(1), tag.attributes);
    // A card's description is shown under its title (Fumadocs' and Starlight's cards); a field
    // tag's description is its lead already.
    const caption = label && !data?.lead ? literalText(tag.attributes, 'description') : undefined;
    // A field tag that also holds a table of data (an endpoint's path and summary, then its
    // parameters) shows its field first, on a line of its own: after the list it would run on
    // into the list's last item.
    const fieldFirst = data?.lead && data.block ? data.lead : undefined;
    // An attribute's string is text, as React shows it: a tag named in a title (`title="Wrapping
    // the layout with <Sidebar>"`) is shown as written, not read as markup to drop.
    const block = [label && asText(label), fieldFirst, caption && asText(caption), data?.block].filter(Boolean).join('\n\n');
    // The list stands apart from the text around it: one blank line before and after, not two (a
    // stretch's start or end is a line break already: the stretches are joined with one).
    const before = text.slice(0, match.index).trim() === '' ? 2 : (/(?:\n[ \t]*){0,2}$/.exec(text.slice(Math.max(0, match.index - 200), match.index))![0].match(/\n/g)?.length ?? 0);
    const after = text.slice(tag.end).trim() === '' ? 2 : (/^(?:[ \t]*\n){0,2}/.exec(text.slice(tag.end, tag.end + 200))![0].match(/\n/g)?.length ?? 0);
    const parts = [block ? `${'\n'.repeat(2 - before)}${block}${'\n'.repeat(2 - after)}` : '', data?.lead && !fieldFirst ? `${data.lead} ` : ''];
    out += text.slice(from, match.index) + parts.join('');
    from = tag.end;
  }
  return out + text.slice(from);
}

/** Columns of a line's leading white space, a tab to the next multiple of 4 (as CommonMark counts). */
function indentWidth(line: string): number {
  let column = 0;
  for (const char of line) {
    if (char === ' ') column++;
    else if (char === '\t') column += 4 - (column % 4);
    else break;
  }
  return column;
}

/** The line without its first `columns` columns of leading white space (a tab split by them left as spaces). */
function withoutColumns(line: string, columns: number): string {
  let column = 0;
  let i = 0;
  while (i < line.length && column < columns) {
    const width = line[i] === '\t' ? 4 - (column % 4) : 1;
    if (column + width > columns) return ' '.repeat(column + width - columns) + line.slice(i + 1);
    column += width;
    i++;
  }
  return line.slice(i);
}

/**
 * The text a component shows as its label, written in an attribute: the `title` of Mintlify's and
 * Fumadocs' `<Accordion>`, `<Step>`, `<Tab>`, `<Card>`, `<Callout>`, the `label` of Docusaurus'
 * and Starlight's `<TabItem>`, else a tab's `value` (Docusaurus shows it when there is no
 * label). A literal string only; an expression is left out as before.
 */
function visibleLabel(name: string, attributes: TagAttributes): string | undefined {
  const text = (key: string): string | undefined => literalText(attributes, key);
  return text('title') ?? text('label') ?? (/(?:^|\.)Tab(?:Item)?$/.test(name) ? text('value') : undefined);
}

/** Text with each `<` before a tag name, outside code spans, written as a character reference: no later rule reads a tag there. */
function asText(text: string): string {
  return text.replace(/(`+)[\s\S]*?\1|<(?=[A-Za-z/])/g, (found) => (found === '<' ? '&lt;' : found));
}

/** An attribute's literal string on one line; undefined for an expression, a bare name or white space. */
function literalText(attributes: TagAttributes, key: string): string | undefined {
  const value = attributes.get(key);
  return typeof value === 'object' && 'text' in value && value.text.trim() ? value.text.replace(/\s+/g, ' ').trim() : undefined;
}

/**
 * The attributes of the component tag whose name ends at `i`, and where the tag ends; undefined
 * when what follows is no well-formed tag (it is then left to the other rules, as before).
 */
function readTag(text: string, i: number): { attributes: TagAttributes; end: number } | undefined {
  const attributes: TagAttributes = new Map();
  const limit = Math.min(text.length, i + MAX_TAG_CHARS);
  const name = /[A-Za-z_][\w:.-]*/y;
  while (i < limit) {
    while (i < limit && /\s/.test(text[i]!)) i++;
    if (text.startsWith('/>', i)) return { attributes, end: i + 2 };
    if (text[i] === '>') return { attributes, end: i + 1 };
    if (text[i] === '{') {
      // A spread (`{...props}`): no data of its own.
      const end = expressionEnd(text, i, limit);
      if (end < 0) return undefined;
      i = end;
      continue;
    }
    name.lastIndex = i;
    const found = name.exec(text);
    if (!found) return undefined;
    i = name.lastIndex;
    if (text[i] !== '=') {
      attributes.set(found[0], true);
      continue;
    }
    i++;
    const quote = text[i];
    if (quote === '"' || quote === "'") {
      const close = text.indexOf(quote, i + 1);
      if (close < 0 || close >= limit) return undefined;
      attributes.set(found[0], { text: text.slice(i + 1, close) });
      i = close + 1;
    } else if (quote === '{') {
      const end = expressionEnd(text, i, limit);
      if (end < 0) return undefined;
      const source = text.slice(i + 1, end - 1);
      const string = expressionString(source);
      attributes.set(found[0], string === undefined ? { expression: source } : { text: string });
      i = end;
    } else {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Where the `{...}` expression opening at `i` ends (after its `}`), strings and template literals
 * skipped whole; -1 if it does not close, or a quoted string runs past its line (an apostrophe in
 * JSX text, `{<>It's</>}`, is no string: reading on would swallow the page up to the next one).
 */
function expressionEnd(text: string, i: number, limit: number): number {
  let depth = 0;
  let quote = '';
  for (let k = i; k < limit; k++) {
    const char = text[k]!;
    if (quote) {
      if (char === '\\') k++;
      else if (char === quote) quote = '';
      else if (char === '\n' && quote !== '`') return -1;
    } else if (char === '"' || char === "'" || char === '`') {
      quote = char;
    } else if (char === '{') {
      depth++;
    } else if (char === '}' && --depth === 0) {
      return k + 1;
    }
  }
  return -1;
}

/**
 * Drops each JavaScript expression that opens a line and runs over several lines to end one
 * (`{components.map((comp) => (` ... `))}`): what it renders is known only by running it, and
 * read as text it is code quoted as prose. A template literal alone (`` {`text`} ``) writes its
 * text: kept, as is an expression within one line.
 */
function dropExpressionBlocks(text: string): string {
  if (!/^[ \t]*\{/m.test(text)) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  let offset = 0;
  // A fence indented past what Markdown allows (inside a component: MDX reads it as a fence) is code too.
  const isCode = fencedCode(FENCE_MARKER);
  let budget = 4 * text.length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const start = offset + line.length - line.trimStart().length;
    offset += line.length + 1;
    if (isCode(line) || text[start] !== '{') {
      kept.push(line);
      continue;
    }
    const limit = Math.min(text.length, start + MAX_TAG_CHARS);
    const end = budget > 0 ? expressionEnd(text, start, limit) : -1;
    // Reading is bounded by a few times the text, however many lines open with `{` and never close.
    budget -= (end < 0 ? limit : end) - start;
    const lineEnd = end < 0 ? -1 : text.indexOf('\n', end);
    const rest = end < 0 ? '' : text.slice(end, lineEnd < 0 ? text.length : lineEnd);
    const expression = end < 0 ? '' : text.slice(start, end);
    if (end < 0 || !expression.includes('\n') || rest.trim() !== '' || /^\{\s*`[^`]*`\s*\}$/.test(expression)) {
      kept.push(line);
      continue;
    }
    // The lines the expression covers go; the offset moves past them.
    while (offset <= end && i + 1 < lines.length) offset += lines[++i]!.length + 1;
  }
  return kept.join('\n');
}

/**
 * Drops ESM statements opening a block (the first line, or after a blank one, as MDX reads
 * them), with the lines they continue on (until their brackets close). A line starting with
 * `export` inside a paragraph or a component's attribute (a template literal's last line) is text.
 */
function dropEsm(text: string): string {
  const kept: string[] = [];
  let depth = 0;
  let inStatement = false;
  // Where a block may start: the first line, after a blank one, or right after a statement (an ESM block runs on).
  let blockStart = true;
  for (const line of text.split('\n')) {
    const mayOpen = blockStart;
    blockStart = line.trim() === '';
    if (!inStatement && mayOpen && ESM_START.test(line)) {
      inStatement = true;
      depth = 0;
    }
    if (!inStatement) {
      kept.push(line);
      continue;
    }
    for (const char of line) {
      if (char === '{' || char === '(' || char === '[') depth++;
      else if (char === '}' || char === ')' || char === ']') depth--;
    }
    // A statement ends on a line where its brackets are closed and it does not continue
    // (`import {` ... `} from 'x'` ends on the `from` line).
    if (depth <= 0 && !/(?:,|=|=>|\bfrom)\s*$/.test(line.trimEnd())) {
      inStatement = false;
      blockStart = true;
    }
  }
  return kept.join('\n');
}
