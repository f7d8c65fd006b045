/** The files after the loader, by stage, beside it in `dist/` (the build names them so too). */
export const STAGE_FILES = { box: 'bot-answer-box.js', chat: 'bot-answer-chat.js' } as const;

/**
 * The folder the classic script finds its other files in (`script` is its own URL): its own. Loaded from a
 * CDN by the package's name rather than by a file's path (`https://unpkg.com/bot-answer`, which redirects,
 * `…/bot-answer@1`, `…/bot-answer@latest/dist/…`), that folder may not hold this release: then this exact
 * version's `dist/` folder on the same CDN.
 */
export function stageFolder(script: string, version: string): URL {
  const url = new URL(script);
  const m = /^(.*\/bot-answer)(@[^/]*)?(\/dist\/[^/]*)?$/.exec(url.pathname);
  if (m && (m[2] || !m[3])) url.pathname = `${m[1]}@${version}/dist/`;
  return url;
}
