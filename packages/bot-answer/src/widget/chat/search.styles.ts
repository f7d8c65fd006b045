/**
 * Styles of the pages found as the visitor types: the list under the question field, added by the chat stage
 * with the thread's, on the box's custom properties. Joined without newlines, as the others.
 */
export const searchStyles =
  // Its own box would add a gap to the panel's column even while the list is hidden.
  '.search{display:contents}' +
  '.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}' +
  '[part=search-results]{border:1px solid var(--bd);border-radius:var(--r);overflow:auto;max-height:min(24em,50vh)}' +
  '[part=search-result]{display:block;padding:calc(var(--s)/2) var(--s);color:var(--fg);text-decoration:none;overflow-wrap:anywhere}' +
  '[part=search-result]:hover,[aria-selected=true]{background:var(--sb)}' +
  '[aria-selected=true]{outline:2px solid var(--ac);outline-offset:-2px}' +
  '.rt{display:block;color:var(--ac);font-weight:600}' +
  '.rs{display:block;max-height:3em;overflow:hidden;color:var(--mu);font-size:.85em}' +
  'mark{color:inherit;background:none;font-weight:700}';
