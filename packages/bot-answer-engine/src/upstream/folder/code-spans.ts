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
