import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadBots, type Bot } from '../../src/upstream/bots.js';
import { resolveSettings } from '../../src/upstream/folder/knowledge-base.js';
import { KbIndex } from '../../src/upstream/index/kb-index.js';
import { passageTerms, storedTerms } from '../../src/upstream/retrieval/analyzer.js';

const BASE = 'https://docs.example.com/';
// Enough files that a build hands them to threads of their own (index-writer.ts: FILES_PER_THREAD).
const FILES = 150;
const ANIMALS = ['otters', 'herons', 'badgers', 'lynxes', 'wombats', 'ibexes', 'tapirs', 'okapis', 'gibbons', 'marmots'];

/** Page `n` of the folder: its own animal and number, so a question finds it and no other. */
function page(n: number, food = 'freshwater clams'): string {
  const animal = `${ANIMALS[n % ANIMALS.length]}${n}`;
  return [`# Care of the ${animal}`, '', '## Feeding', '', `The ${animal} eat ${food} twice a day.`, '', '## Housing', '', `Keep the ${animal} in a pen with \`shelterCount\` set to ${n}.`, ''].join('\n');
}

describe('building the index on threads of its own', { timeout: 120_000 }, () => {
  let root: string;
  let docs: string;
  let indexFolder: string;
  const logs: string[] = [];
  const settings = (): ReturnType<typeof resolveSettings> => resolveSettings(docs, { baseUrl: BASE });
  const open = async (): Promise<Bot> =>
    (await loadBots(docs, undefined, { kbSettings: { baseUrl: BASE }, indexFolder, watch: false, log: (line) => logs.push(line) })).get('demo')!;
  const firstUrl = (bot: Bot, question: string): string | undefined => bot.answer(question, false).sources[0]?.url;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'answer-index-build-'));
    docs = join(root, 'docs');
    indexFolder = join(root, 'index');
    await mkdir(docs);
    for (let n = 0; n < FILES; n++) await writeFile(join(docs, `animal-${n}.md`), page(n));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('indexes a folder analysed on other threads as it would on one: every file, every passage, the same terms', async () => {
    const bot = await open();
    try {
      assert.match(logs.join('\n'), new RegExp(`built: ${FILES} files read, 0 removed, 0 unchanged; ${FILES} documents, ${FILES * 2} passages`));
      assert.equal(firstUrl(bot, 'What do the okapis107 eat?'), `${BASE}animal-107#feeding`);
      assert.equal(firstUrl(bot, 'How many shelters for the gibbons48?'), `${BASE}animal-48#housing`);
      // What a thread stored for a passage is what the analyzer makes of it here.
      const db = new Database(bot.indexFile, { readonly: true });
      try {
        const row = db
          .prepare("SELECT p.headings, p.markdown, s.terms, d.source FROM passages p JOIN scoring_terms s ON s.id = p.id JOIN documents d ON d.id = p.doc_id WHERE d.path = 'animal-107.md' AND p.ord = 1")
          .get() as { headings: string; markdown: string; terms: string; source: string };
        const title = (JSON.parse(row.source) as { title: string }).title;
        assert.equal(row.terms, storedTerms(passageTerms(title, JSON.parse(row.headings) as string[], row.markdown)));
        assert.match(row.terms, /shelter/);
      } finally {
        db.close();
      }
    } finally {
      bot.close();
    }
  });

  it('a sync that fails part-way changes nothing: the index keeps serving what it had, and the next sync reads the files again', async () => {
    const bot = await open();
    try {
      for (let n = 0; n < 100; n++) await writeFile(join(docs, `animal-${n}.md`), page(n, 'mountain blueberries'));
      const failing = await KbIndex.open({ dir: docs, settings: settings(), folder: indexFolder, botId: 'demo', fault: { afterFiles: 60 } });
      try {
        await assert.rejects(failing.sync(), /failed on purpose after 60 files/);
      } finally {
        failing.close();
      }
      assert.equal(bot.documents, FILES);
      assert.match(bot.answer('What do the otters0 eat?', false).answer, /freshwater clams/);
      // Control: the same sync, not failing, brings the change in.
      logs.length = 0;
      await bot.reload();
      assert.match(logs.join('\n'), /re-indexed 150 documents \(300 passages\) .*: 100 files read, 0 removed, 50 unchanged/);
      assert.match(bot.answer('What do the otters0 eat?', false).answer, /mountain blueberries/);
    } finally {
      bot.close();
    }
  });

  it('a build whose process is killed part-way is not trusted at the next start: it is built again from every file', async () => {
    const folder = join(root, 'killed-index');
    const crashing = await KbIndex.open({ dir: docs, settings: settings(), folder, botId: 'demo', fault: { afterFiles: 100, crash: true } });
    try {
      await assert.rejects(crashing.sync(), /the index's build process stopped \(exit code null, SIGKILL\)/);
      assert.equal(crashing.documents, 0);
    } finally {
      crashing.close();
    }
    logs.length = 0;
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
    logs.length = 0;
    const bots = await loadBots(docs, undefined, { kbSettings: { baseUrl: BASE }, indexFolder: folder, watch: false, log: (line) => logs.push(line) });
    try {
      assert.match(logs.join('\n'), new RegExp(`built: ${FILES} files read, 0 removed, 0 unchanged; ${FILES} documents`));
    } finally {
      for (const bot of bots.values()) bot.close();
    }
  });

  it('closing the index stops a sync under way: its lock is let go, nothing is committed, the next start reads the files', async () => {
    const bot = await open();
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
      // The stopped thread's connection is closed with it, so the lock does not outlive it.
      for (let waited = 0; !unlocked(); waited += 10) {
        assert.ok(waited < 5000, 'the write lock is still held after the sync was stopped');
        await sleep(10);
      }
    } finally {
      other.close();
    }
    logs.length = 0;
    const again = await open();
    try {
      assert.match(logs.join('\n'), /updated: 100 files read, 0 removed, 50 unchanged/);
      assert.match(again.answer('What do the otters0 eat?', false).answer, /sweet potatoes/);
    } finally {
      again.close();
    }
  });
});
