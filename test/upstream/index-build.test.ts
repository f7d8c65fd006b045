import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createBot, loadBots, type Bot } from '../../packages/bot-answer-engine/src/upstream/bots.js';
import { resolveSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { KbIndex, type KbIndexOptions } from '../../packages/bot-answer-engine/src/upstream/index/kb-index.js';
import { passageTerms, storedTerms } from '../../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';

const BASE = 'https://docs.example.com/';
const FILES = 150;
const ANIMALS = ['otters', 'herons', 'badgers', 'lynxes', 'wombats', 'ibexes', 'tapirs', 'okapis', 'gibbons', 'marmots'];
// A sync with this many bytes to read or more runs in a process of its own, on threads: every sync of these tests.
const SPREAD = 1;

/** Page `n` of the folder: its own animal and number, so a question finds it and no other. */
function page(n: number, food = 'freshwater clams'): string {
  const animal = `${ANIMALS[n % ANIMALS.length]}${n}`;
  return [`# Care of the ${animal}`, '', '## Feeding', '', `The ${animal} eat ${food} twice a day.`, '', '## Housing', '', `Keep the ${animal} in a pen with \`shelterCount\` set to ${n}.`, ''].join('\n');
}

// A guard against a hang, not a speed bound: a loaded machine builds slowly.
describe('building the index in a process of its own, on threads', { timeout: 300_000 }, () => {
  let root: string;
  let docs: string;
  let indexFolder: string;
  const options = (folder: string, more: Partial<KbIndexOptions> = {}): KbIndexOptions => ({
    dir: docs,
    settings: resolveSettings(docs, { baseUrl: BASE }),
    folder,
    botId: 'demo',
    spreadFromBytes: SPREAD,
    ...more,
  });
  /** A bot over the index in `folder`, brought up to date (a large sync, as these tests set it). */
  const open = async (folder = indexFolder): Promise<{ bot: Bot; read: number; index: KbIndex }> => {
    const index = await KbIndex.open(options(folder));
    try {
      const { read } = await index.sync();
      return { bot: createBot('demo', index), read, index };
    } catch (error) {
      index.close();
      throw error;
    }
  };
  // The section retrieval ranks first (an answer quotes it first, and may quote the page's next section after it).
  const firstUrl = (bot: Bot, question: string): string | undefined => bot.retrieve(question)[0]?.url;
  const urls = (bot: Bot, question: string): string[] => bot.retrieve(question).map((passage) => passage.url);

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'answer-index-build-'));
    docs = join(root, 'docs');
    indexFolder = join(root, 'index');
    await mkdir(docs);
    for (let n = 0; n < FILES; n++) await writeFile(join(docs, `animal-${n}.md`), page(n));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('indexes what the threads analysed as this thread would: every file, every passage, the same terms', async () => {
    const { bot, read, index } = await open();
    try {
      assert.equal(read, FILES);
      assert.equal(bot.documents, FILES);
      assert.equal(index.passages, FILES * 2);
      assert.equal(firstUrl(bot, 'What do the okapis107 eat?'), `${BASE}animal-107#feeding`);
      // The second section is indexed and found: "shelter" is on every page, so which of the page's two
      // sections comes first is the ranking's call (the page's name in its heading lets either pass).
      assert.equal(firstUrl(bot, 'How many shelters for the gibbons48?')?.startsWith(`${BASE}animal-48#`), true);
      assert.ok(urls(bot, 'How many shelters for the gibbons48?').includes(`${BASE}animal-48#housing`));
      const db = new Database(bot.indexFile, { readonly: true });
      try {
        const row = db
          .prepare("SELECT p.headings, p.markdown, s.terms, d.source FROM passages p JOIN scoring_terms s ON s.id = p.id JOIN documents d ON d.id = p.doc_id WHERE d.path = 'animal-107.md' AND p.ord = 1")
          .get() as { headings: string; markdown: string; terms: string; source: string };
        const title = (JSON.parse(row.source) as { title: string }).title;
        assert.equal(row.terms, storedTerms(passageTerms(title, JSON.parse(row.headings) as string[], row.markdown, 'animal-107.md')));
        assert.match(row.terms, /shelter/);
      } finally {
        db.close();
      }
    } finally {
      bot.close();
    }
  });

  for (const [where, spreadFromBytes] of [
    ['in its own process', SPREAD],
    ['in the server', Number.MAX_SAFE_INTEGER],
  ] as const) {
    it(`a sync that fails part-way (${where}) changes nothing: the index serves what it had, and the next sync reads the files again`, async () => {
      const { bot } = await open();
      try {
        for (let n = 0; n < 100; n++) await writeFile(join(docs, `animal-${n}.md`), page(n, `mountain blueberries ${where}`));
        const failing = await KbIndex.open(options(indexFolder, { spreadFromBytes, fault: { afterFiles: 60 } }));
        try {
          await assert.rejects(failing.sync(), /failed on purpose after 60 files/);
        } finally {
          failing.close();
        }
        assert.equal(bot.documents, FILES);
        assert.doesNotMatch(bot.answer('What do the otters0 eat?', false).answer, new RegExp(`mountain blueberries ${where}`));
        // Control: the same sync, not failing, brings the change in.
        const again = await KbIndex.open(options(indexFolder, { spreadFromBytes }));
        try {
          const outcome = await again.sync();
          assert.deepEqual([outcome.read, outcome.removed, outcome.unchanged], [100, 0, 50]);
          assert.match(createBot('demo', again).answer('What do the otters0 eat?', false).answer, new RegExp(`mountain blueberries ${where}`));
        } finally {
          again.close();
        }
      } finally {
        bot.close();
      }
    });
  }

  it('a build whose process is killed part-way is not trusted at the next start: it is built again from every file', async () => {
    const folder = join(root, 'killed-index');
    const crashing = await KbIndex.open(options(folder, { fault: { afterFiles: 100, crash: true } }));
    try {
      await assert.rejects(crashing.sync(), /the index's build process stopped \(exit code null, SIGKILL\)/);
      assert.equal(crashing.documents, 0);
    } finally {
      crashing.close();
    }
    const logs: string[] = [];
    const bots = await loadBots(docs, undefined, { kbSettings: { baseUrl: BASE }, indexFolder: folder, watch: false, log: (line) => logs.push(line) });
    try {
      assert.match(logs.join('\n'), new RegExp(`built: ${FILES} files read, 0 removed, 0 unchanged; ${FILES} documents, ${FILES * 2} passages`));
      assert.equal(firstUrl(bots.get('demo')!, 'What do the okapis107 eat?'), `${BASE}animal-107#feeding`);
    } finally {
      for (const bot of bots.values()) bot.close();
    }
  });

  it('a server killed during a build takes its build process with it: nothing of that build is trusted at the next start', async () => {
    const folder = join(root, 'orphan-index');
    const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/killed-during-build.ts', import.meta.url)), docs, folder, BASE], { stdio: 'inherit' });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => server.on('exit', (_code, sig) => resolve(sig)));
    assert.equal(signal, 'SIGKILL', 'the server was killed while its build held the write lock');
    const logs: string[] = [];
    const bots = await loadBots(docs, undefined, { kbSettings: { baseUrl: BASE }, indexFolder: folder, watch: false, log: (line) => logs.push(line) });
    try {
      assert.match(logs.join('\n'), new RegExp(`built: ${FILES} files read, 0 removed, 0 unchanged; ${FILES} documents`));
    } finally {
      for (const bot of bots.values()) bot.close();
    }
  });

  it('closing the index stops a sync under way: its lock is let go, nothing is committed, the next start reads the files', async () => {
    const { bot } = await open();
    const other = new Database(bot.indexFile);
    other.pragma('busy_timeout = 0');
    /** Whether another connection can take the write lock now. */
    const unlocked = (): boolean => {
      try {
        other.exec('BEGIN IMMEDIATE');
        other.exec('ROLLBACK');
        return true;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
        return false;
      }
    };
    try {
      for (let n = 0; n < 100; n++) await writeFile(join(docs, `animal-${n}.md`), page(n, 'sweet potatoes'));
      const reloading = bot.reload();
      while (unlocked()) await sleep(2);
      bot.close();
      await reloading;
      // The stopped build's connection goes with its process, so the lock does not outlive it.
      for (let waited = 0; !unlocked(); waited += 10) {
        assert.ok(waited < 5000, 'the write lock is still held after the sync was stopped');
        await sleep(10);
      }
    } finally {
      other.close();
    }
    const { bot: again, read } = await open();
    try {
      assert.equal(read, 100);
      assert.match(again.answer('What do the otters0 eat?', false).answer, /sweet potatoes/);
    } finally {
      again.close();
    }
  });
});
