import { STATUS_CODES } from 'node:http';

/**
 * Cuts a chunk into parts so that every multi-byte UTF-8 character is split between two
 * parts (after its first byte). Written separately, the parts make a client see characters
 * torn across reads, as TCP may deliver them.
 */
export function splitInsideCharacters(chunk: string): Buffer[] {
  const bytes = Buffer.from(chunk, 'utf8');
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    // A lead byte of a multi-byte sequence is 11xxxxxx; cut right after it.
    if ((bytes[i]! & 0xc0) === 0xc0) {
      parts.push(bytes.subarray(start, i + 1));
      start = i + 1;
    }
  }
  parts.push(bytes.subarray(start));
  return parts.filter((part) => part.length > 0);
}

/** The JSON body of a forced error status (the `status` fault), FastAPI-style. */
export function faultStatusBody(status: number): { detail: string } {
  return { detail: STATUS_CODES[status] ?? 'Error' };
}

/**
 * After how many pieces a fault set to trigger "after N pieces" fires; the streamer fires it
 * after the last piece when the answer is shorter, so a set fault always happens.
 */
export function triggerAfter(n: number | undefined): number | undefined {
  return n === undefined || n < 0 ? undefined : Math.floor(n);
}
