/** The files after the loader, by stage, beside it in `dist/` (the build names them so too). */
export const STAGE_FILES = { box: 'bot-answer-box.js', chat: 'bot-answer-chat.js' } as const;

/**
 * Where the classic script finds its other files (`file`: `bot-answer-box.js`, `bot-answer-chat.js`): beside
 * itself (`script` is its own URL). Loaded from a CDN by the package's name rather than by a file's path
 * (`https://unpkg.com/bot-answer`, which redirects, `…/bot-answer@1`, `…/bot-answer@latest/dist/…`), the
 * folder holding the script may not be this release's: the files then come from this exact version's
 * `dist/` folder on the same CDN.
 */
export function stageUrl(script: string, file: string, version: string): string {
  const url = new URL(script);
  const m = /^(.*\/bot-answer)(@[^/]*)?(\/dist\/[^/]*)?$/.exec(url.pathname);
  if (m && (m[2] || !m[3])) url.pathname = `${m[1]}@${version}/dist/`;
  return new URL(file, url).href;
}
