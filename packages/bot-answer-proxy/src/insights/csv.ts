import type { ExportRow } from './types.js';

/** The export's header line, exactly: the contract's columns, then `outcome` (added last, so columns read by position keep theirs). */
export const CSV_HEADER = 'time,bot_id,question,answer_found,cache,sources,duration_ms,rating,comment,request_id,outcome';

/** First characters a spreadsheet reads as the start of a formula (and tab and carriage return, which some strip first). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell: RFC 4180 quoting (a cell holding `"`, `,`, CR or LF is quoted, its `"` doubled),
 * and a cell starting with `=`, `+`, `-`, `@`, tab or CR prefixed with `'`, so a spreadsheet
 * shows it as text instead of running it as a formula.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One export row as a CSV line, CRLF-terminated (RFC 4180). */
export function csvLine(row: ExportRow): string {
  return (
    [
      new Date(row.time).toISOString(),
      row.bot_id,
      row.question,
      row.answer_found ? 'true' : 'false',
      row.cache ?? '',
      row.sources.join(' '),
      String(row.duration_ms),
      row.rating ?? '',
      row.comment ?? '',
      row.request_id,
      row.outcome,
    ]
      .map(csvCell)
      .join(',') + '\r\n'
  );
}
