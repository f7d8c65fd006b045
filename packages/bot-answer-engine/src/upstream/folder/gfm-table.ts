/** A table's delimiter row as GFM reads it: `|---|:---:|`, `------|-------`, tabs among its whitespace. */
export const DELIMITER_ROW = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** How many cells GFM reads in a table line: split at pipes not escaped, the outer ones dropped. */
export function cellCount(line: string): number {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  return row.split(/(?<!\\)\|/).length;
}
