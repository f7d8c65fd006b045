import { mapProse } from './markdown-text.js';

// Where a link back goes: the page's own top (`#`) or a folder's index page (`../README.md`,
// `../README.md#documentation-for-models`, `./index.md`).
const BACK_TARGET = String.raw`\((?:#|(?:\.{1,2}\/)*(?:README|readme|index)(?:\.mdx?|\.html?)?(?:#[^)\s]*)?)\)`;
// One link back; its text may hold one pair of brackets.
const BACK_LINK = String.raw`\[(?:\[[^\]\n]*\]|[^[\]\n])*\]${BACK_TARGET}`;
// One link back whose whole text is in brackets, the generator's button (`[[Back to README]](../README.md)`):
// alone on its line it is navigation too, where a plain link alone (`[Apikey](../README.md#Apikey)`) is text.
const BUTTON_LINK = String.raw`\[\[[^\]\n]*\]\]${BACK_TARGET}`;
const NAVIGATION_ROW = new RegExp(String.raw`^[ \t]*(?:(?:${BACK_LINK}[ \t]*){2,}|${BUTTON_LINK}[ \t]*)$`);

/**
 * The Markdown without its navigation rows, outside code: a line of two or more links and
 * nothing else, each back to the page's top or to a folder's index (OpenAPI Generator's
 * `[[Back to top]](#) [[Back to API list]](../README.md#documentation-for-api-endpoints)
 * [[Back to README]](../README.md)` closing each method and model), or of one such link
 * written as a button, its text in brackets (`[[Back to README]](../../README.md)` closing
 * each model page of some generators). They are the site's
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
