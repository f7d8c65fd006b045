import type { ChildNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';

/** What a sitemap file lists: pages (`<urlset>`), or more sitemaps (`<sitemapindex>`). */
export interface SitemapEntries {
  pages: string[];
  sitemaps: string[];
}

/**
 * The `<loc>` entries of a sitemap or sitemap index (sitemaps.org), in order. Parsed by
 * htmlparser2 in XML mode, which takes any markup without failing; entries are not checked here.
 */
export function readSitemap(xml: string): SitemapEntries {
  const document = parseDocument(xml, { xmlMode: true, decodeEntities: true });
  const pages: string[] = [];
  const sitemaps: string[] = [];
  const stack: ChildNode[] = [...document.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type !== 'tag') continue;
    const el = node as Element;
    const name = localName(el.name);
    if (name === 'url' || name === 'sitemap') {
      const loc = el.children.find((c): c is Element => c.type === 'tag' && localName((c as Element).name) === 'loc');
      const text = loc ? textOf(loc).trim() : '';
      if (text) (name === 'url' ? pages : sitemaps).push(text);
      continue;
    }
    for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]!);
  }
  return { pages, sitemaps };
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1).toLowerCase();
}

/** The text of an element, CDATA sections included. */
function textOf(el: { children: ChildNode[] }): string {
  return el.children.map((c) => ('data' in c && c.type === 'text' ? c.data : 'children' in c ? textOf(c) : '')).join('');
}
