import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { AnswerResponse } from '../../packages/bot-answer/src/protocol/types.js';
import { startAnswerApi, type RunningAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { ask, KEY, readLive } from './helpers.js';
import { reassemble } from './reassemble.js';

const KETTLE = [
  '# Brewing',
  '',
  '## Kettles',
  '',
  ...Array.from({ length: 12 }, (_, i) => `Step ${i + 1}: the kettle must be filled with fresh cold water before it is switched on.`),
].join('\n');

describe('a watched knowledge-base folder', { timeout: 30_000 }, () => {
  let dir: string;
  let api: RunningAnswerApi;
  const logs: Array<{ line: string; at: number }> = [];

  /** Resolves with the time of the first log line after `from` matching `pattern`. */
  async function logged(pattern: RegExp, from: number): Promise<number> {
    for (let waited = 0; waited < 15_000; waited += 20) {
      const hit = logs.slice(from).find((entry) => pattern.test(entry.line));
      if (hit) return hit.at;
      await sleep(20);
    }
    throw new Error(`no log line like ${pattern} in:\n${logs.map((l) => l.line).join('\n')}`);
  }

  const answer = async (message: string): Promise<AnswerResponse> => {
    const response = await ask(api, { message, bot_id: 'demo' });
    assert.equal(response.status, 200);
    return (await response.json()) as AnswerResponse;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'answer-watch-'));
    await mkdir(join(dir, 'nested'));
    await writeFile(join(dir, 'brewing.md'), KETTLE);
    await writeFile(join(dir, 'nested', 'cups.md'), '# Cups\n\nPorcelain cups are warmed before the tea is poured.\n');
    await writeFile(join(dir, 'teapots.md'), '# Teapots\n\nA teapot is rinsed with hot water; loose leaves steep for three minutes.\n');
    api = await startAnswerApi({
      kb: dir,
      keys: [KEY],
      kbBaseUrl: 'https://docs.example.com/',
      paceMs: 60,
      log: (line) => logs.push({ line, at: Date.now() }),
    });
  });
  after(async () => {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('re-indexes on a change and swaps at once; an answer streaming meanwhile finishes on the old index', async () => {
    const before = await answer('How do I fill the kettle?');
    assert.ok(before.answer.includes('fresh cold water'));
    const mark = logs.length;
    const response = await ask(api, { message: 'How do I fill the kettle?', bot_id: 'demo', stream: true });
    const reading = readLive(response);
    await sleep(100);
    await writeFile(join(dir, 'brewing.md'), KETTLE.replaceAll('fresh cold water', 'sparkling mineral water'));
    const swappedAt = await logged(/bot "demo": re-indexed 3 documents/, mark);
    const { events, error } = await reading;
    assert.equal(error, undefined);
    assert.ok(events.at(-1)!.at > swappedAt, 'the stream was still running when the new index came in');
    const streamed = reassemble('named', events);
    assert.equal(streamed.text, before.answer, 'the streaming answer is the one composed from the old index');
    const after = await answer('How do I fill the kettle?');
    assert.ok(after.answer.includes('sparkling mineral water') && !after.answer.includes('fresh cold water'));
  });

  it('picks up new, nested and deleted files', async () => {
    assert.equal((await answer('saucer etiquette')).answer_found, false);
    let mark = logs.length;
    await mkdir(join(dir, 'nested', 'deeper'));
    await writeFile(join(dir, 'nested', 'deeper', 'saucers.md'), '# Saucers\n\nSaucer etiquette: the saucer stays on the table.\n');
    await logged(/re-indexed 4 documents/, mark);
    assert.equal((await answer('saucer etiquette')).sources[0]?.url, 'https://docs.example.com/nested/deeper/saucers');
    mark = logs.length;
    await rm(join(dir, 'nested', 'deeper'), { recursive: true });
    await logged(/re-indexed 3 documents/, mark);
    assert.equal((await answer('saucer etiquette')).answer_found, false);
    assert.equal(api.bots[0]!.documents, 3);
  });

  it('a file that turns unreadable is logged and skipped; the rest stays served', async () => {
    const mark = logs.length;
    await writeFile(join(dir, 'nested', 'cups.md'), Buffer.from([0x23, 0x20, 0xc3, 0x28, 0x0a]));
    await logged(/re-indexed 2 documents/, mark);
    assert.match(logs.slice(mark).map((l) => l.line).join('\n'), /bot "demo": skipped nested\/cups\.md in .*: not valid UTF-8 text/);
    assert.equal((await answer('porcelain cups')).answer_found, false);
    assert.equal((await answer('How do I fill the kettle?')).answer_found, true);
  });

  it('a folder left with no readable document keeps the previous index', async () => {
    const mark = logs.length;
    // Both in one go (well within the quiet time): one re-index finds nothing left to serve.
    await Promise.all(['brewing.md', 'teapots.md'].map((name) => writeFile(join(dir, name), Buffer.from([0xff]))));
    await logged(/no readable document left in .*; still serving the previous 2/, mark);
    assert.equal((await answer('How do I fill the kettle?')).answer_found, true);
  });
});
