import { decodeHTML } from 'entities/decode';
import { closingRun, nextBlankLine } from './code-spans.js';

/**
 * Markdown as a reader of the published page sees it: what a docs site hides or turns into
 * chrome (HTML comments such as Node's `<!-- YAML ... -->` history, metadata blocks, MDX
 * statements and component lines, link reference definitions, badges, HTML anchors and tags,
 * admonition fences) is dropped, and the text it wraps is kept. Code (fenced, indented, and
 * code spans) is never touched. Pure, line-based and linear, so it can run over a whole folder
 * before indexing as well as over the passages an answer quotes.
 */

/** A link reference definition: `[label]: url "title"`. */
export interface LinkDefinition {
  url: string;
  title?: string;
}

/** Link reference definitions by normalised label (see {@link linkDefinitions}). */
export type LinkDefinitions = ReadonlyMap<string, LinkDefinition>;

/** How {@link cleanMarkdown} reads a text. */
export interface CleanOptions {
  /**
   * Link reference definitions to resolve `[text][label]` with: those of the whole page, since a
   * passage's links are often defined at the page's end. Default: the ones in the text itself.
   */
  definitions?: LinkDefinitions;
  /**
   * Where each inline link and image points once the text is read elsewhere: given the target
   * as written, the URL to use, or undefined to keep the link's text (an image's alt text) alone.
   * Default: targets are kept as written.
   */
  linkTarget?: (target: string) => string | undefined;
}

