import { cellCount, DELIMITER_ROW } from './gfm-table.js';
import { mapProse } from './markdown-text.js';

/**
 * The Markdown with the tabs of each table's delimiter row written as spaces, outside code. GFM
 * (GitHub, cmark-gfm) reads a tab there as the whitespace it is, and shows the table; marked,
 * which renders a quote in the element, reads the row as text, so the table is shown as lines of
 * pipes (the Dash SDK's tables of parameters: `|------------------\t|`). Only a row under a header
 * of as many cells is a delimiter row: any other line, and code, stay as written.
 */
export function withDelimiterTabsSpaced(markdown: string): string {
  if (!markdown.includes('\t') || !markdown.includes('|')) return markdown;
  return mapProse(markdown, (prose) => {
    if (!prose.includes('\t')) return prose;
    const lines = prose.split('\n');
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const header = lines[i - 1]!;
      if (line.includes('\t') && header.includes('|') && DELIMITER_ROW.test(line) && cellCount(line) === cellCount(header)) lines[i] = line.replace(/\t/g, ' ');
    }
    return lines.join('\n');
  });
}
