/** How `<bot-answer>` reads its attributes into properties (attribute converters, in Lit's function form). */

/** `"false"` is false, anything else (absent included) true. */
export const trueUnlessFalse = (v: string | null) => v != 'false';

/** Present, whatever its text (an HTML boolean attribute). */
export const present = (v: string | null) => v != null;

/** The text as a number (absent: null). */
export const number = (v: string | null) => (v == null ? v : +v);

/** Present and not `"false"`. */
export const presentAndNotFalse = (v: string | null) => v != null && v != 'false';

/**
 * `v` parsed as JSON when it starts as an array or an object does, else undefined. Other text (`a|b`) is not
 * parsed at all: a SyntaxError's stack makes V8 parse the whole loader again for its source positions, 2 to 3 ms
 * of the page's load at 1x CPU.
 */
function parseJson(v: string | null): unknown {
  if (/^\s*[[{]/.test(v!))
    try {
      return JSON.parse(v!);
    } catch {
      // The caller decides what text that is not JSON means.
    }
}

/** A JSON array of strings, or strings separated by `|`. */
export function stringList(v: string | null): string[] {
  const a = parseJson(v);
  return (Array.isArray(a) ? a : (v ?? '').split('|')).filter((s) => typeof s == 'string' && s.trim()).map((s) => s.trim());
}

/** A JSON object; anything else warns in the console and gives `{}` (so every default stays). */
export function jsonObject(v: string | null): object {
  const o = parseJson(v);
  if (o?.constructor == Object) return o!;
  if (v) console.warn('bot-answer: not a JSON object:', v);
  return {};
}
