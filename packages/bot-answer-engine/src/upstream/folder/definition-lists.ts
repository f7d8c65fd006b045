import { FENCE, HEADING, mapOutsideFences } from './markdown-text.js';

// `: definition` under its term, the syntax of PHP Markdown Extra, Pandoc, MkDocs' `def_list`,
// markdown-it-deflist and remark's definition-list plugins.
const DEFINITION = /^ {0,3}:[ \t]+(\S.*)$/;
// A fenced block a site renders as the definition list it holds rather than as code (the CLI
// for Microsoft 365's docs: `` ```md definition-list ``, their commands' options).
const DEFINITION_FENCE = /^([ \t]*)(`{3,}|~{3,})[ \t]*(?:md|markdown)\b[^\n`]*\bdefinition-list\b[^\n`]*$/i;
// Lines that are a block of their own, not a term.
const NOT_TERM = /^[ \t]*(?:$|[-*+][ \t]|[-*_=]{3,}[ \t]*$|[>|:]|\d{1,9}[.)][ \t]|<|`{3,}|~{3,})/;

/**
 * Definition lists as the list a reader sees: each term and its definitions one list item,
 * `` - `--teamId [teamId]`: The ID of the team ``, so the terms read as prose (code spans
 * included) rather than as a line holding a colon. A fenced Markdown block marked
 * `definition-list` is unwrapped first: the site shows the list, not the code. Code, and a `:`
 * line with no term above it, are left as written.
 */
export function withDefinitionLists(markdown: string): string {
  if (!/^ {0,3}:[ \t]/m.test(markdown)) return markdown;
  return mapOutsideFences(unwrapDefinitionFences(markdown), convert);
}

function unwrapDefinitionFences(markdown: string): string {
  if (!/definition-list/i.test(markdown)) return markdown;
  return mapOutsideFences(
    markdown,
    (lines) => lines,
    (block) => {
      const lines = block.split('\n');
      const open = DEFINITION_FENCE.exec(lines[0]!);
      if (!open) return block;
      const last = lines[lines.length - 1]!;
      const closed = lines.length > 1 && FENCE.test(last) && last.trim().startsWith(open[2]!);
      const indent = open[1]!.length;
      const body = lines.slice(1, closed ? -1 : undefined).map((line) => line.slice(Math.min(indent, /^[ \t]*/.exec(line)![0].length)));
      // What was code is blocks of its own now: a blank line on either side.
      return `\n${body.join('\n').replace(/^\n+|\n+$/g, '')}\n`;
    },
  );
}

function convert(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const definition = DEFINITION.exec(line);
    const term = out[out.length - 1];
    if (!definition || term === undefined || NOT_TERM.test(term) || HEADING.test(term)) {
      out.push(line);
      continue;
    }
    // The definition's own lines: what follows it up to a blank line, a new term's definition or an unindented block.
    const parts = [definition[1]!.trim()];
    while (i + 1 < lines.length && lines[i + 1]!.trim() !== '' && !DEFINITION.exec(lines[i + 1]!) && !(i + 2 < lines.length && DEFINITION.test(lines[i + 2]!))) {
      parts.push(lines[++i]!.trim());
    }
    // More definitions of the same term, blank lines between allowed.
    for (;;) {
      let k = i + 1;
      while (k < lines.length && lines[k]!.trim() === '') k++;
      const more = k < lines.length ? DEFINITION.exec(lines[k]!) : null;
      if (!more) break;
      parts.push(more[1]!.trim());
      i = k;
    }
    out[out.length - 1] = `- ${term.trim()}: ${parts.join(' ')}`;
    // The next term starts a list item of its own, not a line of this one.
    if (i + 1 < lines.length && lines[i + 1]!.trim() !== '') out.push('');
  }
  return out.join('\n');
}
