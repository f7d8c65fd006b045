// The adversarial suite's runner: builds the element once (with the suite's key in the build's
// environment; under `npm test`, the one build it names), runs every test file in this folder one
// after another with Node's test runner, then prints the summary counts. `--full` runs the large sizes.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const full = process.argv.includes('--full');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const work = mkdtempSync(join(tmpdir(), 'bot-answer-adversarial-'));
const tally = join(work, 'tally.jsonl');
writeFileSync(tally, '');
// `npm test` builds the element once for several suites, with its key in the build's environment, and names both.
const given = process.env.ADVERSARIAL_KEY && process.env.ADVERSARIAL_BUNDLE_DIR && existsSync(join(process.env.ADVERSARIAL_BUNDLE_DIR, 'bot-answer.iife.js'));
const bundle = given ? process.env.ADVERSARIAL_BUNDLE_DIR! : join(work, 'bundle');
const key = given ? process.env.ADVERSARIAL_KEY! : `sk-adv+${randomBytes(12).toString('base64')}/${randomBytes(6).toString('hex')}=`;
const started = Date.now();

const env = { ...process.env, ADVERSARIAL_TALLY: tally, ADVERSARIAL_BUNDLE_DIR: bundle, ADVERSARIAL_KEY: key, ...(full ? { ADVERSARIAL_FULL: '1' } : {}) };

if (given) console.log(`adversarial: the element built for this run of npm test (${full ? 'full' : 'default'} run)`);
else {
  console.log(`adversarial: building the element (${full ? 'full' : 'default'} run)`);
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', bundle, '--emptyOutDir', '--logLevel', 'error'], { cwd: join(ROOT, 'packages', 'bot-answer'), stdio: ['ignore', 'ignore', 'inherit'], env: { ...env, ANSWER_API_KEY: key } });
  if (build.status !== 0) {
    console.error('adversarial: building the element failed');
    process.exit(1);
  }
}

const files = readdirSync(HERE)
  .filter((f) => f.endsWith('.test.ts') && (only.length === 0 || only.some((o) => f.includes(o))))
  .sort()
  .map((f) => join(HERE, f));
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files], { cwd: ROOT, stdio: 'inherit', env });

const counts = new Map<string, number>();
for (const line of readFileSync(tally, 'utf8').split('\n')) {
  if (!line) continue;
  const { name, by } = JSON.parse(line) as { name: string; by: number };
  counts.set(name, (counts.get(name) ?? 0) + by);
}
const c = (name: string) => counts.get(name) ?? 0;
const rows: Array<[string, string]> = [
  ['payloads tried (browser, end to end)', `${c('payloadsTried')} on ${c('payloadPagesChecked')} pages`],
  ['nothing executed', `${c('scriptsExecuted')} scripts run, ${c('badUrlsFound')} bad URLs, ${c('unexpectedRequests')} stray requests, ${c('layoutEscapes')} layout escapes, ${c('longTasks')} tasks over 1 s`],
  ['streams checked (exact text, once, in order)', `${c('streamsChecked')}`],
  ['faults survived', `${c('faultsSurvived')} broken, stalled, garbage, oversized or refused upstream replies`],
  ['nothing lost', `${c('textMismatches')} text mismatches, ${c('falseDones')} clean "done" for a broken stream`],
  ['load held', `${c('abusiveRequests')} abusive requests; ${c('rateLimited')} rate-limited, ${c('othersServedDuringFlood')} others served during the flood; ${c('disconnectsAborted')} disconnects -> upstream aborted`],
  ['shutdown under load', `${c('streamsHeldAtShutdown')} streams finished or ended with an error event in time, ${c('streamsLost')} lost`],
  ['no key seen', `${c('keySightings')} sightings in ${c('keyScans')} scans of ${(c('bytesScannedForKey') / 1024 / 1024).toFixed(1)} MiB (responses, logs, pages, bundle)`],
];
const width = Math.max(...rows.map(([k]) => k.length));
console.log(`\nadversarial summary (${full ? 'full' : 'default'} run, ${Math.round((Date.now() - started) / 1000)} s, seed ${process.env.ADVERSARIAL_SEED ?? 'default'}):`);
for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
console.log(run.status === 0 ? '  result: PASS' : '  result: FAIL');
rmSync(work, { recursive: true, force: true });
process.exit(run.status ?? 1);
