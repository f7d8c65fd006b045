import { readFile } from 'node:fs/promises';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import type { Report } from './lib/report.js';

/** Bytes of `code` as shipped (raw), gzip level 9 and brotli quality 11. */
export function compressedSizes(code: Buffer): { raw: number; gzip: number; brotli: number } {
  return {
    raw: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: code.length } }).length,
  };
}

const KiB = 1024;

/**
 * Size benchmark: gzip and brotli of dist/bot-answer.iife.js and dist/bot-answer.js against
 * the floor built the same way. Goals: IIFE within 40 KiB gzip and within 1.25x the floor.
 */
export async function benchSize(report: Report, files: { iife: string; es: string }, floor: { iife: string; es: string }): Promise<void> {
  for (const [kind, ours, base] of [
    ['iife', files.iife, floor.iife],
    ['es', files.es, floor.es],
  ] as const) {
    const a = compressedSizes(await readFile(ours));
    const b = compressedSizes(await readFile(base));
    const name = kind === 'iife' ? 'bot-answer.iife.js' : 'bot-answer.js';
    for (const codec of ['gzip', 'brotli', 'raw'] as const) {
      const isGoal = kind === 'iife' && codec === 'gzip';
      const ratio = a[codec] / b[codec];
      report.add({
        section: 'size',
        id: `${kind}.${codec}`,
        label: `${name} ${codec === 'raw' ? 'minified' : codec}`,
        value: a[codec] / KiB,
        unit: 'KiB',
        baseline: { label: 'floor', value: b[codec] / KiB },
        ...(isGoal ? { goal: '<= 40 KiB and <= 1.25x floor', met: a[codec] <= 40 * KiB && ratio <= 1.25 } : {}),
      });
    }
  }
}
