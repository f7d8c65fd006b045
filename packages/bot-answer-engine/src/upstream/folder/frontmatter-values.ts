import { outsideCodeSpans } from './code-spans.js';
import { mapProse } from './markdown-text.js';

// In prose, what is skipped whole (a run of backticks opening a code span) and what is read: a
// Vue interpolation of one front-matter field, `{{ $frontmatter.description }}`.
const PROSE = /`+|\{\{[ \t]*\$frontmatter\.([A-Za-z_$][\w$]*)[ \t]*\}\}/g;

/**
 * The text with each interpolation of a front-matter field (`{{ $frontmatter.author }}`, which
 * VitePress renders as the field's value) written as that value, outside code (fenced and
 * indented blocks, code spans). A field the front matter leaves empty or out writes nothing, as
 * Vue renders it; a list or a mapping, and any other expression
 * (`{{ $frontmatter.tags.join(", ") }}`), stay as written. Read as written, a recipe's first
 * paragraph held "{{ $frontmatter.description }}", and an admonition titled
 * "Author: {{$frontmatter.author}}" was read as a line of text.
 */
export function withFrontMatterValues(markdown: string, meta: Record<string, unknown>): string {
  if (!markdown.includes('$frontmatter')) return markdown;
  return mapProse(markdown, (text) => {
    if (!text.includes('$frontmatter')) return text;
    let out = '';
    let from = 0;
    for (const found of outsideCodeSpans(text, PROSE)) {
      const value = Object.hasOwn(meta, found[1]!) ? meta[found[1]!] : undefined;
      const written = value === undefined || value === null ? '' : typeof value === 'object' ? undefined : String(value);
      if (written === undefined) continue;
      out += text.slice(from, found.index) + written;
      from = found.index + found[0].length;
    }
    return out + text.slice(from);
  });
}
