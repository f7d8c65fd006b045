import { mapProse } from './markdown-text.js';

// One link whose target is the page's own top (`#`) or a folder's index page (`../README.md`,
// `../README.md#documentation-for-models`, `./index.md`); its text may hold one pair of brackets.
const BACK_LINK = String.raw`\[(?:\[[^\]\n]*\]|[^[\]\n])*\]\((?:#|(?:\.{1,2}\/)*(?:README|readme|index)(?:\.mdx?|\.html?)?(?:#[^)\s]*)?)\)`;
const NAVIGATION_ROW = new RegExp(String.raw`^[ \t]*(?:${BACK_LINK}[ \t]*){2,}$`);

/**
 * The Markdown without its navigation rows, outside code: a line of two or more links and
 * nothing else, each back to the page's top or to a folder's index (OpenAPI Generator's
 * `[[Back to top]](#) [[Back to API list]](../README.md#documentation-for-api-endpoints)
 * [[Back to README]](../README.md)` closing each method and model). They are the site's
 * chrome, not the section's text: read as text, every section they close held the words "back",
 * "top", "model", "list" and "README".
 */
export function withoutNavigationRows(markdown: string): string {
  if (!markdown.includes('](')) return markdown;
  return mapProse(markdown, (prose) => {
    if (!prose.includes('](')) return prose;
    const lines = prose.split('\n');
    const kept: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (!NAVIGATION_ROW.test(lines[i]!)) kept.push(lines[i]!);
      // The row's paragraph goes with it: the blank line after it too.
      else if (lines[i + 1]?.trim() === '') i++;
    }
    return kept.join('\n');
  });
}
