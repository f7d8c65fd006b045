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
