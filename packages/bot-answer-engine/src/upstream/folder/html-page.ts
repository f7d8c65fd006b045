import type { ChildNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';

/** A built HTML page as the folder reader takes it: its main content as Markdown, and what the page says of itself. */
export interface HtmlPage {
  /** The main content as Markdown: headings carry their anchor as an explicit id (`## Install {#install}`). */
  markdown: string;
  /** The `<h1>`, else the `<title>` without the site's suffix. */
  title?: string;
  /** `<link rel="canonical">`, when it is an absolute http(s) URL. */
  canonical?: string;
  /** The anchors of the headings written (their ids on the page). */
  ids: ReadonlySet<string>;
}

// What a page shows around its content, never the content itself.
const DROPPED_TAGS = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed', 'video', 'audio',
  'form', 'button', 'input', 'select', 'textarea', 'label', 'dialog', 'nav', 'aside', 'footer', 'header', 'head', 'link', 'meta',
]);
const DROPPED_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog', 'menu', 'menubar', 'toolbar']);
// A class or id naming chrome: a word of it (between `-`, `_` or the ends) is one of these.
const CHROME_WORD =
  /(?:^|[-_])(?:nav|navbar|navigation|sidebar|sidenav|menu|breadcrumbs?|cookies?|consent|gdpr|banner|announcement|footer|header|masthead|toc|toctree|tocs|pagination|pager|prev-?next|header-?link|hash-?link|anchor-?link|perma-?link|skip|feedback|share|social|edit|editlink|advert|ads|newsletter|related|rating|version-?switcher|search|linenos|linenodiv)(?:$|[-_])/i;
