/**
 * One job of the sites section's memory measure, in a process of its own (`bench/sites.ts`
 * forks it): `folder <dir> <indexFolder>` indexes a folder of pages, `crawl <url> <pages>
 * <indexFolder>` crawls a site of them until indexed. It answers its peak resident memory (the
 * process's own: not that of a build process it starts), the seconds the job took and the
 * documents indexed, and ends.
 */
import { readFileSync } from 'node:fs';
import { loadBots, type Bot } from '../packages/bot-answer-engine/src/upstream/bots.js';

const [job, source, third, fourth] = process.argv.slice(2) as [string, string, string, string?];

async function run(): Promise<Map<string, Bot>> {
  if (job === 'folder') return loadBots(source, undefined, { kbSettings: { baseUrl: 'https://example.com/docs/' }, indexFolder: third, watch: false, log: () => {} });
  let crawled = false;
  const bots = await loadBots(undefined, undefined, { site: { url: source, maxPages: Number(third), refreshMs: 0 }, indexFolder: fourth!, watch: false, log: (l) => (crawled ||= /crawled in/.test(l)) });
  while (!crawled) await new Promise((r) => setTimeout(r, 20));
  return bots;
}

const started = performance.now();
const bots = await run();
const seconds = (performance.now() - started) / 1000;
const documents = bots.get('demo')!.documents;
for (const bot of bots.values()) bot.close();
process.send!({ peakMb: peakRssMb(), seconds, documents }, () => process.disconnect());

/**
 * This process's peak resident memory in MB. On Linux, from its own memory's high-water mark
 * (`VmHWM`): `getrusage`'s maxRSS keeps the high-water mark of the process it was forked from
 * across the exec, so every job forked by a benchmark holding 161 MB read 161 MB. Elsewhere,
 * maxRSS (KiB).
 */
function peakRssMb(): number {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib) return (Number(kib) * 1024) / 1e6;
  } catch {
    // No /proc: not Linux.
  }
  return (process.resourceUsage().maxRSS * 1024) / 1e6;
}
