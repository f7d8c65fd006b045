import { mapOutsideFences } from './markdown-text.js';

// A code span (kept as is) or a JSX component tag: a capitalised or dotted name, attributes
// that may hold `{...}` expressions (with `>` inside, as in arrow functions), over several lines.
const CODE_SPAN_OR_COMPONENT = /(`+)[\s\S]*?\1|<\/?[A-Z][\w.]*(?:\s(?:[^<>{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)?\/?>|<>|<\/>/g;
const JSX_COMMENT = /\{\/\*[\s\S]*?\*\/\}/g;
const ESM_START = /^(?:import|export)(?:\s|\{|\*|$)/;

/**
 * MDX as plain Markdown: `import` / `export` statements and JSX comments are dropped, component
 * tags (`<Tabs>`, `<TabItem value="a">`, `<Note />`) are removed and the text between them is
 * kept. Fenced code blocks and code spans are left exactly as written.
 */
export function mdxToMarkdown(mdx: string): string {
  return mapOutsideFences(mdx, (text) => dropEsm(text).replace(JSX_COMMENT, '').replace(CODE_SPAN_OR_COMPONENT, (match, ticks) => (ticks ? match : '')));
}

/**
 * Drops ESM statements opening a block (the first line, or after a blank one, as MDX reads
 * them), with the lines they continue on (until their brackets close). A line starting with
 * `export` inside a paragraph or a component's attribute (a template literal's last line) is text.
 */
function dropEsm(text: string): string {
  const kept: string[] = [];
  let depth = 0;
  let inStatement = false;
  // Where a block may start: the first line, after a blank one, or right after a statement (an ESM block runs on).
  let blockStart = true;
  for (const line of text.split('\n')) {
    const mayOpen = blockStart;
    blockStart = line.trim() === '';
    if (!inStatement && mayOpen && ESM_START.test(line)) {
      inStatement = true;
      depth = 0;
    }
    if (!inStatement) {
      kept.push(line);
      continue;
    }
    for (const char of line) {
      if (char === '{' || char === '(' || char === '[') depth++;
      else if (char === '}' || char === ')' || char === ']') depth--;
    }
    // A statement ends on a line where its brackets are closed and it does not continue
    // (`import {` ... `} from 'x'` ends on the `from` line).
    if (depth <= 0 && !/(?:,|=|=>|\bfrom)\s*$/.test(line.trimEnd())) {
      inStatement = false;
      blockStart = true;
    }
  }
  return kept.join('\n');
}
