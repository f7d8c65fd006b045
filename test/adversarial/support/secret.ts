import { randomBytes } from 'node:crypto';
import { count } from './tally.js';

/**
 * The upstream key used across the suite, and every form in which it could leak. It holds
 * `+`, `/` and `=` so its URL-encoded form differs from the plain one. The runner passes one key
 * to every test file (ADVERSARIAL_KEY) and builds the bundle with it in the environment.
 */
export const KEY = process.env.ADVERSARIAL_KEY || `sk-adv+${randomBytes(12).toString('base64')}/${randomBytes(6).toString('hex')}=`;

/** The key as plain text, base64 (alone and inside `Bearer ...`), base64url and URL-encoded. */
export const KEY_FORMS: readonly string[] = [
  KEY,
  Buffer.from(KEY).toString('base64').replace(/=+$/, ''),
  Buffer.from(KEY).toString('base64url'),
  Buffer.from(`Bearer ${KEY}`).toString('base64').replace(/=+$/, ''),
  encodeURIComponent(KEY),
  encodeURI(KEY),
  // Long enough to be the key, short enough to catch a truncated or reflowed copy.
  KEY.slice(7, 7 + 16),
];

/**
 * Scans one text for every form of the key; returns the forms found (empty when clean) and
 * adds the scan to the suite's tally.
 */
export function findKey(text: string, where: string): string[] {
  count('keyScans');
  count('bytesScannedForKey', Buffer.byteLength(text));
  const found = KEY_FORMS.filter((form) => text.includes(form)).map((form) => `${where}: key form "${form.slice(0, 6)}..."`);
  if (found.length) count('keySightings', found.length);
  return found;
}
