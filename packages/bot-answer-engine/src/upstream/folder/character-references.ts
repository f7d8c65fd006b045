import { decodeHTML, decodeHTMLStrict } from 'entities/decode';
import { outsideCodeSpans } from './code-spans.js';
import { mapProse } from './markdown-text.js';

// In prose, what is skipped whole (a backslash escape, an HTML element whose content is code, an
// inline tag with its attributes) and what is read: a character reference (escaped or not), or a
// run of backticks.
const PROSE = /\\?&(?:#\d{1,7}|#[xX][\da-fA-F]{1,6}|[A-Za-z][A-Za-z\d]{1,31});|\\[!-/:-@[-`{-~]|<(pre|code)(?=[ \t\n>])[\s\S]*?<\/\1[ \t]*>|<[A-Za-z/][^<>\n]*>|`+/g;
// Characters that would read as Markdown or HTML syntax where they land, escaped with a backslash.
const SYNTAX = /[\\`*_[\]|~]/;

/**
 * The Markdown with the character references of its prose (`&mdash;`, `&nbsp;`, `&#39;`,
 * `&rarr;`) written as the characters they stand for, as CommonMark reads them: a reference
 * needs its `;`, and code (fenced and indented blocks, code spans, `<pre>` elements) and HTML
 * tags keep theirs as written; a `<code>` element of plain text holding references becomes the
 * code span the cleaner shows it as (`<code>&lt;ul&gt;</code>`: `` `<ul>` ``). Read without it,
 * `&mdash;` was the word "mdash" in the index and in quotes. A character that is Markdown syntax where it lands
 * (`&ast;`, `&#124;` in a table, `&lt;` before a tag name, `&amp;` before what would be a
 * reference) is written backslash-escaped, so it stays the literal character it was. A reference
 * to a punctuation character that is itself backslash-escaped (`\&#39;`, `\&quot;`: a generator's
 * `\'` escaped again for HTML) is read as that escape (`\'`), not as the reference's name.
 */
export function decodeCharacterReferences(markdown: string): string {
  if (!markdown.includes('&')) return markdown;
  return mapProse(markdown, decodeProse);
}

/** A run of prose lines with its references decoded; code spans (closed within their paragraph) kept as written. */
function decodeProse(text: string): string {
  if (!text.includes('&')) return text;
  let out = '';
  let from = 0;
  for (const found of outsideCodeSpans(text, PROSE)) {
    const token = found[0];
    const at = found.index;
    if (found[1] === 'code') {
      // `<code>&lt;ul&gt;</code>` in prose is a code span as the cleaner shows it: so read, its
      // name is indexed as code, not as "lt ul gt".
      const inner = /^<code(?:[ \t][^<>]*)?>([^<>`|\n]*)<\/code>$/i.exec(token)?.[1];
      const code = inner?.includes('&') ? decodeHTML(inner) : undefined;
      if (code && !/[`|\n]/.test(code)) {
        out += `${text.slice(from, at)}\`${code}\``;
        from = at + token.length;
      }
      continue;
    }
    if (token[0] === '\\') {
      // A generator that escapes a character for Markdown, then for HTML (the Ory Kratos client's
      // reference: `identity\&#39;s`, `\&quot;upgrade\&quot;`) meant the escaped character:
      // CommonMark would show the reference's name. Any other escaped `&` stays literal.
      const escaped = decodeHTMLStrict(token.slice(1));
      if (/^[!-/:-@[-`{-~]$/.test(escaped) && escaped !== '&') {
        out += `${text.slice(from, at)}\\${escaped}`;
        from = at + token.length;
      }
      continue;
    }
    if (token[0] !== '&') continue;
    let decoded = decodeHTMLStrict(token);
    if (decoded === token) continue;
    // A line break or tab written as a reference (`&#xA;` in a table cell, as Base UI's API
    // tables keep a description's lines) is white space in the text, not a line of the source:
    // written out, it would end the table row, or the paragraph, where it stands.
    if (/^[\t\n\f\r]+$/.test(decoded)) decoded = ' ';
    const next = text.slice(at + token.length, at + token.length + 32);
    const lineStart = at === 0 || /\n[ \t]*$/.test(text.slice(Math.max(0, at - 8), at));
    const escape =
      SYNTAX.test(decoded) ||
      (decoded === '&' && /^#?\w+;/.test(next)) ||
      (decoded === '<' && /^[A-Za-z/!?]/.test(next)) ||
      (lineStart && /^[#>+=-]$/.test(decoded));
    out += text.slice(from, at) + (escape ? `\\${decoded}` : decoded);
    from = at + token.length;
  }
  return out + text.slice(from);
}
