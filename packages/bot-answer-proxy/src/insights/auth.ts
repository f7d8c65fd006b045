const encoder = new TextEncoder();

/** The session cookie's name. */
export const SESSION_COOKIE = 'bot_answer_insights';
/** How long a sign-in lasts. */
export const SESSION_SECONDS = 7 * 24 * 3600;
/** The shortest token accepted: long enough that guessing it (10 tries a minute) is hopeless. */
export const MIN_TOKEN_CHARS = 16;

function base64url(bytes: ArrayBuffer): string {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A MAC from its base64url text; only the one text `base64url` gives for it (the last character's spare bits decode to nothing, so other texts would pass too). */
function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '=');
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return base64url(bytes.buffer) === text ? bytes : undefined;
}

/** One cookie's value from a `Cookie` header. */
function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The owner's credentials, all derived from the token with HMAC-SHA-256 (Web Crypto, so it runs
 * on every runtime): a bearer token is checked by comparing MACs (`crypto.subtle.verify`, in
 * constant time), and the session cookie holds a time and the MAC of it, never the token.
 * Changing the token signs every session out.
 */
export class InsightsAuth {
  private readonly key: ReturnType<typeof crypto.subtle.importKey>;
  private readonly expected: Promise<ArrayBuffer>;

  constructor(token: string) {
    this.key = crypto.subtle.importKey('raw', encoder.encode(token), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    this.expected = this.key.then((key) => crypto.subtle.sign('HMAC', key, encoder.encode(`bearer|${token}`)));
  }

  /** Whether `given` is the token, compared without leaking where it differs. */
  async isToken(given: string): Promise<boolean> {
    return crypto.subtle.verify('HMAC', await this.key, await this.expected, encoder.encode(`bearer|${given}`));
  }

  /** The bearer token of an `Authorization` header: `undefined` without one. */
  static bearer(request: Request): string | undefined {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
    return match?.[1];
  }

  /** A fresh session value: `<issued at, seconds>.<MAC>`. */
  async newSession(now = Date.now()): Promise<string> {
    const issued = Math.floor(now / 1000);
    return `${issued}.${base64url(await crypto.subtle.sign('HMAC', await this.key, encoder.encode(`session|${issued}`)))}`;
  }

  /** Whether the request's session cookie is one this token issued, and not expired. */
  async hasSession(request: Request, now = Date.now()): Promise<boolean> {
    const value = cookieValue(request.headers.get('cookie'), SESSION_COOKIE);
    const match = value === undefined ? null : /^(\d{1,12})\.([A-Za-z0-9_-]+)$/.exec(value);
    if (!match) return false;
    const issued = Number(match[1]);
    const age = now / 1000 - issued;
    if (age > SESSION_SECONDS || age < -300) return false;
    const mac = fromBase64url(match[2]!);
    return mac !== undefined && crypto.subtle.verify('HMAC', await this.key, mac, encoder.encode(`session|${issued}`));
  }

  /** The `Set-Cookie` value signing the browser in: HttpOnly, SameSite=Strict, scoped to the insights path, Secure over https. */
  static sessionCookie(value: string, path: string, secure: boolean): string {
    return `${SESSION_COOKIE}=${value}; Path=${path}; Max-Age=${SESSION_SECONDS}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  }

  /** The `Set-Cookie` value signing the browser out. */
  static clearedCookie(path: string, secure: boolean): string {
    return `${SESSION_COOKIE}=; Path=${path}; Max-Age=0; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  }
}
