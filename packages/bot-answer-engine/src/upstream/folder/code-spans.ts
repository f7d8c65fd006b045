/** Where Markdown code spans end, for the passes that must leave code as written. */

/** Where the paragraph holding position `i` ends: its next blank line, or the end of the text. */
export function nextBlankLine(text: string, i: number): number {
  const blank = /\n[ \t]*\n/g;
  blank.lastIndex = i;
  return blank.exec(text)?.index ?? text.length;
}

/** Where a run of exactly `run` backticks closes the code span opened before `from`, before `end` (its paragraph's end); -1 if nowhere. */
export function closingRun(text: string, from: number, run: number, end: number): number {
  for (let i = text.indexOf('`', from); i >= 0 && i < end; i = text.indexOf('`', i)) {
    let length = 1;
    while (text[i + length] === '`') length++;
    if (length === run) return i;
    i += length;
  }
  return -1;
}

/**
 * Each match of `pattern` in `text` that lies outside code spans, in order. `pattern` is global
 * and has a run of backticks (`` `+ ``) among its alternatives, tried where its other
 * alternatives could match inside a span: a run that opens a span (closed within its paragraph)
 * skips to the span's end; one that closes nothing is literal text, passed over.
 */
export function* outsideCodeSpans(text: string, pattern: RegExp): Generator<RegExpExecArray> {
  pattern.lastIndex = 0;
  for (let found = pattern.exec(text); found; found = pattern.exec(text)) {
    const token = found[0];
    if (token[0] !== '`') {
      yield found;
      continue;
    }
    const from = found.index + token.length;
    const close = closingRun(text, from, token.length, nextBlankLine(text, from));
    if (close >= 0) pattern.lastIndex = close + token.length;
  }
}
