import { mapOutsideFences } from './markdown-text.js';

// Shiki's notation (`// [!code highlight]`, `# [!code ++]`, `/* [!code focus:2] */`, `<!-- [!code error] -->`,
// `{/* [!code word:Hello] */}`), as VitePress, Fumadocs, Nextra and Astro's code blocks read it: the
// comment says how to mark the line and is taken out of the code shown.
const NOTATION = String.raw`\[!code\s+[^\]\n]+\]`;
const BLOCK_COMMENT = new RegExp(String.raw`[ \t]*(?:\{\s*/\*\s*${NOTATION}\s*\*/\s*\}|/\*\s*${NOTATION}\s*\*/|<!--\s*${NOTATION}\s*-->)`, 'g');
const LINE_COMMENT = new RegExp(String.raw`[ \t]*(?://|#|--|;|%|')[ \t]*${NOTATION}[ \t]*$`);

/**
 * Fenced code with Shiki's notation comments taken out, as the site shows it: a comment that
 * is all notation is removed, and a line left empty by that goes too. Prose and code without
 * such comments are returned as they are.
 */
export function withoutCodeNotation(markdown: string): string {
  if (!markdown.includes('[!code')) return markdown;
  return mapOutsideFences(
    markdown,
    (lines) => lines,
    (block) =>
      block
        .split('\n')
        .flatMap((line) => {
          if (!line.includes('[!code')) return [line];
          const bare = line.replace(BLOCK_COMMENT, '').replace(LINE_COMMENT, '');
          return bare.trim() === '' ? [] : [bare];
        })
        .join('\n'),
  );
}
