import { Marked, type Token, type Tokens, type TokensList } from 'marked';
import { SAFE_URL, sanitize } from './sanitizer.js';

/** Reference-link definitions (`[label]: url`) known so far, as marked stores them. */
export type Links = TokensList['links'];

/** Options for rendering. */
export interface RenderOptions {
  /** Render `![alt](https://...)` as `<img>`; otherwise it becomes a link to the image (or its alt text). */
  images?: boolean;
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A configured marked: GFM, raw HTML as text, safe links only, images only with `images`, inline citations. */
const createMarked = (images: boolean) =>
  new Marked({
    gfm: true,
    // `false` hands over to marked's own renderer (which encodes and escapes URLs); DOMPurify checks schemes again.
    renderer: {
      // Raw HTML in the Markdown is shown as text, never passed through.
      html: ({ text, block }: Tokens.HTML | Tokens.Tag) => (block ? `<p>${esc(text.trim())}</p>\n` : esc(text)),
      // A link with another scheme, or a relative one, shows its text only.
      link({ href, tokens }) {
        return !SAFE_URL.test(href) && this.parser.parseInline(tokens);
      },
      // An image only when allowed and https; otherwise a link to it, or its text.
      image({ href, text }) {
        return images && /^https:/i.test(href) ? false : SAFE_URL.test(href) ? `<a href="${esc(href)}">${esc(text || href)}</a>` : esc(text);
      },
      // No <input> in answers: a task-list box is a character.
      checkbox: ({ checked }) => (checked ? '\u2611 ' : '\u2610 '),
    },
    extensions: [
      {
        // No `start`: marked's inline text already stops at every `[`.
        name: 'citation',
        level: 'inline',
        tokenizer(src: string) {
          const m = /^\[\[(\d{1,4})\]\]\((https?:\/\/[^\s()<>]+)\)/i.exec(src);
          return m ? { type: 'citation', raw: m[0], n: m[1], href: m[2] } : undefined;
        },
        renderer: (t) => `<sup><a class="citation" href="${esc(t.href)}" data-citation="${t.n}">${t.n}</a></sup>`,
      },
    ],
  });

/** The two configurations, without and with images, each made on first use (both lex alike). */
const markeds: Marked[] = [];
const markedFor = (images = false) => (markeds[+images] ??= createMarked(images));

/**
 * Lexes Markdown with a fresh lexer (an instance accumulates state), seeded with reference-link
 * definitions already seen earlier in the same answer.
 */
export function lex(src: string, links?: Links): TokensList {
  const md = markedFor();
  const lexer = new md.Lexer(md.defaults);
  if (links) Object.assign(lexer.tokens.links, links);
  return lexer.lex(src);
}

/** Adds the reference-link definitions found in `tokens` (at any depth) to `links`; the first definition wins, as in marked. */
export function collectLinks(tokens: Token[], links: Links): Links {
  markedFor().walkTokens(tokens, (t) => {
    if (t.type === 'def') links[t.tag] ??= { href: t.href, title: t.title };
  });
  return links;
}

/** Renders tokens from {@link lex} to a sanitised fragment. */
export function renderTokens(tokens: Token[], { images = false }: RenderOptions = {}): DocumentFragment {
  return sanitize(markedFor(images).parser(tokens), { images });
}

// Beyond these caps the text is shown as plain text. Measured in Chromium: marked's cost grows with the square of
// list depth (256 levels: 100-175 ms) and of emphasis/link delimiters within one block (20,000 '_a': 430 ms).
const MAX_LENGTH = 200_000;
const MAX_DELIMS = 3000;
const MAX_WORD = 5000;
const TOO_DEEP = /^(?:[ \t]*(?:>|[-*+][ \t]|\d{1,9}[.)][ \t])){16}|^[ \t]{64,}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/m;

/**
 * True when the text is beyond the renderer's caps and must be shown as plain text: longer than
 * 200,000 characters, a word over 5,000 characters, more than 15 container levels on one line, a list item indented 64 columns, or
 * more than 3,000 emphasis/link/code delimiters in one block (text between blank lines).
 */
export function exceedsCaps(src: string): boolean {
  return (
    src.length > MAX_LENGTH ||
    TOO_DEEP.test(src) ||
    // A word this long costs Chromium seconds of layout once wrapped (quadratic in its length).
    src.split(/\s/).some((w) => w.length > MAX_WORD) ||
    src.split(/\n[ \t]*\n/).some((b) => b.length > MAX_DELIMS && (b.match(/[_*~[`]/g)?.length ?? 0) > MAX_DELIMS)
  );
}

// Laying out a text node costs Chromium time in proportion to its characters (one 1,000,000-character word: 150-670
// ms in one task), so plain text goes in pieces of about this many characters, each laid out only once it nears the screen.
const PIECE = 10_000;

/**
 * The plain-text fallback: a paragraph holding the text, whole and in order, in pieces (`span`s
 * that the chat's styles lay out lazily), each ending at a white space where one is near.
 */
export function plainText(src: string): DocumentFragment {
  const f = new DocumentFragment();
  const p = document.createElement('p');
  // Styled not to break inside words: Chromium wraps a very long word in time quadratic in
  // its length (100,000 characters froze the page for seconds), so such a word scrolls instead.
  p.className = 'plain';
  for (let at = 0; at < src.length; ) {
    let end = Math.min(at + PIECE, src.length);
    if (end < src.length) {
      const space = src.slice(at + PIECE / 2, end).search(/\s\S*$/);
      if (space >= 0) end = at + PIECE / 2 + space + 1;
    }
    const piece = document.createElement('span');
    piece.textContent = src.slice(at, end);
    p.append(piece);
    at = end;
  }
  f.append(p);
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
