/** Plain helpers that turn untrusted source fields into safe, display-ready values. */

/**
 * `url` when it starts with one of `schemes` (default http(s)) and `//`, else undefined. The scheme is
 * then fixed whatever follows (the URL parser only trims leading spaces and controls, which fail the test).
 */
export const safeUrl = (url: unknown, schemes = /^https?:\/\//i) => (typeof url == 'string' && schemes.test(url) ? url : undefined);

/** A date from Unix seconds, tolerating milliseconds; undefined for missing or absurd values. */
export function sourceDate(t: unknown): Date | undefined {
  // Anything but a positive number (or a string or value that converts to one) fails here.
  if (!((t as number) > 0)) return;
  const d = new Date((t as number) > 1e11 ? (t as number) : (t as number) * 1e3);
  const y = d.getFullYear();
  if (y > 1970 && y < 3000) return d;
}

/**
 * The formatter of source dates (medium style) for `lang`: the browser's own locale when `lang` is empty or
 * not a valid tag. One per language, made when the language changes (`toLocaleDateString` with options
 * would make one per call).
 */
export function dateFormat(lang: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(lang || [], { dateStyle: 'medium' });
  } catch {
    return dateFormat('');
  }
}

/** `s` cut to `n` characters (with an ellipsis), so a 100 KB field costs no more than a short one. */
export const cap = (s: unknown, n: number) => {
  const v = typeof s == 'string' ? s : '';
  return v.length > n ? v.slice(0, n) + '…' : v;
};
