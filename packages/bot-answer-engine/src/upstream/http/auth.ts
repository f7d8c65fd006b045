import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Why a request was not authenticated. The messages never repeat the key. */
export type AuthFailure = 'missing' | 'scheme' | 'empty' | 'unknown' | 'revoked';

export const AUTH_MESSAGES: Record<AuthFailure, string> = {
  missing: 'Missing Authorization header; send "Authorization: Bearer <API_KEY>"',
  scheme: 'Authorization header must use the Bearer scheme: "Bearer <API_KEY>"',
  empty: 'Empty API key in the Authorization header',
  unknown: 'Invalid API key',
  revoked: 'This API key has been deleted',
};

/** A fresh random API key, for when none is configured. */
export function generateKey(): string {
  return `ak_${randomBytes(24).toString('base64url')}`;
}

/** Checks `Authorization: Bearer <key>` against the accepted and revoked keys. */
export class KeyChecker {
  readonly #accepted: Buffer[];
  readonly #revoked: Buffer[];

  constructor(accepted: readonly string[], revoked: readonly string[] = []) {
    this.#accepted = accepted.map(digest);
    this.#revoked = revoked.map(digest);
  }

  /** `undefined` when the header carries an accepted key, else why not. */
  check(header: string | undefined): AuthFailure | undefined {
    if (header === undefined) return 'missing';
    const match = /^\s*(\S+)(?:\s+(.*?))?\s*$/.exec(header);
    if (!match) return 'missing';
    // Auth schemes are case-insensitive (RFC 9110, section 11.1).
    if (match[1]!.toLowerCase() !== 'bearer') return 'scheme';
    const key = match[2] ?? '';
    if (key === '') return 'empty';
    const hash = digest(key);
    if (this.#revoked.some((k) => timingSafeEqual(k, hash))) return 'revoked';
    if (this.#accepted.some((k) => timingSafeEqual(k, hash))) return undefined;
    return 'unknown';
  }
}

// Comparing fixed-length digests keeps the comparison constant-time whatever the key's length.
function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}
