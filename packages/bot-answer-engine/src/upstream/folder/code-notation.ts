import { mapOutsideFences } from './markdown-text.js';

// Comments in code that tell the site's highlighter how to mark lines, taken out of the code it
// shows:
// - Shiki's notation (`// [!code highlight]`, `# [!code ++]`, `/* [!code focus:2] */`,
//   `<!-- [!code error] -->`, `{/* [!code word:Hello] */}`), as VitePress, Fumadocs, Nextra and
//   Astro's code blocks read it;
// - MUI's docs infrastructure's emphasis comments (`// @highlight`, `{/* @highlight-start */}`,
//   `// @highlight-text "payload"`, `@focus`), as Material UI's and Base UI's sites read them;
// - Docusaurus's default magic comments (`// highlight-next-line`, `highlight-start`, `highlight-end`).
const SHIKI = String.raw`\[!code\s+[^\]\n]+\]`;
// The directive and what follows it inside the comment (quoted texts, `@padding 2`), never past the comment's end.
const MUI = String.raw`@(?:highlight|focus)(?:-[a-z]+)*(?![\w-])(?:(?!\*/|-->)[^\n])*?`;
const DOCUSAURUS = String.raw`highlight-(?:next-line|start|end)`;
const NOTATION = `(?:${SHIKI}|${MUI}|${DOCUSAURUS})`;
const BLOCK_COMMENT = new RegExp(String.raw`[ \t]*(?:\{\s*/\*\s*${NOTATION}\s*\*/\s*\}|/\*\s*${NOTATION}\s*\*/|<!--\s*${NOTATION}\s*-->)`, 'g');
// A line comment that is all notation, to the line's end. `'` (Visual Basic) only for Shiki's
// bracketed form: `'@highlight'` is as likely a string.
const LINE_COMMENT = new RegExp(String.raw`[ \t]*(?:(?://|#|--|;|%|')[ \t]*${SHIKI}|(?://|#|--|;|%)[ \t]*(?:${MUI}|${DOCUSAURUS}))[ \t]*$`);
const MAY_HOLD = /\[!code|@highlight|@focus|highlight-(?:next-line|start|end)/;

/**
 * Fenced code with the highlighters' notation comments taken out, as the site shows it: a
 * comment that is all notation is removed, and a line left empty by that goes too. Prose and
 * code without such comments are returned as they are.
 */
export function withoutCodeNotation(markdown: string): string {
  if (!MAY_HOLD.test(markdown)) return markdown;
  return mapOutsideFences(
    markdown,
    (lines) => lines,
    (block) =>
      block
        .split('\n')
        .flatMap((line) => {
          if (!MAY_HOLD.test(line)) return [line];
          const bare = line.replace(BLOCK_COMMENT, '').replace(LINE_COMMENT, '');
          if (bare === line) return [line];
          return bare.trim() === '' ? [] : [bare];
        })
        .join('\n'),
  );
}
