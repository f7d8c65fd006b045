/**
 * Turns the live (uncommitted) tail of a streaming answer into Markdown that renders without flicker.
 * Only the end of the text changes, so blocks before the last one lex exactly as in the raw text:
 *
 * - an unfinished last line made only of Markdown markers (`-`, `1.`, `#`, `>`, `==`, `|--|-`, `- [ ]`) is held
 *   back, as is a fence line being typed: no setext heading, empty list or heading, half-typed fence;
 * - a table header (a line with `|` starting a block) is held back until its delimiter row is complete;
 * - outside an open code fence, on the last line: a trailing run of `*_~` and backticks (maybe a closer being
 *   typed) is dropped, unterminated `**`, `*`, `_`, `__`, `~~`, `~` and code spans are closed, a half-typed
 *   `[text](url` shows as its text and a half-typed citation or image as nothing.
 */
export function stabilize(s: string): string {
  s = s
    .replace(/(^|\n)(?: {0,3}(?:`{3}|~{3})[^\n]*|[ \t>*+=#`~_|:.\d[\]-]+)$/, '$1')
    .replace(/(^|\n[ \t]*\n)[^\n]*\|[^\n]*\n?$/, '$1');
  if ((s.match(/^ {0,3}(?:`{3,}|~{3,})/gm)?.length ?? 0) % 2) return s;
  const i = s.trimEnd().lastIndexOf('\n') + 1;
  let b = s.slice(i).replace(/\[\[\d*\]?\]?(?:\([^)\s]*)?$|(!?)\[([^[\]\n]*)(?:\](?:\([^)\s]*)?)?$/, (m, bang?: string, text?: string) =>
    m[1] === '[' || bang ? '' : text ?? '',
  ).replace(/[*_~`]+$/, '');
  const stack: [string, number][] = [];
  const re = /\\.|`+|\*\*|__|~~|[*_~]/g;
  for (let m; (m = re.exec(b)); ) {
    const d = m[0];
    const p = m.index;
    const top = stack.at(-1)?.[0];
    if (top?.[0] === '`') {
      // Inside a code span only the same backtick run closes it.
      if (d === top) stack.pop();
    } else if (d[0] === '`') stack.push([d, p]);
    else if (d[0] === '\\') continue;
    else if (top === d && /\S/.test(b[p - 1])) stack.pop();
    else if (/\S/.test(b[p + d.length] ?? ' ') && !(d === '_' && /\w/.test(b[p - 1] ?? ' '))) stack.push([d, p]);
  }
  if (!stack.length) return s.slice(0, i) + b;
  b = b.trimEnd();
  let close = '';
  for (let k = stack.length - 1; k >= 0; k--) {
    const [d, p] = stack[k];
    // An opener with nothing after it yet is held back rather than shown as a literal marker.
    if (/\S/.test(b.slice(p + d.length))) close += d;
    else b = b.slice(0, p);
  }
  return s.slice(0, i) + b + close;
}
