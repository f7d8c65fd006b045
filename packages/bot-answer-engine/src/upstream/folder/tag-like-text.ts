import htmlTags from 'html-tags';
import { outsideCodeSpans } from './code-spans.js';
import { HEADING, mapProse } from './markdown-text.js';

// HTML's element names (a maintained list): `<name>` with one of these is taken for a tag, as a
// browser would. An obsolete one (`<center>`, `<font>`) is still one when the page closes it.
const HTML_ELEMENTS: ReadonlySet<string> = new Set(htmlTags);
// In prose, what is looked at: a name alone escaped on its left only (`\<OUTPUT_FILE_PATH>`, as
// written or as `&lt;Name&gt;` decodes); what is skipped whole (any other backslash escape); a
// tag of a name alone, with no attributes (`<Session>`); or a run of backticks.
const PROSE = /\\<([A-Za-z][\w-]*)>|\\[!-/:-@[-`{-~]|<([A-Za-z][\w-]*)>|`+/g;
const TABLE_ROW = /^[ \t]*\|/;

/**
 * The Markdown with each tag-like `<Name>` of its prose that is no HTML written escaped
 * (`\<Name\>`), so it reads as the text it is: a type argument (`**Array<Session>**`,
 * `Returns **[Promise][1]<void>**`) or a placeholder (`App_Resources/<platform>`, `-p <name>`).
 * CommonMark takes any `<name>` for an inline HTML tag, so a Markdown renderer (GitHub's, the
 * widget's, the indexer's) drops it and shows "Array", and a quote holding it raw reads as markup.
 * Only a name alone (no attributes, not self-closed) that names no HTML element and that no other
 * tag of the page names (`</Session>`, `<Session id="a">`, `<Session />`: a component the page
 * uses) is escaped. Code (fenced and indented blocks, code spans) and heading lines, which are
 * read as their plain text apart, are left as written; a table row is read alone, as GFM splits
 * rows before it reads code spans. A name already escaped on its left only (`\<Name>`, as a page
 * writes it or `&lt;Name&gt;` decodes) gets its `>` escaped too: it renders the same, and reads
 * as the same text in the raw Markdown of a quote.
 */
export function withTagLikeText(markdown: string): string {
  if (!/<[A-Za-z][\w-]*>/.test(markdown)) return markdown;
  const used = new Map<string, boolean>();
  // Whether the page holds another tag of this name: a closing one, or one with attributes or self-closed.
  const isElement = (name: string): boolean => {
    const key = name.toLowerCase();
    let found = used.get(key);
    if (found === undefined) {
      found = new RegExp(`</${name}[ \\t\\n]*>|<${name}(?:[ \\t\\n][^<>]*)?/>|<${name}[ \\t\\n]+[^<>]*>`, 'i').test(markdown);
      used.set(key, found);
    }
    return found;
  };
  const escape = (text: string): string => {
    let out = '';
    let from = 0;
    for (const found of outsideCodeSpans(text, PROSE)) {
      // Escaped on its left, the name is text already: its `>` is escaped too, so it is written as
      // every such name is and no reader of the raw Markdown takes `Name>` for the end of a tag.
      const name = found[1] ?? found[2];
      if (!name || (!found[1] && (HTML_ELEMENTS.has(name.toLowerCase()) || isElement(name)))) continue;
      out += `${text.slice(from, found.index)}\\<${name}\\>`;
      from = found.index + found[0].length;
    }
    return out + text.slice(from);
  };
  return mapProse(markdown, (prose) => {
    if (!/<[A-Za-z][\w-]*>/.test(prose)) return prose;
    // Paragraph lines are read together (a code span may run over lines); heading lines are kept
    // and table rows read alone.
    const out: string[] = [];
    let run: string[] = [];
    const flush = (): void => {
      if (run.length) out.push(escape(run.join('\n')));
      run = [];
    };
    for (const line of prose.split('\n')) {
      if (HEADING.test(line)) {
        flush();
        out.push(line);
      } else if (TABLE_ROW.test(line)) {
        flush();
        out.push(escape(line));
      } else run.push(line);
    }
    flush();
    return out.join('\n');
  });
}