const MAIN_SELECTORS: Array<(el: Element) => boolean> = [
  (el) => el.name === 'main' || el.attribs.role === 'main',
  (el) => el.name === 'article',
];
const BLOCK_TAGS = new Set([
  'address', 'article', 'blockquote', 'body', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'hr', 'html', 'li', 'main', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'center',
  'header', 'footer', 'nav', 'aside', 'form', 'hgroup',
]);
// The text of a heading's permalink anchor (Sphinx's ¶, Docusaurus's #): a mark, not words.
const PERMALINK_TEXT = /^[\s#¶§🔗]*$/u;
const HEADING_TAG = /^h([1-6])$/;
const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang|highlight)-([\w+#.-]+)/;
const TITLE_SEPARATOR = /\s+(?:[|·•»:–—-]{1,2})\s+/;
const SAFE_LINK = /^(?:https?:|mailto:|#|\/|\.|[^:]*$)/i;
// Readability's measure, for pages that mark no main content: a block mostly made of links is navigation.
const LINK_DENSE = 0.6;
const MAX_NESTING = 200;

/**
 * Reads a built HTML page (any generator's output): parses it (htmlparser2, forgiving of any
 * markup), takes its main content (`<main>`, `[role=main]`, a single `<article>`; else the
 * body less its link-dense blocks), drops the chrome around and inside it (navigation,
 * header, footer, sidebars, cookie banners, "edit this page" and permalink anchors, scripts,
 * styles, forms), and writes what is left as Markdown: headings with their anchor id, code
 * blocks fenced with their text as is, tables as pipe tables, links resolved against
 * `pageUrl` when it is known. Nothing of the page is executed.
 */
export function readHtmlPage(html: string, pageUrl?: string): HtmlPage {
  const document = parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  const elements = descendants(document.children);
  const canonicalHref = elements.find((el) => el.name === 'link' && /(?:^|\s)canonical(?:\s|$)/i.test(el.attribs.rel ?? '') && el.attribs.href)?.attribs.href;
  const canonical = absoluteHttp(canonicalHref, pageUrl);
  const base = canonical ?? pageUrl;
  const body = elements.find((el) => el.name === 'body') ?? document;
  let main: Element | undefined;
  for (const matches of MAIN_SELECTORS) {
    const found = elements.filter(matches);
    if (found.length === 1 || (found.length > 1 && matches === MAIN_SELECTORS[0])) {
      main = found[0];
      break;
    }
  }
  // A theme's <main> may hold the sidebars beside one <article>: the article is the page.
  const articles = main ? descendants(main.children).filter((el) => el.name === 'article') : [];
  if (main && articles.length === 1) main = articles[0];
  const writer = new MarkdownWriter(base, !main);
  const markdown = writer.blocks(main ? main.children : body.children).trim();
  const h1 = writer.firstH1;
  const titleElement = elements.find((el) => el.name === 'title');
  const pageTitle = titleElement ? withoutSiteSuffix(collapse(textOf(titleElement.children))) : undefined;
  const title = h1 || pageTitle || undefined;
  return { markdown, ...(title ? { title } : {}), ...(canonical ? { canonical } : {}), ids: writer.ids };
}

/** `Install – Pino docs` is "Install": the part before the last separator, when it has one. */
function withoutSiteSuffix(title: string): string {
  const parts = title.split(TITLE_SEPARATOR);
  return parts.length > 1 ? parts.slice(0, -1).join(' - ').trim() : title;
}

/** Turns a page's content nodes into Markdown, dropping chrome. */
class MarkdownWriter {
  /** The text of the first `<h1>` written. */
  firstH1 = '';
  /** The ids of the headings written. */
  readonly ids = new Set<string>();
  readonly #base: string | undefined;
  readonly #guessing: boolean;
  #nesting = 0;

  constructor(base: string | undefined, guessing: boolean) {
    this.#base = base;
    this.#guessing = guessing;
  }

  /** Block content: paragraphs, headings, lists, code, tables; separated by blank lines. */
  blocks(nodes: ChildNode[], depth = 0): string {
    const out: string[] = [];
    let inline = '';
    const flushInline = (): void => {
      const text = collapse(inline);
      if (text) out.push(escapeBlockStart(text));
      inline = '';
    };
    for (const node of nodes) {
      if (node.type === 'text') {
        inline += node.data;
        continue;
      }
      if (!isElement(node)) continue;
      if (this.#dropped(node)) continue;
      if (!BLOCK_TAGS.has(node.name)) {
        inline += this.inline([node]);
        continue;
      }
      flushInline();
      const block = this.#block(node, depth);
      if (block.trim()) out.push(block);
    }
    flushInline();
    return out.join('\n\n');
  }

  #block(el: Element, depth: number): string {
    // Malformed pages can nest thousands of elements deep: past a sane depth, their text is taken as is.
    if (this.#nesting >= MAX_NESTING) return escapeBlockStart(collapse(textOf(el.children)));
    this.#nesting++;
    try {
      return this.#blockWithin(el, depth);
    } finally {
      this.#nesting--;
    }
  }

  #blockWithin(el: Element, depth: number): string {
    const heading = HEADING_TAG.exec(el.name);
    if (heading) {
      const text = collapse(this.inline(el.children)).replace(/#+$/, '').trim();
      if (!text) return '';
      const level = Number(heading[1]);
      if (level === 1 && !this.firstH1) this.firstH1 = plain(text);
      const id = headingId(el);
      if (id) this.ids.add(id);
      return `${'#'.repeat(level)} ${text}${id ? ` {#${id}}` : ''}`;
    }
    switch (el.name) {
      case 'p':
      case 'dt':
      case 'summary':
      case 'figcaption':
        return escapeBlockStart(collapse(this.inline(el.children)));
      case 'pre':
        return fenced(el);
      case 'ul':
      case 'ol':
        return this.#list(el, depth);
      case 'table':
        // A table around code is layout (Pygments' line-numbered blocks), not data.
        return descendants(el.children).some((child) => child.name === 'pre') ? this.blocks(el.children, depth) : this.#table(el);
      case 'blockquote':
        return this.blocks(el.children, depth)
          .split('\n')
          .map((line) => (line ? `> ${line}` : '>'))
          .join('\n');
      case 'hr':
        return '---';
      default:
        return this.blocks(el.children, depth);
    }
  }

  #list(el: Element, depth: number): string {
    const ordered = el.name === 'ol';
    let n = Number(el.attribs.start ?? 1) || 1;
    const items: string[] = [];
    for (const child of el.children) {
      if (!isElement(child) || child.name !== 'li' || this.#dropped(child)) continue;
      const marker = ordered ? `${n++}. ` : '- ';
      const body = this.blocks(child.children, depth + 1).replace(/\n\n+/g, '\n');
      if (!body.trim()) continue;
      const pad = ' '.repeat(marker.length);
      items.push(marker + body.split('\n').join(`\n${pad}`));
    }
    return items.join('\n');
  }

  #table(el: Element): string {
    const rows = descendants(el.children).filter((row) => row.name === 'tr');
    const cells = rows.map((row) =>
      row.children.filter((c): c is Element => isElement(c) && (c.name === 'td' || c.name === 'th')).map((c) => collapse(this.inline(c.children)).replace(/\|/g, '\\|')),
    );
    const width = Math.max(0, ...cells.map((r) => r.length));
    if (width === 0) return '';
    const line = (r: string[]): string => `| ${Array.from({ length: width }, (_, i) => r[i] ?? '').join(' | ')} |`;
    const [head, ...rest] = cells;
    return [line(head!), line(Array.from({ length: width }, () => '---')), ...rest.map(line)].join('\n');
  }

  /** Inline content as one line of Markdown (blocks inside are run together with spaces). */
  inline(nodes: ChildNode[]): string {
    if (this.#nesting >= MAX_NESTING) return textOf(nodes);
    this.#nesting++;
    try {
      return this.#inlineWithin(nodes);
    } finally {
      this.#nesting--;
    }
  }

  #inlineWithin(nodes: ChildNode[]): string {
    let out = '';
    for (const node of nodes) {
      if (node.type === 'text') {
        out += node.data;
        continue;
      }
      if (!isElement(node) || this.#dropped(node)) continue;
      switch (node.name) {
        case 'br':
          out += ' ';
          break;
        case 'code':
        case 'kbd':
        case 'samp':
        case 'tt': {
          const code = collapse(textOf(node.children));
          if (code) out += codeSpan(code);
          break;
        }
        case 'strong':
        case 'b':
          out += emphasised(this.inline(node.children), '**');
          break;
        case 'em':
        case 'i':
          out += emphasised(this.inline(node.children), '_');
          break;
        case 'a': {
          const text = collapse(this.inline(node.children));
          if (PERMALINK_TEXT.test(text)) break;
          const href = this.#href(node.attribs.href);
          out += text && href ? `[${text.replace(/[[\]]/g, '\\$&')}](${href})` : text;
          break;
        }
        case 'img':
          if (node.attribs.alt) out += node.attribs.alt;
          break;
        default:
          out += BLOCK_TAGS.has(node.name) ? ` ${this.inline(node.children)} ` : this.inline(node.children);
      }
    }
    return out;
  }

  #href(href: string | undefined): string | undefined {
    const target = href?.trim();
    if (!target || !SAFE_LINK.test(target)) return undefined;
    if (this.#base && !/^mailto:/i.test(target)) {
      try {
        return encodeParens(new URL(target, this.#base).href);
      } catch {
        return undefined;
      }
    }
    return encodeParens(target);
  }

  /** Whether an element is chrome, not content: dropped with all it holds (unless it holds the page's `<h1>`, as an article's own `<header>` does). */
  #dropped(el: Element): boolean {
    const a = el.attribs;
    const chrome =
      DROPPED_TAGS.has(el.name) ||
      DROPPED_ROLES.has(a.role ?? '') ||
      // Hidden blocks are menus and dialogs, except tab panels (Docusaurus hides all tabs but one): their text is content.
      ((a.hidden !== undefined || /display\s*:\s*none/i.test(a.style ?? '')) && a.role !== 'tabpanel') ||
      a['aria-hidden'] === 'true' ||
      (a.class ?? '').split(/\s+/).some((word) => CHROME_WORD.test(word)) ||
      CHROME_WORD.test(a.id ?? '');
    if (chrome) return el.name === 'head' || el.name === 'script' || el.name === 'style' || !holdsH1(el);
    if (this.#guessing && (el.name === 'div' || el.name === 'ul' || el.name === 'ol' || el.name === 'section' || el.name === 'table')) return linkDense(el);
    return false;
  }
}

/** A heading's anchor: its own id, a permalink anchor's id inside it, or the id of the section it opens. */
function headingId(el: Element): string | undefined {
  const anchor = descendants(el.children).find((a) => a.name === 'a' && (a.attribs.id || a.attribs.name));
  const id = el.attribs.id || anchor?.attribs.id || anchor?.attribs.name;
  if (id) return safeId(id);
  const parent = el.parent;
  if (parent && isElement(parent) && parent.attribs.id && parent.children.find(isElement) === el) return safeId(parent.attribs.id);
  return undefined;
}

/** Ids as headings' explicit ids can be written (`{#id}`): other characters are left out, as they would end it. */
function safeId(id: string): string | undefined {
  const safe = id.replace(/[^\w.:-]/g, '');
  return safe || undefined;
}

function fenced(pre: Element): string {
  const code = descendants(pre.children).find((el) => el.name === 'code');
  // The language is named on the block or around it: Sphinx writes `<div class="highlight-python"><div class="highlight"><pre>`.
  const around = [pre.parent, pre.parent?.parent].map((node) => (node && isElement(node) ? (node.attribs.class ?? '') : ''));
  const classes = `${pre.attribs.class ?? ''} ${code?.attribs.class ?? ''} ${around.join(' ')}`;
  const language = LANGUAGE_CLASS.exec(classes)?.[1] ?? '';
  const text = textOf(pre.children).replace(/^\n/, '').replace(/\s+$/, '');
  if (!text) return '';
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** Text marked as emphasis, the spaces at its ends kept outside the marks (`a<b> b</b>` is `a **b**`). */
function emphasised(raw: string, mark: string): string {
  const text = collapse(raw);
  if (!text) return raw;
  return `${/^\s/.test(raw) ? ' ' : ''}${mark}${text}${mark}${/\s$/.test(raw) ? ' ' : ''}`;
}

function codeSpan(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return longest ? `${ticks} ${code} ${ticks}` : `${ticks}${code}${ticks}`;
}

/** A paragraph whose first characters would read as a Markdown block (a heading, a list, a quote) is escaped. */
function escapeBlockStart(text: string): string {
  return text.replace(/^(#{1,6}(?=\s|$)|[>+*-](?=\s)|\d+[.)](?=\s)|[=-]{3,}$|`{3,}|~{3,}|:::)/, '\\$1');
}

function encodeParens(url: string): string {
  return url.replace(/[()\s]/g, (c) => encodeURIComponent(c));
}

function absoluteHttp(href: string | undefined, base: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function linkDense(el: Element): boolean {
  const all = collapse(textOf(el.children)).length;
  if (all === 0) return false;
  const links = descendants(el.children).filter((a) => a.name === 'a');
  if (links.length < 3) return false;
  const linked = links.reduce((sum, a) => sum + collapse(textOf(a.children)).length, 0);
  return linked / all >= LINK_DENSE;
}

function holdsH1(el: Element): boolean {
  return descendants(el.children).some((child) => child.name === 'h1');
}

function isElement(node: ChildNode | { type: string }): node is Element {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

/** Every element under these nodes, in document order (iteratively: a deeply nested page cannot overflow the stack). */
function descendants(nodes: ChildNode[]): Element[] {
  const out: Element[] = [];
  const stack: ChildNode[] = [...nodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

function textOf(nodes: ChildNode[]): string {
  let out = '';
  const stack: ChildNode[] = [...nodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'text') out += node.data;
    else if (isElement(node) && node.name !== 'script' && node.name !== 'style') {
      if (node.name === 'br') out += '\n';
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  return out;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Heading text as a reader sees it, for the title. */
function plain(markdown: string): string {
  return markdown.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\*\*|`/g, '').replace(/(^|\s)_(\S[^_]*\S|\S)_(?=\s|$)/g, '$1$2').replace(/\\([[\]])/g, '$1').trim();
}
