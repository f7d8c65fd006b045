import { fencedCode, HEADING, HeadingSlugger } from './markdown-text.js';

// A table row whose first cell is one link (bold or code allowed) to a section of the same page:
// a bare `#anchor` or the page's own file name with one.
const LINKED_ROW = /^[ \t]*\|[ \t]*(?:\*\*|`)*\[[^\]\n]*\]\((?:\.\/)?([^)\s#]*)#([^)\s]+)\)(?:\*\*|`)*[ \t]*\|(.*)\|[ \t]*$/;

/** Lower case, spaces and emphasis out, to compare a row's text with a section's. */
const comparable = (text: string): string =>
  text.replace(/\\([!-/:-@[-`{-~])/g, '$1').replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The Markdown with each description a table of methods gives a section of the same page written
 * as that section's first line. Generated API references (xendit-node's, OpenAPI Generator's)
 * list a page's functions at its top, `| [**cancelPayout()**](Payout.md#cancelpayout-function) |
 * **POST** ... | API to cancel requested payouts |`, and the function's own section holds only
 * its signature, parameters and an example: read as written, the sentence saying what the
 * function does is nowhere in its section. Only a row whose first cell is one link to a heading
 * of this page, whose last cell is text of two words or more, the only row linking there, adds
 * its text, and only to a section that does not say it already; the table stays as it is.
 */
export function withRowDescriptions(markdown: string, path: string): string {
  if (!markdown.includes('](')) return markdown;
  const own = path.slice(path.lastIndexOf('/') + 1);
  const lines = markdown.split('\n');
  const headings = new Map<string, number>();
  const headingLines: number[] = [];
  const rows = new Map<string, string | undefined>();
  const slugger = new HeadingSlugger();
  const isCode = fencedCode();
  lines.forEach((line, i) => {
    if (isCode(line)) return;
    const heading = HEADING.exec(line);
    if (heading) {
      headingLines.push(i);
      const slug = slugger.slug(heading[2]!);
      if (!headings.has(slug)) headings.set(slug, i);
      return;
    }
    const row = LINKED_ROW.exec(line);
    if (!row || (row[1] !== '' && row[1] !== own)) return;
    let anchor: string;
    try {
      anchor = decodeURIComponent(row[2]!).toLowerCase();
    } catch {
      return;
    }
    const cells = row[3]!.split('|');
    const text = cells[cells.length - 1]!.trim();
    const described = !text.includes('](') && (text.match(/\p{L}+/gu)?.length ?? 0) >= 2;
    // An anchor two rows link to (arguments pointing to one concept) is no row's own section.
    rows.set(anchor, rows.has(anchor) || !described ? undefined : text);
  });
  const added = new Map<number, string>();
  for (const [anchor, text] of rows) {
    const at = headings.get(anchor);
    if (text === undefined || at === undefined) continue;
    const end = headingLines.find((line) => line > at) ?? lines.length;
    if (comparable(lines.slice(at + 1, end).join(' ')).includes(comparable(text))) continue;
    added.set(at, text);
  }
  if (added.size === 0) return markdown;
  return lines.map((line, i) => (added.has(i) ? `${line}\n\n${added.get(i)!}\n` : line)).join('\n');
}
