import { basename } from 'node:path';

// A list item that is one link and nothing else (its text may hold code: [`.get()`](get.md)).
const LINK_ITEM = /^[ \t]*[-*+][ \t]+\[[^\]\n]*\]\([^)\n]*\)[ \t]*$/;
// A list item that labels the links nested under it: a few words, or a few words in bold.
const LABEL_ITEM = /^[ \t]*[-*+][ \t]+(?:\*\*[^*\n]+\*\*|[^[\]()`\n]{1,60})[ \t]*$/;
const HEADING_LINE = /^[ \t]{0,3}#{1,6}[ \t]/;

/**
 * Whether a Markdown file is a site's navigation, not one of its pages: a partial, its name
 * starting with `_` as site generators name the files they build into every page (docsify's
 * `_sidebar.md` and `_navbar.md`, a GitHub wiki's `_Sidebar.md`), whose text is nothing but a
 * list of links (a link or a label heading links on each line). Read as a page, it holds every
 * page's title, so it shares the words of any question, and it is cited at an address no
 * visitor reads. A partial that says something (`___NOTE.md`), and a page that only lists its
 * folder's pages (`usage/README.md`, a page of the site), are pages.
 */
export function isNavigationFile(path: string, body: string): boolean {
  if (!basename(path).startsWith('_')) return false;
  let links = 0;
  for (const line of body.split('\n')) {
    if (line.trim() === '' || HEADING_LINE.test(line)) continue;
    if (LINK_ITEM.test(line)) links++;
    else if (!LABEL_ITEM.test(line)) return false;
  }
  return links > 0;
}
