import { baseFolder, documentUrl, URL_SCHEME, type DocumentUrlSettings } from '../folder/document-url.js';
import type { KbDocument } from '../folder/knowledge-base.js';

/** Where a link quoted from a document points, or undefined when it cannot be said (its text is kept, the link dropped). */
export type LinkResolver = (target: string) => string | undefined;

const MARKDOWN_FILE = /\.mdx?$/i;
// Any host: only the path the URL parser makes of the target is used.
const FOLDER_ROOT = 'http://folder.invalid/';

/**
 * Makes a document's links work where its passages are read: in an answer on another site, a
 * relative link (`./Server.md#close`, `../guide/`, `#options`) would resolve against the
 * visitor's page. A link to another Markdown file of the folder points at that file's published
 * URL (the same mapping of base URL and extension its own citations get), with its fragment,
 * whether written from the document (`./burrows.md`) or from the site's root to a file under the
 * base URL (`/docs/burrows.md`); a fragment alone points into the document's own URL; other
 * relative targets (images, files) resolve against the base URL. A target above the folder's
 * root is as far above the base URL (a generated client's `../README.md`). Absolute URLs are
 * kept. Without a base URL, what cannot be placed is undefined.
 */
export function linkResolver(document: KbDocument, settings: DocumentUrlSettings): LinkResolver {
  return (target) => {
    if (URL_SCHEME.test(target) || target.startsWith('//')) return target;
    const own = document.source.url;
    if (target.startsWith('#')) return own ? `${own.replace(/#.*$/, '')}${target}` : undefined;
    if (!settings.baseUrl) return undefined;
    const base = baseFolder(settings.baseUrl);
    try {
      if (target.startsWith('/')) return rootRelative(new URL(target, base), base, settings);
      const resolved = new URL(target, new URL(document.path.split('/').map(encodeURIComponent).join('/'), FOLDER_ROOT));
      // The URL parser stops `..` at the folder's root; a target above it (`../README.md` of a
      // generated client's docs) is that far above the base URL, as the folder's files are under it.
      const above = '../'.repeat(levelsAbove(document.path, target));
      const path = `${above}${decodeURIComponent(resolved.pathname.slice(1))}`;
      if (MARKDOWN_FILE.test(path)) return `${documentUrl(path, settings)!}${resolved.search}${resolved.hash}`;
      return new URL(`${above}${resolved.pathname.slice(1)}${resolved.search}${resolved.hash}`, base).href;
    } catch {
      // A target no URL can be made of (`%zz`): its text stays, the link goes.
      return undefined;
    }
  };
}

/** How many folders above the folder's root a relative target from the document at `path` leads. */
function levelsAbove(path: string, target: string): number {
  let depth = path.split('/').length - 1;
  let above = 0;
  const parts = target.replace(/[?#].*$/s, '').split('/');
  // The last part is a file's name, unless it names a folder (`..`).
  if (parts[parts.length - 1] !== '..') parts.pop();
  for (const part of parts) {
    if (part === '..') {
      if (depth > 0) depth--;
      else above++;
    } else if (part !== '.' && part !== '') depth++;
  }
  return above;
}

/**
 * A root-relative target (`/guide/burrows.md#night`): a Markdown file under the base URL is a
 * file of the folder, published as its relative links' targets are (a site's generator rewrites
 * both ways of writing the link alike); any other target is the site's own address.
 */
function rootRelative(url: URL, base: string, settings: DocumentUrlSettings): string {
  const root = new URL(base);
  if (url.origin !== root.origin || !url.pathname.startsWith(root.pathname)) return url.href;
  const path = decodeURIComponent(url.pathname.slice(root.pathname.length));
  return MARKDOWN_FILE.test(path) ? `${documentUrl(path, settings)!}${url.search}${url.hash}` : url.href;
}
