import { fencedCode } from './markdown-text.js';

/**
 * The body without the HTML comments that open a block (`<!-- ... -->` starting a line, indented
 * up to 3 spaces, to its close, whatever lies between, fences included; an unclosed one hides the
 * rest), as a docs site renders the page and as `cleanMarkdown` shows a passage: metadata kept in
 * a comment (`<!-- title: ... menuOrder: 5 layout: Doc -->`), generators' markers, lint switches,
 * drafts commented out. Read with them, their words were indexed and a comment alone made a
 * section with nothing to show. Text after a comment's close on its line stays; code fences and
 * comments inside a paragraph's line are left as they are.
 */
export function withoutBlockComments(markdown: string): string {
  if (!markdown.includes('<!--')) return markdown;
  const lines = markdown.split('\n');
  const out: string[] = [];
  const isCode = fencedCode();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isCode(line)) {
      out.push(line);
      continue;
    }
    const start = /^ {0,3}<!--/.exec(line);
    if (!start) {
      out.push(line);
      continue;
    }
    let end = i;
    let close = line.indexOf('-->', start[0].length);
    while (close < 0 && ++end < lines.length) close = lines[end]!.indexOf('-->');
    if (close < 0) break;
    const rest = lines[end]!.slice(close + 3).trim();
    i = end;
    // Text after the close is read again as a line of its own: another comment may open it.
    if (rest) {
      lines[i] = rest;
      i--;
    }
  }
  return out.join('\n');
}
