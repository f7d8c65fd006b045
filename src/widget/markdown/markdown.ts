import { Marked, type Token, type Tokens, type TokensList } from 'marked';
import { SAFE_URL, sanitize } from './sanitizer.js';

/** Reference-link definitions (`[label]: url`) known so far, as marked stores them. */
export type Links = TokensList['links'];

/** Options for rendering. */
export interface RenderOptions {
  /** Render `![alt](https://...)` as `<img>`; otherwise it becomes a link to the image (or its alt text). */
  images?: boolean;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `encodeURI` as marked's own renderer does it; null for a URL it cannot encode or a scheme we do not allow. */
function safeHref(href: string, https?: boolean): string | null {
  try {
    href = encodeURI(href).replace(/%25/g, '%');
  } catch {
    return null;
  }
  return (https ? /^https:/i : SAFE_URL).test(href) ? esc(href) : null;
}

let images = false;

const md = new Marked({
  gfm: true,
  renderer: {
    // Raw HTML in the Markdown is shown as text, never passed through.
    html: ({ text, block }: Tokens.HTML | Tokens.Tag) => (block ? `<p>${esc(text.trim())}</p>\n` : esc(text)),
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      const h = safeHref(href);
      return h ? `<a href="${h}"${title ? ` title="${esc(title)}"` : ''}>${text}</a>` : text;
    },
    image({ href, title, text }) {
      const h = safeHref(href, images);
      if (!h) return esc(text);
      return images
        ? `<img src="${h}" alt="${esc(text)}"${title ? ` title="${esc(title)}"` : ''}>`
        : `<a href="${h}">${esc(text || href)}</a>`;
    },
    code({ text, lang }) {
      const l = /^[\w+#-]{1,32}/.exec(lang ?? '')?.[0];
      return `<pre tabindex="0"><code${l ? ` class="language-${l}"` : ''}>${esc(text)}\n</code></pre>\n`;
    },
    // No <input> in answers: a task-list box is a character.
    checkbox: ({ checked }) => (checked ? '\u2611 ' : '\u2610 '),
  },
  extensions: [
    {
      name: 'citation',
      level: 'inline',
      start: (src: string) => src.indexOf('[['),
      tokenizer(src: string) {
        const m = /^\[\[(\d{1,4})\]\]\((https?:\/\/[^\s()<>]+)\)/i.exec(src);
        return m ? { type: 'citation', raw: m[0], n: m[1], href: m[2] } : undefined;
      },
      renderer(t) {
        const h = safeHref(t.href as string);
        return h ? `<sup><a class="citation" href="${h}" data-citation="${t.n}">${t.n}</a></sup>` : `[${t.n}]`;
      },
    },
  ],
});

/**
 * Lexes Markdown with a fresh lexer (an instance accumulates state), seeded with reference-link
 * definitions already seen earlier in the same answer.
 */
export function lex(src: string, links?: Links): TokensList {
  const lexer = new md.Lexer(md.defaults);
  if (links) Object.assign(lexer.tokens.links, links);
  return lexer.lex(src);
}

/** Adds the reference-link definitions found in `tokens` (at any depth) to `links`; the first definition wins, as in marked. */
export function collectLinks(tokens: Token[], links: Links): Links {
  md.walkTokens(tokens, (t) => {
    if (t.type === 'def') links[t.tag] ??= { href: t.href, title: t.title };
  });
  return links;
}

/** Renders tokens from {@link lex} to a sanitised fragment. */
export function renderTokens(tokens: Token[], opts: RenderOptions = {}): DocumentFragment {
  images = !!opts.images;
  return sanitize(md.parser(tokens), images);
}

// Beyond these caps the text is shown as plain text. Measured in Chromium: marked's cost grows with the square of
// list depth (256 levels: 100-175 ms) and of emphasis/link delimiters within one block (20,000 '_a': 430 ms).
const MAX_LENGTH = 200_000;
const MAX_DELIMS = 3000;
const TOO_DEEP = /^(?:[ \t]*(?:>|[-*+][ \t]|\d{1,9}[.)][ \t])){16}|^[ \t]{64,}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/m;

/**
 * True when the text is beyond the renderer's caps and must be shown as plain text: longer than
 * 200,000 characters, more than 15 container levels on one line, a list item indented 64 columns, or
 * more than 3,000 emphasis/link/code delimiters in one block (text between blank lines).
 */
export function exceedsCaps(src: string): boolean {
  return (
    src.length > MAX_LENGTH ||
    TOO_DEEP.test(src) ||
    src.split(/\n[ \t]*\n/).some((b) => b.length > MAX_DELIMS && (b.match(/[_*~[`]/g)?.length ?? 0) > MAX_DELIMS)
  );
}

/** The plain-text fallback: a paragraph holding the text as a text node. */
export function plainText(src: string): DocumentFragment {
  const f = document.createDocumentFragment();
  f.append(document.createElement('p'));
  f.firstChild!.textContent = src;
  return f;
}

/**
 * Renders a whole Markdown answer at once: marked (GFM, raw HTML escaped, inline citations
 * `[[n]](https://...)` as `<sup><a class="citation" data-citation="n">`), then DOMPurify.
 * Input beyond the caps ({@link exceedsCaps}) comes back as plain text.
 */
export function renderMarkdown(src: string, opts?: RenderOptions): DocumentFragment {
  return exceedsCaps(src) ? plainText(src) : renderTokens(lex(src), opts);
}
