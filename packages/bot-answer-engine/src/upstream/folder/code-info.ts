import { FENCE, mapOutsideFences } from './markdown-text.js';

// One piece of the meta: `key="value"` (or `'value'`, `{value}`, a bare value), `[label]`, `{1,3-4}`, a bare word.
const META = /\s*(?:([\w:.-]+)=(?:"([^"]*)"|'([^']*)'|\{([^{}]*)\}|(\S+))|\[([^\]]*)\]|(\{[^{}]*\})|(\S+))/y;
// Attributes naming the file a block shows (Fumadocs', Docusaurus' and Starlight's `title`, Next.js' `filename`, Intlayer's `fileName`).
const FILE_KEYS = new Set(['title', 'filename', 'fileName', 'file']);

/**
 * Fenced code whose opening line says only what the site shows of it: the language, and the
 * file name it captions the block with (`title="lib/bot.ts"`, `filename="app/page.tsx"`, a
 * VitePress `[label]`, a bare `bunfig.toml`). The rest of the info string is the highlighter's
 * directives (`lineNumbers`, `{1,3-4}`, `highlight={2}`, `icon="terminal"`, `switcher`), which no
 * reader sees, and which were read as the block's words (`title`, `icon`, `terminal`).
 */
export function withPlainCodeInfo(markdown: string): string {
  if (!/^[ \t]{0,3}(?:`{3,}|~{3,})[^\n]*?\S[ \t{[]/m.test(markdown)) return markdown;
  return mapOutsideFences(
    markdown,
    (text) => text,
    (block) => {
      const newline = block.indexOf('\n');
      const first = newline < 0 ? block : block.slice(0, newline);
      // The opening fence; its info string is the language, then the site's meta.
      const opening = FENCE.exec(first);
      if (!opening) return block;
      const info = first.slice(opening[0].length).trim();
      const language = /^[^\s{[=]+(?=$|[\s{[])/.exec(info)?.[0];
      // No language first (`title="x"` alone): the file name would be read as one; left as written.
      if (!language) return block;
      const meta = info.slice(language.length);
      if (!/\S/.test(meta)) return block;
      const shown = fileName(meta);
      const line = `${opening[0]}${[language, shown].filter(Boolean).join(' ')}`;
      return newline < 0 ? line : line + block.slice(newline);
    },
  );
}

/** The file name the meta captions the block with, if any, as one word-spaced string. */
function fileName(meta: string): string | undefined {
  let named: string | undefined;
  let label: string | undefined;
  let bare: string | undefined;
  META.lastIndex = 0;
  for (let match = META.exec(meta); match && match[0] !== ''; match = META.exec(meta)) {
    const [, key, double, single, braced, plain, bracketed, , word] = match;
    if (key !== undefined) {
      const value = double ?? single ?? plain ?? (braced !== undefined ? /^\s*["'`]([^"'`]*)["'`]\s*$/.exec(braced)?.[1] : undefined);
      if (FILE_KEYS.has(key) && value?.trim()) named ??= value.trim();
    } else if (bracketed !== undefined) {
      if (bracketed.trim()) label ??= bracketed.trim();
    } else if (word !== undefined && /[./]/.test(word) && /\w/.test(word) && !/^\/\//.test(word)) {
      bare ??= word;
    }
  }
  return named ?? label ?? bare;
}
