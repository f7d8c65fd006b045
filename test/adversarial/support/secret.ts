import { randomBytes } from 'node:crypto';
import { count } from './tally.js';

/**
 * The upstream key used across the suite, and every form in which it could leak. It holds
 * `+`, `/` and `=` so its URL-encoded form differs from the plain one. The runner passes one key
 * to every test file (ADVERSARIAL_KEY) and builds the bundle with it in the environment.
 */
export const KEY = process.env.ADVERSARIAL_KEY || `sk-adv+${randomBytes(12).toString('base64')}/${randomBytes(6).toString('hex')}=`;

/** The key as plain text, base64 (alone and inside `Bearer ...`), base64url and URL-encoded, and a cut-off piece of it. */
const FORMS: ReadonlyArray<[string, string]> = [
  ['plain', KEY],
  ['base64', Buffer.from(KEY).toString('base64').replace(/=+$/, '')],
  ['base64url', Buffer.from(KEY).toString('base64url')],
  ['base64 of "Bearer <key>"', Buffer.from(`Bearer ${KEY}`).toString('base64').replace(/=+$/, '')],
  ['URL-encoded', encodeURIComponent(KEY)],
  ['encodeURI', encodeURI(KEY)],
  // Long enough to be the key, short enough to catch a truncated or reflowed copy.
  ['16-character piece', KEY.slice(7, 7 + 16)],
];
export const KEY_FORMS: readonly string[] = FORMS.map(([, form]) => form);

/**
 * Scans one text for every form of the key; returns the forms found (empty when clean) and
 * adds the scan to the suite's tally (unless `tally` is false, as for the scanner's self-check).
 */
export function findKey(text: string, where: string, tally = true): string[] {
  const found = FORMS.filter(([, form]) => text.includes(form)).map(([name]) => `${where}: the key (${name})`);
  if (tally) {
    count('keyScans');
    count('bytesScannedForKey', Buffer.byteLength(text));
    if (found.length) count('keySightings', found.length);
  }
  return found;
}
