import { outsideCodeSpans } from './code-spans.js';
import { HEADING, mapProse } from './markdown-text.js';

// Names of HTML's elements (current and obsolete ones browsers still parse): `<name>` with one of
// these is taken for a tag, as a browser would.
const HTML_ELEMENTS = new Set(
  (
    'a abbr acronym address applet area article aside audio b base basefont bdi bdo big blink blockquote body br button canvas caption ' +
    'center cite code col colgroup data datalist dd del details dfn dialog dir div dl dt em embed fieldset figcaption figure font ' +
    'footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe image img input ins isindex kbd keygen label ' +
    'legend li link listing main map mark marquee math menu menuitem meta meter nav nobr noembed noframes noscript object ol optgroup ' +
    'option output p param picture plaintext portal pre progress q rb rp rt rtc ruby s samp script search section select slot small ' +
    'source span strike strong style sub summary sup svg table tbody td template textarea tfoot th thead time title tr track tt u ul ' +
    'var video wbr xmp'
  ).split(' '),
);
// In prose, what is skipped whole (a backslash escape) and what is looked at: a tag of a name
// alone, with no attributes (`<Session>`), or a run of backticks.
const PROSE = /\\[!-/:-@[-`{-~]|<([A-Za-z][\w-]*)>|`+/g;
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
 * rows before it reads code spans.
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
      const name = found[1];
      if (!name || HTML_ELEMENTS.has(name.toLowerCase()) || isElement(name)) continue;
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