const FIRST_CHARACTER = /[^ \t]/;
const INDENTED = /^(?: {4}|\t)/;
const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^[ \t]{0,3}(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)/;
// `[label]: url "title"` (the title may also be in single quotes or parentheses, or on the next line).
const DEFINITION = /^[ \t]{0,3}\[((?:[^\]\\]|\\.){1,999})\]:[ \t]*(<[^>\n]*>|\S+)(?:[ \t]+("[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$/;
const DEFINITION_TITLE = /^[ \t]+("[^"\n]*"|'[^'\n]*'|\([^)\n]*\))[ \t]*$/;
// ESM as MDX (and Docusaurus `.md`) allow it: only statements shaped like ESM, so prose that
// happens to start with "import" is kept.
const ESM_IMPORT = /^import[ \t]+(?:['"][^'"\n]+['"]|[^\n]*?\bfrom[ \t]*['"][^'"\n]+['"]|(?:[\w$]+[ \t]*,[ \t]*)?\{[^}\n]*)[ \t;]*$/;
const ESM_EXPORT = /^export[ \t]+(?:default\b|const\b|let\b|var\b|function\b|async\b|class\b|\{|\*)/;
// A line that is only JSX component tags: `<Tabs groupId="os">`, `</TabItem>`, `<Note />`.
const COMPONENT_LINE = /^[ \t]*(?:<\/?[A-Z][\w.]*(?:[ \t](?:[^<>{}"']|"[^"]*"|'[^']*'|\{[^{}]*\})*)?\/?>[ \t]*)+$/;
const JSX_COMMENT_LINE = /^[ \t]*\{\/\*[\s\S]*?\*\/\}[ \t]*$/;
// A component tag opening a line whose attributes run on to the next lines: `<TSDoc` then a
// `definition={`...`}` template literal, then `/>`.
const COMPONENT_OPEN = /^[ \t]*<\/?[A-Z][\w.]*(?:[ \t]|$)/;
// How far a tag running over lines is looked for: past this, the `<` is taken for text.
const TAG_LINES = 1000;
// Docusaurus / VitePress admonitions (`:::tip Title`, `:::`), Liquid tags, kramdown attribute
// lists and table-of-contents markers: chrome of the site generator, not text.
// An admonition's title may also be a directive attribute (`:::tip{title="Hot tip"}`, Zudoku's).
const ADMONITION = /^([ \t]*):::[ \t]*([A-Za-z][\w-]*)?(?:\[([^\]\n]*)\]|[ \t]+([^{\n]+?))?[ \t]*(?:\{([^}\n]*)\})?[ \t]*$/;
const TITLE_ATTRIBUTE = /(?:^|[ \t])title=(?:"([^"]*)"|'([^']*)')/;
const GENERATOR_LINE = /^[ \t]*(?:\{%[^\n]*%\}|\{:[^\n]*\}|\[\[?toc\]\]?|\[TOC\])[ \t]*$/i;
// GitHub's alerts: `> [!NOTE]` shows as a "Note" callout on GitHub, and literally elsewhere.
const GITHUB_ALERT = /^([ \t]*>[ \t]*)\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*$/i;

// Elements of HTML a docs page may hold. Only these are taken for tags: `Array<Dispatcher>`,
// `<your-token>` and the like stay text, as the reader means them.
const HTML_TAGS =
  'a|abbr|address|article|aside|audio|b|big|blockquote|body|br|button|caption|center|cite|code|col|colgroup|dd|del|details|dfn|div|dl|dt|em|embed|figcaption|figure|font|footer|form|h[1-6]|head|header|hr|html|i|iframe|img|input|ins|kbd|label|li|link|main|mark|meta|nav|noscript|object|ol|option|p|picture|pre|q|s|samp|section|select|small|source|span|strike|strong|sub|summary|sup|svg|table|tbody|td|template|textarea|tfoot|th|thead|time|tr|tt|u|ul|var|video|wbr';
// Attributes may run over lines (not a blank one); no `<` inside, so a stray `<a` costs one short look.
const ATTRIBUTES = `(?:[ \\t\\n](?:[^<>"'\\n]|\\n(?![ \\t]*\\n)|"[^"<>]*"|'[^'<>]*')*)?`;
const HTML_TAG = new RegExp(`</?(?:${HTML_TAGS})(?=[ \\t\\n/>])${ATTRIBUTES}/?>`, 'gi');
const DROPPED_ELEMENT = /<(script|style|svg|template)(?=[ \t\n>])[\s\S]*?<\/\1[ \t]*>/gi;
const HREF = /\bhref[ \t]*=[ \t]*(?:"([^"]*)"|'([^']*)')/i;
const CODE_ELEMENT = /<code(?:[ \t][^<>]*)?>([^<>`\n]*)<\/code>/gi;
// A capitalised tag inside a line: a component a site generator renders (VuePress' and VitePress'
// `<Badge text="Since 3.3" type="warning"/>` in a heading), or a type (`Promise<Result>`).
const CAPITALISED_TAG = /<(\/?)([A-Z][\w.]*)((?:[ \t][^<>\n]*?)?)[ \t]*(\/?)>/g;
const ATTRIBUTE = /[ \t][\w:.-]+=["'{]/;
// Hosts and paths that serve status badges (build, coverage, version, downloads, licence).
const BADGE_URL =
  /^(?:https?:)?\/\/(?:[\w-]+\.)*(?:shields\.io|badgen\.net|badge\.fury\.io|travis-ci\.(?:org|com)|circleci\.com|codecov\.io|coveralls\.io|snyk\.io|nodei\.co|david-dm\.org|img\.badgesize\.io|packagephobia\.com|bundlephobia\.com|app\.fossa\.(?:com|io)|api\.securityscorecards\.dev|bestpractices\.coreinfrastructure\.org|www\.bestpractices\.dev|deepscan\.io|codeclimate\.com|app\.codacy\.com|api\.codacy\.com|ci\.appveyor\.com|dev\.azure\.com|gitter\.im|badges\.gitter\.im|opencollective\.com\/[^/]+\/(?:backers|sponsors)\/badge)\/|\/badges?\/|[/.]badge(?:\.svg)?(?:[?#]|$)|\/workflows\/[^/]+\/badge\.svg/i;
const MASK_START = '\uE000';
const MASK_END = '\uE001';
const MASKED = /\uE000(\d+)\uE001/g;

/**
 * The link reference definitions of a Markdown text (outside code), by label normalised as
 * CommonMark does (case-folded, inner whitespace collapsed); the first definition of a label wins.
 */
export function linkDefinitions(markdown: string): Map<string, LinkDefinition> {
  return scanBlocks(normalise(markdown)).definitions;
}

/**
 * The Markdown with what is not content dropped (see the module's description). Reference
 * links and images are made inline with the definitions given (or found in the text), so they
 * keep working once the definitions are gone; a reference with no definition is left as written.
 */
export function cleanMarkdown(markdown: string, options: CleanOptions = {}): string {
  const scanned = scanBlocks(dropMetadataBlock(normalise(markdown)));
  const definitions = options.definitions ?? scanned.definitions;
  const out = scanned.blocks.map((block) => (block.kind === 'code' ? block.text : tidy(cleanText(block.text, definitions, options.linkTarget))));
  return out.join('\n').trimEnd().replace(/^\n+/, '');
}

/** One line of inline Markdown (a heading's text) cleaned the same way: tags, comments and badges out, reference links resolved. */
export function cleanInline(text: string, definitions: LinkDefinitions = new Map(), linkTarget?: CleanOptions['linkTarget']): string {
  return cleanText(normalise(text).replace(/\n+/g, ' '), definitions, linkTarget).replace(/\s+/g, ' ').trim();
}

function normalise(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/** A metadata block opening the text: YAML between `---` lines, or TOML between `+++` lines. */
function dropMetadataBlock(text: string): string {
  const match = /^(?:[ \t]*\n)*(---|\+\+\+)[ \t]*\n([^]*?)\n(?:---|\.\.\.|\+\+\+)[ \t]*(?:\n|$)/.exec(text);
  if (!match) return text;
  const yaml = match[1] === '---';
  const lines = match[2]!.split('\n').filter((line) => line.trim() !== '');
  const shape = yaml ? /^(?:[\w$"'-][^:\n]*:(?:[ \t]|$)|[ \t]+\S|-[ \t]|#)/ : /^(?:[\w"'.-]+[ \t]*=|\[|[ \t]+\S|#)/;
  return lines.length > 0 && lines.every((line) => shape.test(line)) ? text.slice(match[0].length) : text;
}

interface Block {
  kind: 'text' | 'code';
  text: string;
}

/**
 * Splits the text into runs of code (fenced blocks at any indentation, as in list items, and
 * indented blocks outside lists) and runs of text, dropping on the way what goes whole lines at
 * a time: HTML comments that open a block (they may hold fences), link reference definitions
 * (collected), ESM statements, component lines, admonition fences and generator markers.
 */
function scanBlocks(text: string): { blocks: Block[]; definitions: Map<string, LinkDefinition> } {
  const blocks: Block[] = [];
  const definitions = new Map<string, LinkDefinition>();
  const lines = text.split('\n');
  let current: Block | undefined;
  const push = (kind: Block['kind'], line: string): void => {
    if (current?.kind === kind) current.text += `\n${line}`;
    else blocks.push((current = { kind, text: line }));
  };
  let inList = false;
  let previousBlank = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const first = FIRST_CHARACTER.exec(line);
    const char = first ? line[first.index]! : '';
    const blank = char === '';
    const fence = (char === '`' || char === '~') && FENCE_OPEN.exec(line);
    if (fence && !(fence[2]![0] === '`' && fence[3]!.includes('`'))) {
      // A fence runs to a closing line of the same character at least as long, or to the end.
      const marker = fence[2]!;
      const close = new RegExp(`^[ \\t]*\\${marker[0]}{${marker.length},}[ \\t]*$`);
      let end = i + 1;
      while (end < lines.length && !close.test(lines[end]!)) end++;
      for (let j = i; j <= Math.min(end, lines.length - 1); j++) push('code', lines[j]!);
      i = end;
      previousBlank = false;
      continue;
    }
    if (!blank && previousBlank && !inList && i > 0 && first!.index > 0 && INDENTED.test(line)) {
      // An indented code block: it runs while lines stay indented or blank.
      let end = i;
      while (end + 1 < lines.length && (INDENTED.test(lines[end + 1]!) || lines[end + 1]!.trim() === '')) end++;
      while (end > i && lines[end]!.trim() === '') end--;
      for (let j = i; j <= end; j++) push('code', lines[j]!);
      i = end;
      previousBlank = false;
      continue;
    }
    if (char === '<' && first!.index <= 3 && line.startsWith('<!--', first!.index)) {
      // A comment opening a block hides everything to its end, fences included; an unclosed one, the rest.
      const start = first!.index;
      let end = i;
      let close = line.indexOf('-->', start + 4);
      while (close < 0 && ++end < lines.length) close = lines[end]!.indexOf('-->');
      if (close < 0) break;
      const rest = line.slice(0, start) + lines[end]!.slice(close + 3).trimStart();
      i = end;
      if (rest.trim() !== '') {
        // Text after the comment on its closing line is read again as a line of its own.
        lines[i] = rest;
        i--;
      } else {
        previousBlank = true;
      }
      continue;
    }
    const definition = char === '[' ? readDefinition(lines, i) : undefined;
    if (definition) {
      if (!definitions.has(definition.label)) definitions.set(definition.label, definition.definition);
      i += definition.lines - 1;
      continue;
    }
    if (previousBlank && (char === 'i' || char === 'e') && (ESM_IMPORT.test(line) || ESM_EXPORT.test(line))) {
      i = esmEnd(lines, i);
      previousBlank = true;
      continue;
    }
    if ((char === '<' && COMPONENT_LINE.test(line)) || ((char === '{' || char === '[') && (JSX_COMMENT_LINE.test(line) || GENERATOR_LINE.test(line)))) continue;
    const componentEnd = char === '<' && COMPONENT_OPEN.test(line) ? tagEnd(lines, i, first!.index) : undefined;
    if (componentEnd !== undefined) {
      i = componentEnd;
      continue;
    }
    const admonition = char === ':' && ADMONITION.exec(line);
    if (admonition) {
      const attribute = admonition[5] === undefined ? undefined : TITLE_ATTRIBUTE.exec(admonition[5]);
      const title = (admonition[3] ?? admonition[4] ?? attribute?.[1] ?? attribute?.[2] ?? '').trim() || (admonition[2] ? capitalise(admonition[2]) : '');
      // Indented as its line is, so an admonition inside a list item stays in that item.
      if (title) push('text', `\n${admonition[1]}**${title}**\n`);
      previousBlank = true;
      continue;
    }
    const alert = char === '>' && GITHUB_ALERT.exec(line);
    push('text', alert ? `${alert[1]}**${capitalise(alert[2]!.toLowerCase())}**` : line);
    if (LIST_ITEM.test(line)) inList = true;
    else if (!blank && previousBlank && first!.index === 0) inList = false;
    previousBlank = blank;
  }
  return { blocks, definitions };
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A definition starting at line `i`: its normalised label, URL and title, and how many lines it takes. */
function readDefinition(lines: string[], i: number): { label: string; definition: LinkDefinition; lines: number } | undefined {
  const match = DEFINITION.exec(lines[i]!);
  if (!match) return undefined;
  const label = normaliseLabel(match[1]!);
  // `[^1]: ...` is a footnote, which is content.
  if (!label || label.startsWith('^')) return undefined;
  let title = match[3];
  let count = 1;
  if (!title && i + 1 < lines.length) {
    const next = DEFINITION_TITLE.exec(lines[i + 1]!);
    if (next) {
      title = next[1];
      count = 2;
    }
  }
  const url = match[2]!.replace(/^<|>$/g, '');
  return { label, definition: title ? { url, title: title.slice(1, -1) } : { url }, lines: count };
}

function normaliseLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The line a component tag opening line `i` (at `start`) ends on, when it runs over several lines
 * and nothing but component tags follows it on that line; else undefined (text, kept). Quotes,
 * template literals and braces in its attributes are skipped whole, blank lines in them too.
 */
function tagEnd(lines: string[], i: number, start: number): number | undefined {
  let quote = '';
  let depth = 0;
  for (let j = i; j < lines.length && j < i + TAG_LINES; j++) {
    const line = lines[j]!;
    for (let k = j === i ? start + 1 : 0; k < line.length; k++) {
      const char = line[k]!;
      if (quote) {
        if (char === '\\') k++;
        else if (char === quote) quote = '';
      } else if (char === '"' || char === "'" || char === '`') {
        quote = char;
      } else if (char === '{') {
        depth++;
      } else if (char === '}') {
        depth--;
      } else if (char === '<' && depth === 0) {
        return undefined;
      } else if (char === '>' && depth === 0) {
        if (j === i) return undefined;
        const rest = line.slice(k + 1);
        return rest.trim() === '' || COMPONENT_LINE.test(rest) ? j : undefined;
      }
    }
    // Outside a string or braces, a blank line ends the paragraph: this was no tag.
    if (!quote && depth === 0 && j > i && line.trim() === '') return undefined;
  }
  return undefined;
}

/** The last line of an ESM statement starting at line `i`: where its brackets close and it does not go on (a blank line ends it anyway). */
function esmEnd(lines: string[], i: number): number {
  let depth = 0;
  for (let j = i; j < lines.length; j++) {
    if (j > i && lines[j]!.trim() === '') return j - 1;
    for (const char of lines[j]!) {
      if (char === '{' || char === '(' || char === '[') depth++;
      else if (char === '}' || char === ')' || char === ']') depth--;
    }
    if (depth <= 0 && !/(?:,|=|=>|\bfrom|\{)\s*$/.test(lines[j]!.trimEnd())) return j;
  }
  return lines.length - 1;
}

/**
 * Cleans a run of text lines: code spans and backslash escapes are masked first, so nothing
 * inside them is read as a tag, a comment or a link; then comments, tags, badges and reference
 * links are handled on what is left.
 */
function cleanText(text: string, definitions: LinkDefinitions, linkTarget?: CleanOptions['linkTarget']): string {
  const kept: string[] = [];
  const mask = (value: string): string => `${MASK_START}${kept.push(value) - 1}${MASK_END}`;
  const unmask = (value: string): string => value.replace(MASKED, (_, n: string) => kept[Number(n)]!);
  let masked = maskCode(text, mask);
  if (masked.includes('<')) {
    masked = dropElements(masked, ['script', 'style', 'svg', 'template']);
    masked = preToFences(masked, mask);
    masked = anchorsToLinks(masked)
      .replace(CODE_ELEMENT, (_, code: string) => mask(`\`${decodeEntities(code)}\``))
      .replace(/<br[ \t]*\/?>/gi, ' ')
      .replace(HTML_TAG, '');
    if (/<\/?[A-Z]/.test(masked)) masked = dropComponentTags(masked);
  }
  if (masked.includes('[')) masked = dropBadges(resolveReferences(masked, definitions, unmask));
  if (linkTarget && masked.includes('](')) masked = relink(masked, linkTarget, unmask);
  return unmask(masked);
}

/**
 * The text without the component tags a site would render: a capitalised tag with an attribute
 * (`name="..."`), closing itself, or one of a pair around text (`<Badge>New</Badge>`); their
 * text is kept. A bare capitalised name in angle brackets with no closing tag is a type
 * (`Promise<Result>`, `Array<T>`) and stays.
 */
function dropComponentTags(text: string): string {
  return text.replace(CAPITALISED_TAG, (tag: string, closing: string, name: string, attributes: string, selfClosing: string, at: number) => {
    if (selfClosing || ATTRIBUTE.test(attributes)) return '';
    const paired = closing ? text.lastIndexOf(`<${name}`, at) >= 0 : text.includes(`</${name}>`, at);
    return paired ? '' : tag;
  });
}

/**
 * Replaces code spans, backslash escapes and stray mask characters with masks, and drops
 * comments that start inside the text (a code span that starts first wins, as in CommonMark).
 * An unclosed comment hides the rest of its paragraph.
 */
function maskCode(text: string, mask: (value: string) => string): string {
  const special = /[\\`<\-\uE000\uE001]/g;
  let out = '';
  let from = 0;
  let paragraph = -1;
  const paragraphEnd = (i: number): number => (paragraph >= i ? paragraph : (paragraph = nextBlankLine(text, i)));
  for (let found = special.exec(text); found; found = special.exec(text)) {
    const i = found.index;
    const char = found[0];
    let skip = -1;
    let replacement = '';
    if (char === '\\') {
      if (i + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[i + 1]!)) {
        replacement = mask(text.slice(i, i + 2));
        skip = i + 2;
      }
    } else if (char === '`') {
      let run = 1;
      while (text[i + run] === '`') run++;
      const close = closingRun(text, i + run, run, paragraphEnd(i));
      replacement = close < 0 ? text.slice(i, i + run) : mask(text.slice(i, close + run));
      skip = close < 0 ? i + run : close + run;
    } else if (char === '-') {
      // The end of a comment that did not start here (comments do not nest): no text either.
      if (text.startsWith('-->', i)) skip = i + 3;
    } else if (char === '<') {
      if (text.startsWith('<!--', i)) {
        const close = text.indexOf('-->', i + 4);
        const end = paragraphEnd(i);
        skip = close >= 0 && close < end ? close + 3 : end;
      }
    } else {
      replacement = mask(char);
      skip = i + 1;
    }
    if (skip < 0) continue;
    out += text.slice(from, i) + replacement;
    from = skip;
    special.lastIndex = skip;
  }
  return out + text.slice(from);
}

/** Elements whose content is no text for a reader (scripts, styles, drawings), dropped with it. */
function dropElements(text: string, names: string[]): string {
  for (const name of names) {
    const open = new RegExp(`<${name}(?=[ \\t\\n/>])`, 'gi');
    const closing = new RegExp(`</${name}[ \\t]*>`, 'gi');
    let out = '';
    let from = 0;
    for (let start = text.search(open); start >= 0; ) {
      closing.lastIndex = start;
      const close = closing.exec(text);
      // An element left open runs to the end, as a browser reads it.
      const end = close ? close.index + close[0].length : text.length;
      out += text.slice(from, start);
      from = end;
      open.lastIndex = end;
      start = open.exec(text)?.index ?? -1;
    }
    text = out + text.slice(from);
  }
  return text;
}

/** `<pre>` (with or without `<code>`) opening a line becomes a fenced code block, its entities decoded. */
function preToFences(text: string, mask: (value: string) => string): string {
  const open = /^([ \t]*)<pre(?:[ \t][^<>\n]*)?>(?:<code(?:[ \t][^<>\n]*)?>)?/gim;
  const close = /(?:<\/code>)?<\/pre[ \t]*>/gi;
  let out = '';
  let from = 0;
  for (let match = open.exec(text); match; match = open.exec(text)) {
    close.lastIndex = open.lastIndex;
    const end = close.exec(text);
    if (!end) break;
    const code = decodeEntities(text.slice(open.lastIndex, end.index).replace(/^\n|\n$/g, ''));
    const fence = '`'.repeat(Math.max(3, ...[...code.matchAll(/`+/g)].map((run) => run[0].length + 1)));
    out += text.slice(from, match.index) + match[1] + mask(`${fence}\n${code}\n${fence}`);
    from = close.lastIndex;
    open.lastIndex = from;
  }
  return out + text.slice(from);
}

/** `<a href="https://...">text</a>` becomes a Markdown link; other anchors (`<a id="x"></a>`, relative links) leave their text only. */
function anchorsToLinks(text: string): string {
  const open = /<a(?=[ \t\n>])(?:[^<>"']|"[^"<>]*"|'[^'<>]*')*>/gi;
  const next = /<a[ \t\n>]/gi;
  const closing = /<\/a[ \t]*>/gi;
  let out = '';
  let from = 0;
  for (let match = open.exec(text); match; match = open.exec(text)) {
    closing.lastIndex = open.lastIndex;
    const close = closing.exec(text);
    if (!close) break;
    next.lastIndex = open.lastIndex;
    const following = next.exec(text);
    out += text.slice(from, match.index);
    from = open.lastIndex;
    // An anchor with another one before its end tag is left open: only its tag goes.
    if (following && following.index < close.index) continue;
    const inner = text.slice(open.lastIndex, close.index);
    const href = HREF.exec(match[0]);
    const url = href ? (href[1] ?? href[2])! : '';
    const label = inner.replace(HTML_TAG, '').trim();
    out += /^https?:\/\//i.test(url) && label ? `[${label}](${url.replace(/[ ()]/g, encodeURIComponent)})` : inner;
    from = closing.lastIndex;
    open.lastIndex = from;
  }
  return (out + text.slice(from)).replace(open, '').replace(closing, '');
}

/** An HTML element's text as a browser reads it: its character references decoded by HTML's rules (a few legacy names need no `;`). */
function decodeEntities(text: string): string {
  return text.includes('&') ? decodeHTML(text) : text;
}

/** `[text][label]`, `[text][]`, `[label]` and their image forms, made inline where the label is defined. */
function resolveReferences(text: string, definitions: LinkDefinitions, unmask: (value: string) => string): string {
  if (definitions.size === 0) return text;
  const target = (label: string): string | undefined => {
    const found = definitions.get(normaliseLabel(unmask(label)));
    if (!found) return undefined;
    const url = /[\s()<>]/.test(found.url) ? `<${found.url.replace(/[<>]/g, encodeURIComponent)}>` : found.url;
    return found.title ? `(${url} "${found.title.replace(/"/g, '\\"')}")` : `(${url})`;
  };
  // Link text may hold one level of brackets (an image inside a link).
  const full = /(!?)\[((?:[^[\]\n]|\n(?![ \t]*\n)|\[[^[\]\n]{0,999}\]){0,999})\]\[([^[\]\n]{0,999})\]/g;
  const resolveFull = (source: string, depth: number): string =>
    source.replace(full, (match, bang: string, inner: string, label: string) => {
      const url = target(label || inner);
      // The text of a link may hold an image reference (a badge): one level down.
      const text = depth > 0 && inner.includes('[') ? resolveFull(inner, depth - 1) : inner;
      return url ? `${bang}[${text}]${url}` : match.replace(inner, text);
    });
  let resolved = resolveFull(text, 1);
  // A shortcut `[label]` is a link when defined and not followed by what would make it another construct.
  resolved = resolved.replace(/(^|[^\]\\])(!?)\[([^[\]\n]{1,999})\](?![[(:])/g, (match, before: string, bang: string, label: string) => {
    const url = target(label);
    return url ? `${before}${bang}[${label}]${url}` : match;
  });
  return resolved;
}

/**
 * Inline links and images with their targets as `linkTarget` gives them; one it cannot place
 * keeps its text (an image its alt text). A link's text may hold one image (a link around a
 * picture), which is placed too.
 */
function relink(text: string, linkTarget: (target: string) => string | undefined, unmask: (value: string) => string): string {
  const INLINE = /(!?)\[((?:[^[\]\n]|\[[^[\]\n]{0,999}\]){0,999})\]\((?:<([^>\n]*)>|([^()\s]*))((?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'))?)\)/g;
  const place = (source: string, depth: number): string =>
    source.replace(INLINE, (match, bang: string, inner: string, angled: string | undefined, bare: string | undefined, title: string) => {
      const text = depth > 0 && inner.includes('](') ? place(inner, depth - 1) : inner;
      const written = unmask(angled ?? bare ?? '');
      if (written === '') return match;
      const url = linkTarget(written);
      if (url === undefined) return text;
      const target = /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
      return `${bang}[${text}](${target}${title})`;
    });
  return place(text, 1);
}

/** Badge images, alone or as the content of a link, with their link. */
function dropBadges(text: string): string {
  if (!text.includes('![')) return text;
  const IMAGE = String.raw`!\[[^[\]\n]{0,999}\]\((?:<([^>\n]*)>|([^()\s]*))(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'))?\)`;
  const isBadge = (a?: string, b?: string): boolean => BADGE_URL.test((a ?? b ?? '').trim());
  return text
    .replace(new RegExp(String.raw`\[[ \t]*${IMAGE}[ \t]*\]\((?:<[^>\n]*>|[^()\s]*)(?:[ \t]+"[^"\n]*")?\)`, 'g'), (match, a?: string, b?: string) =>
      isBadge(a, b) ? '' : match,
    )
    .replace(new RegExp(IMAGE, 'g'), (match, a?: string, b?: string) => (isBadge(a, b) ? '' : match));
}

/** Lines left empty by the cleaning become blank, and blank lines are kept single. */
function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.trim() === '' ? '' : line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}
