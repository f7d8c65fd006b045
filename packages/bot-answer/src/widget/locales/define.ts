import { LOCALE_EVENT } from '../locale.js';
import type { Strings } from '../strings.js';

/**
 * Registers the strings of one language for every `<bot-answer>` on the page whose `lang` (or nearest
 * ancestor's) is that language, and tells those already shown to re-render. Each translation module calls
 * it once; they are built as small standalone scripts (`dist/locales/<lang>.js`), never into the main bundle.
 */
export function defineLocale(lang: string, strings: Strings) {
  (globalThis.botAnswerLocales ??= {})[lang] = strings;
  // Guarded so a server-side render may import a translation too (Node has no window to tell).
  globalThis.dispatchEvent?.(new Event(LOCALE_EVENT));
}
