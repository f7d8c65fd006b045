/**
 * The search section's quality by halves, quickly, for tuning search as you type: every set but
 * the sealed ones (as `npm run bench`, with `BENCH_SEALED` never set), in process, each question
 * typed as `typedQuery` makes it, with no speed part, no 2-word figure and no answers. Each set's
 * index is kept between runs in a folder of its own (`SEARCH_TUNE_INDEX`, by default one under
 * the system's temporary folder), so a run after the first only searches. Prints each set's tune
 * half (questions at even places) and every set's; with `--eval`, the eval half's and every
 * question's totals too, never the eval half's misses. With `--misses=FILE`, writes the tune
 * half's misses (but held-out sets' are left out unless `--held-out`): set, the right page's
 * place among the pages of the first 30 hits (- when not there), the typed text, the question,
 * the expected pages and the first 3 hits' pages, tab-separated.
 *
 * `node --import tsx bench/search-tune.ts [--eval] [--misses=FILE] [--held-out]`
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBots } from '../packages/bot-answer-engine/src/upstream/bots.js';
import { documentUrl } from '../packages/bot-answer-engine/src/upstream/folder/document-url.js';
import { resolveSettings } from '../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { evaluationSets } from './retrieval/check-sets.js';
import { typedQuery } from './search.js';

const args = process.argv.slice(2);
const withEval = args.includes('--eval');
const heldOutMisses = args.includes('--held-out');
const missesFile = args.find((arg) => arg.startsWith('--misses='))?.slice('--misses='.length);
const indexRoot = process.env.SEARCH_TUNE_INDEX ?? join(tmpdir(), 'bench-search-tune');
const pageOf = (url: string): string => url.replace(/#.*$/, '');

const lines: string[] = [];
const misses: string[] = [];
const every = { tune: { right: 0, total: 0 }, eval: { right: 0, total: 0 } };
for (const set of await evaluationSets('search')) {
  const folder = join(indexRoot, set.id);
  mkdirSync(folder, { recursive: true });
  const bot = (await loadBots(set.dir, undefined, { kbSettings: set.settings, indexFolder: folder, watch: false })).get('demo')!;
  try {
    const settings = resolveSettings(set.dir, set.settings);
    const halves = { tune: { right: 0, total: 0 }, eval: { right: 0, total: 0 } };
    for (const [place, q] of set.questions.entries()) {
      const half = place % 2 === 0 ? 'tune' : 'eval';
      if (half === 'eval' && !withEval) continue;
      const expected = new Set(q.expectUrl ? [q.expectUrl] : (q.expect ?? []).map((path) => documentUrl(path, settings)!));
      const typed = typedQuery(q.question);
      const hits = bot.search(typed, 6).map((hit) => pageOf(hit.url));
      halves[half].total++;
      if (hits.slice(0, 3).some((url) => expected.has(url))) {
        halves[half].right++;
        continue;
      }
      if (half === 'eval' || !missesFile || (set.heldOut && !heldOutMisses)) continue;
      const pages = [...new Set(bot.search(typed, 30).map((hit) => pageOf(hit.url)))];
      const at = pages.findIndex((url) => expected.has(url));
      misses.push([set.id, at < 0 ? '-' : String(at + 1), JSON.stringify(typed), q.question, [...expected].join(' '), hits.slice(0, 3).join(' ')].join('\t'));
    }
    for (const half of ['tune', 'eval'] as const) {
      every[half].right += halves[half].right;
      every[half].total += halves[half].total;
    }
    lines.push(`${set.id.padEnd(22)} tune ${halves.tune.right} of ${halves.tune.total}${withEval ? `, eval ${halves.eval.right} of ${halves.eval.total}` : ''}`);
  } finally {
    bot.close();
  }
}
const right = every.tune.right + every.eval.right;
const total = every.tune.total + every.eval.total;
lines.push(`every set              tune ${every.tune.right} of ${every.tune.total}${withEval ? `, eval ${every.eval.right} of ${every.eval.total}, all ${right} of ${total} (${((100 * right) / total).toFixed(1)}%)` : ''}`);
if (missesFile) writeFileSync(missesFile, misses.map((line) => `${line}\n`).join(''));
console.log(lines.join('\n'));
