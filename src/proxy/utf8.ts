// One shared decoder: a streaming TextDecoder per response would hold a converter for the
// stream's whole life, and many streams are open at once.
const decoder = new TextDecoder('utf-8');

/**
 * Decodes UTF-8 arriving in arbitrary pieces: a character split across pieces is held back
 * (at most 3 bytes) until the rest arrives. Invalid bytes become U+FFFD, as TextDecoder does.
 */
export class Utf8Pieces {
  private carry: Uint8Array | undefined;

  /** The text of `chunk` and any bytes held back, except an incomplete character at the end. */
  decode(chunk: Uint8Array): string {
    let bytes = chunk;
    if (this.carry) {
      bytes = new Uint8Array(this.carry.byteLength + chunk.byteLength);
      bytes.set(this.carry);
      bytes.set(chunk, this.carry.byteLength);
      this.carry = undefined;
    }
    const cut = completeLength(bytes);
    if (cut < bytes.byteLength) this.carry = bytes.slice(cut);
    return cut === 0 ? '' : decoder.decode(cut === bytes.byteLength ? bytes : bytes.subarray(0, cut));
  }

  /** Whatever is still held back (an incomplete character at the very end becomes U+FFFD). */
  end(): string {
    const rest = this.carry;
    this.carry = undefined;
    return rest ? decoder.decode(rest) : '';
  }
}

/** Length of `bytes` without a trailing incomplete UTF-8 sequence. */
function completeLength(bytes: Uint8Array): number {
  const n = bytes.byteLength;
  // Look back over at most 3 continuation bytes for the lead byte of the last character.
  for (let i = n - 1, back = 0; i >= 0 && back < 4; i--, back++) {
    const b = bytes[i]!;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 && b <= 0xf7 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return n - i < need && need > 1 ? i : n;
  }
  return n;
}
