/**
 * Keeps the upstream key out of log lines. Debug details quote the upstream, which may echo
 * what it was sent: the key as is, URL-encoded, base64-encoded inside a header value, or cut
 * off by a length limit. So every run of `WINDOW` or more characters taken from any of those
 * forms is replaced, wherever it stands.
 */
const WINDOW = 8;

export function createRedactor(key: string): (text: string) => string {
  if (!key) return (text) => text;
  const size = Math.min(WINDOW, key.length);
  const pieces = new Set<string>();
  for (const form of secretForms(key)) {
    for (let i = 0; i + size <= form.length; i++) pieces.add(form.slice(i, i + size));
  }
  return (text) => {
    const hit = new Uint8Array(text.length);
    let found = false;
    for (let i = 0; i + size <= text.length; i++) {
      if (pieces.has(text.slice(i, i + size))) {
        hit.fill(1, i, i + size);
        found = true;
      }
    }
    if (!found) return text;
    let out = '';
    for (let i = 0; i < text.length; i++) {
      if (!hit[i]) out += text[i];
      else if (!hit[i - 1]) out += '[redacted]';
    }
    return out;
  };
}

/** The key and the encodings in which an upstream could echo it. */
function secretForms(key: string): string[] {
  const forms = [key, encodeURIComponent(key), encodeURIComponent(encodeURIComponent(key))];
  const bytes = new TextEncoder().encode(key);
  // Base64 of a longer string (e.g. "Bearer <key>") depends on where the key starts within a
  // 3-byte group: encode it at each of the three offsets and keep the characters that depend on the key only.
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const encoded = btoa(String.fromCharCode(...padded));
    // The first group mixes in the bytes before the key, the last one the bytes after it.
    const inner = encoded.slice(offset ? 4 : 0, encoded.length - 4);
    forms.push(inner, inner.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms.filter((form) => form.length > 0);
}

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
/** 13 to 19 digits, single spaces or dashes allowed between them: every card number's shape. */
const CARD = /(?<![\p{L}\p{N}])\p{N}(?:[ -]?\p{N}){12,18}(?![\p{L}\p{N}])/gu;
/** `password: ...`, `api_key=...`, `token=...`: the label stays, the value goes. */
const ASSIGNED = /\b((?:api[ _-]?key|access[ _-]?token|token|secret|password|passwd|pwd)\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s"',;]+)/giu;
const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g;
/** Prefixes of well-known keys (Stripe, OpenAI, GitHub, GitLab, Slack, Google, AWS), then at least 10 more characters. */
const KNOWN_KEY = /\b(?:(?:sk|pk|rk)[-_](?:(?:live|test|proj)[-_])?|gh[pousr]_|github_pat_|glpat-|xox[abprs]-|AIza|AKIA|ASIA)[A-Za-z0-9_-]{10,}/g;
/** A run of characters a token is made of; it is key-like when a part of it looks random (below). */
const TOKEN = /[A-Za-z0-9_\-+/=]{16,}/g;
const ALNUM_PART = /[A-Za-z0-9+/=]{16,}/g;

/** Sixteen or more letters and digits in a row, with at least two of each: a key, a hash, a password, not a word. */
function looksRandom(token: string): boolean {
  for (const [part] of token.matchAll(ALNUM_PART)) {
    let digits = 0;
    let letters = 0;
    for (const char of part) {
      if (char >= '0' && char <= '9') digits++;
      else if (/[A-Za-z]/.test(char)) letters++;
    }
    if (digits >= 2 && letters >= 2) return true;
  }
  return false;
}

/**
 * Takes personal and secret data out of text a visitor typed, before it is stored or logged:
 * e-mail addresses become `[email]`, card-like digit runs (13 to 19 digits, spaces or dashes
 * between them) `[card]`, and key-like tokens `[key]`: JSON Web Tokens, well-known key prefixes
 * (`sk-`, `ghp_`, `xoxb-`, `AKIA`...), the value after
 * `password:`, `token=`, `api_key:` or `secret=`, and any run of 16 or more letters and
 * digits with at least two of each (API keys such as `sk-live-…`, `ghp_…`, `AKIA…`, hashes).
 */
export function redactPersonalData(text: string): string {
  return text
    .replace(JWT, '[key]')
    .replace(KNOWN_KEY, '[key]')
    .replace(EMAIL, '[email]')
    .replace(ASSIGNED, (_, label: string, value: string) => (value.startsWith('[') ? label + value : `${label}[key]`))
    .replace(CARD, '[card]')
    .replace(TOKEN, (token) => (looksRandom(token) ? '[key]' : token));
}
