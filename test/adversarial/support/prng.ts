/** A small seeded PRNG (mulberry32), so every random chunking can be replayed from its seed. */
export interface Rng {
  /** Float in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

/**
 * Splits bytes at random places, favouring the awkward ones: inside a multi-byte UTF-8
 * character, between the CR and LF of a CRLF pair, right after a line end or a colon.
 * Between 0 and `maxCuts` cuts, so a stream costs a bounded number of writes.
 */
export function chunkBytes(bytes: Uint8Array, rng: Rng, maxCuts = 120): Uint8Array[] {
  if (bytes.length < 2) return bytes.length ? [bytes] : [];
  const awkward: number[] = [];
  for (let i = 1; i < bytes.length; i++) {
    const b = bytes[i]!;
    const prev = bytes[i - 1]!;
    if ((b & 0xc0) === 0x80 || (prev === 0x0d && b === 0x0a) || prev === 0x0a || prev === 0x0d || prev === 0x3a) awkward.push(i);
  }
  const cuts = new Set<number>();
  const n = rng.int(0, Math.min(maxCuts, bytes.length - 1));
  for (let k = 0; k < n; k++) {
    if (awkward.length && rng.chance(0.6)) cuts.add(rng.pick(awkward));
    else cuts.add(rng.int(1, bytes.length - 1));
  }
  const sorted = [...cuts].sort((x, y) => x - y);
  const out: Uint8Array[] = [];
  let start = 0;
  for (const cut of sorted) {
    out.push(bytes.subarray(start, cut));
    start = cut;
  }
  out.push(bytes.subarray(start));
  return out;
}
