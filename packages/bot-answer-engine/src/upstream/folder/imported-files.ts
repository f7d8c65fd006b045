import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { mapOutsideFences } from './markdown-text.js';

// `import Build from "/snippets/cli/build.mdx";`: a default import of a Markdown file.
const IMPORT = /^[ \t]*import[ \t]+([A-Z]\w*)[ \t]+from[ \t]+(['"])([^'"]+\.mdx?)\2;?[ \t]*$/gm;
const FRONT_MATTER = /^[ \t]*---[ \t]*\n[\s\S]*?\n?---[ \t]*(?:\n|$)/;
/** Deepest a fragment may import other fragments. */
const DEPTH = 3;

/** Where an import of `spec` from the file at `path` (relative to the folder) lands, relative to the folder; none outside it or unresolved. */
function importedPath(path: string, spec: string): string | undefined {
  const target = spec.startsWith('/') ? normalize(spec.slice(1)) : spec.startsWith('.') ? normalize(join(dirname(path), spec)) : undefined;
  if (target === undefined || target.startsWith('..') || target.startsWith(sep)) return undefined;
  return target.split(sep).join('/');
}

/** The default imports of Markdown files a page makes and renders (`<Build />` alone on a line), resolved inside the folder. */
export function renderedImports(path: string, text: string): Map<string, string> {
  const outside = mapOutsideFences(text, (lines) => lines, () => '');
  const found = new Map<string, string>();
  for (const [, name, , spec] of outside.matchAll(IMPORT)) {
    const target = importedPath(path, spec);
    if (target && new RegExp(`^[ \\t]*<${name}[ \\t]*/>[ \\t]*$`, 'm').test(outside)) found.set(name, target);
  }
  return found;
}

/**
 * A page with the Markdown files it imports and renders written in where they are rendered, as
 * the published page shows them: `<Build />` replaced by the imported file's text (its front
 * matter left out, its own imports written in too, a few levels deep).
 */
export function withImportedFiles(root: string, path: string, text: string, depth = 0): string {
  const imports = renderedImports(path, text);
  if (imports.size === 0 || depth >= DEPTH) return text;
  return mapOutsideFences(text, (lines) =>
    lines.replace(/^([ \t]*)<([A-Z]\w*)[ \t]*\/>[ \t]*$/gm, (line, _indent: string, name: string) => {
      const target = imports.get(name);
      if (!target) return line;
      let fragment: string;
      try {
        fragment = readFileSync(join(root, target), 'utf8');
      } catch {
        return line;
      }
      return withImportedFiles(root, target, fragment.replace(FRONT_MATTER, ''), depth + 1).trim();
    }),
  );
}

const importedByRoot = new Map<string, Set<string>>();

/** Files of the folder another page imports and renders (prototype: scanned once per folder). */
export function importedFiles(root: string): Set<string> {
  let found = importedByRoot.get(root);
  if (found) return found;
  found = new Set();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const file = join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.mdx?$/i.test(name)) {
        const path = relative(root, file).split(sep).join('/');
        for (const target of renderedImports(path, readFileSync(file, 'utf8')).values()) if (target !== path) found.add(target);
      }
    }
  };
  walk(root);
  importedByRoot.set(root, found);
  return found;
}
