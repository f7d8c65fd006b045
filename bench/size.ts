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

/** The element's built files: the two loaders, the box and the chat. */
export interface ElementFiles {
  iife: string;
  es: string;
  box: string;
  chat: string;
}

/**
 * Size benchmark: gzip and brotli of each of the element's files, and what a page pays: before intent
 * (the loader on a floating page, the loader and the box on an inline one) and once the chat is open (all
 * three). The chat is set against the floor (the smallest Lit element with the same dependencies, built the
 * same way); the open total against today's single bundle when it could be built. Goals: at most 3 KiB
 * before intent on a floating page and 4 KiB on an inline one, 42 KiB once open.
 */
export async function benchSize(report: Report, files: ElementFiles, floor: string, single?: string): Promise<void> {
  const [iife, es, box, chat, floorSize, singleSize] = await Promise.all(
    [files.iife, files.es, files.box, files.chat, floor, single].map(async (f) => (f ? compressedSizes(await readFile(f)) : undefined)),
  );
  for (const [id, label, size, baseline] of [
    ['iife', 'bot-answer.iife.js (the loader, classic script)', iife!, undefined],
    ['es', 'bot-answer.js (the loader, ES module)', es!, undefined],
    ['box', 'bot-answer-box.js (the box)', box!, undefined],
    ['chat', 'bot-answer-chat.js (the chat)', chat!, floorSize && { label: 'floor', size: floorSize }],
  ] as const) {
    for (const codec of ['gzip', 'brotli', 'raw'] as const) {
      report.add({
        section: 'size',
        id: `${id}.${codec}`,
        label: `${label} ${codec === 'raw' ? 'minified' : codec}`,
        value: size[codec] / KiB,
        unit: 'KiB',
        ...(baseline ? { baseline: { label: baseline.label, value: baseline.size[codec] / KiB } } : {}),
      });
    }
  }
  const loader = Math.max(iife!.gzip, es!.gzip);
  const total = (label: string, id: string, bytes: number, budget: number, note: string, against?: { gzip: number }) => {
    report.add({
      section: 'size',
      id,
      label,
      value: bytes / KiB,
      unit: 'KiB',
      ...(against ? { baseline: { label: 'single bundle', value: against.gzip / KiB } } : {}),
      goal: `<= ${budget} KiB`,
      met: bytes <= budget * KiB,
      note,
    });
  };
  total('before intent, floating page (gzip)', 'before-intent.floating', loader, 3, 'the larger loader (classic script or ES module)', singleSize);
  total('before intent, inline page (gzip)', 'before-intent.inline', loader + box!.gzip, 4, 'the larger loader and the box', singleSize);
  total('once the chat is open (gzip)', 'open', loader + box!.gzip + chat!.gzip, 42, 'the larger loader, the box and the chat', singleSize);
}
