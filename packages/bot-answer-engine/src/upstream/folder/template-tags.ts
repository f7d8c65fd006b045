import { outsideCodeSpans } from './code-spans.js';
import { mapProse } from './markdown-text.js';

// In prose, what is skipped whole (a run of backticks opening a code span) and what is taken out:
// an EJS or ERB tag that writes nothing (`<% if (isHtml) { %>`, `<% } %>`, `<%# a comment %>`,
// `<%_ ... _%>`), closed before its paragraph ends. `<%=` and `<%-` write a value and `<%%` is
// a literal `<%`: they stay.
const PROSE = /`+|<%(?![=%-])(?:(?!\n[ \t]*\n)[\s\S])*?%>/g;

/**
 * The text without the template tags that write nothing (EJS's and ERB's scriptlets, `<% if
 * (isJekyll) { %>` ... `<% } %>`, and their comments), outside code (fenced and indented blocks,
 * code spans). Docs kept as templates (the NativeScript CLI's man pages, rendered as HTML, for a
 * terminal or for Jekyll from the same file) never show them, whichever branch is rendered; read as written, the
 * tags were a paragraph of the page's text, quoted and indexed ("if isHtml"), and a front matter
 * wrapped in one (`<% if (isJekyll) { %>---` ... `---<% } %>`) was a section of "title:" and
 * "position:". The text of every branch is kept: which one a site renders is its build's choice.
 * Tags that write a value (`<%= config.bin %>`) stay: what they write is not in the file.
 */
export function withoutTemplateTags(markdown: string): string {
  if (!markdown.includes('<%')) return markdown;
  return mapProse(markdown, withoutProseTags);
}

function withoutProseTags(text: string): string {
  if (!text.includes('<%')) return text;
  let out = '';
  let from = 0;
  for (const found of outsideCodeSpans(text, PROSE)) {
    out += text.slice(from, found.index);
    from = found.index + found[0].length;
  }
  return out + text.slice(from);
}
