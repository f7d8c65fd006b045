import { cellCount, DELIMITER_ROW } from './gfm-table.js';
import { mapProse } from './markdown-text.js';

// A link's text (or any bracketed span) holding a pipe not escaped: `[**'open' | 'closed'**]`.
const BRACKETED_PIPES = /\[[^[\]\n]*(?<!\\)\|[^[\]\n]*\]/g;

/**
 * The Markdown with each table row that has more cells than its header only because a bracketed
 * span holds pipes written bare, those pipes escaped. OpenAPI Generator's TypeScript clients
 * write an enum parameter's type as `[**'resting' | 'canceled' | 'executed'**]` in a table of
 * parameters: GFM splits the row at every pipe and drops the cells past the header's, so the
 * type reads `'resting'` and the description ("Restricts the response to orders that have a
 * certain status") is lost, on the page and in a quote. A row is changed only when escaping the
 * bracketed pipes gives it exactly the header's cells; code is never touched.
 */
export function withOverflowingRowsJoined(markdown: string): string {
  if (!markdown.includes('|')) return markdown;
  return mapProse(markdown, (prose) => {
    if (!prose.includes('|')) return prose;
    const lines = prose.split('\n');
    let width = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.includes('|') && DELIMITER_ROW.test(lines[i + 1] ?? '')) {
        width = cellCount(line);
        i++;
      } else if (width === 0 || line.trim() === '') {
        width = 0;
      } else if (cellCount(line) > width && line.includes('[')) {
        const joined = line.replace(BRACKETED_PIPES, (span) => span.replace(/(?<!\\)\|/g, '\\|'));
        if (cellCount(joined) === width) lines[i] = joined;
      }
    }
    return lines.join('\n');
  });
}
