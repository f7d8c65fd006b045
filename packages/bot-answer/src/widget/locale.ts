import type { Strings } from './strings.js';

/** Fired on `window` when a translation module (`locales/`) has registered its strings. */
export const LOCALE_EVENT = 'bot-answer-locale';

declare global {
  /** The translations loaded on this page, by lowercase language tag; filled by the modules in `locales/`. */
  // eslint-disable-next-line no-var
  var botAnswerLocales: Record<string, Partial<Strings>> | undefined;
}

/** The loaded translation for the language tag `lang` (`de-AT` falls back to `de`), if any. */
export function localeStrings(lang: string): Partial<Strings> | undefined {
  const all = globalThis.botAnswerLocales;
  const tag = lang.toLowerCase();
  return all?.[tag] ?? all?.[tag.split('-')[0]];
}
