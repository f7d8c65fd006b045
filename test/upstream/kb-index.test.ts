import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadBots, type Bot } from '../../packages/bot-answer-engine/src/upstream/bots.js';
import { defaultIndexFolder } from '../../packages/bot-answer-engine/src/upstream/index/index-file.js';
import { countTerm, FIELDS, fieldText, passageTerms, processTerm, storedFields, storedTerms } from '../../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';
import { termsOf } from '../../packages/bot-answer-engine/src/upstream/retrieval/terms.js';

const BASE = 'https://docs.example.com/';

/** Every file under `dir` with a hash of its bytes and its modification time: a folder's state, to prove nothing wrote to it. */
async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const info = await stat(path);
    out.push(`${path.slice(dir.length)} ${entry.isFile() ? createHash('sha256').update(await readFile(path)).digest('hex') : 'dir'} ${info.mtimeMs}`);
  }
  return out.sort();
}

describe('the on-disk index', { timeout: 60_000 }, () => {
  let root: string;
  let docs: string;
  let indexFolder: string;
  const logs: string[] = [];
  const open = async (): Promise<Bot> =>
    (await loadBots(docs, undefined, { kbSettings: { baseUrl: BASE }, indexFolder, watch: false, log: (line) => logs.push(line) })).get('demo')!;
  const indexFile = async (): Promise<string> => {
    const files = (await readdir(indexFolder)).filter((name) => name.endsWith('.sqlite'));
    assert.equal(files.length, 1, files.join(', '));
    return join(indexFolder, files[0]!);
  };

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'answer-kb-index-'));
    docs = join(root, 'docs');
    indexFolder = join(root, 'index');
    await mkdir(join(docs, 'guide'), { recursive: true });
    await writeFile(join(docs, 'kettles.md'), '# Kettles\n\n## Filling\n\nFill the kettle with fresh cold water.\n');
    await writeFile(join(docs, 'guide', 'teapots.md'), '# Teapots\n\nRinse the teapot with hot water; loose leaves steep for three minutes.\n');
    await writeFile(join(docs, 'api.md'), '# API\n\n## `parseMIMEType(input)`\n\nReturns the `MIMEType` of a Content-Type value.\n\n## `setMaxSockets(n)`\n\nCaps the sockets of a pool.\n');
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('is built from the folder, in the index folder, and nothing is written in the docs folder', async () => {
    const before = await snapshot(docs);
    const bot = await open();
    try {
      assert.equal(bot.documents, 3);
      assert.match(logs.join('\n'), /index .*demo-[0-9a-f]{12}\.sqlite built: 3 files read, 0 removed, 0 unchanged; 3 documents/);
      assert.equal(bot.indexFile, await indexFile());
      assert.equal(bot.answer('How do I fill the kettle?', false).sources[0]?.url, `${BASE}kettles#filling`);
    } finally {
      bot.close();
    }
    assert.deepEqual(await snapshot(docs), before);
  });

  it('is reused at the next start when nothing changed: no file is read again', async () => {
    logs.length = 0;
    const bot = await open();
    try {
      assert.match(logs.join('\n'), /index .* reused: 0 files read, 0 removed, 3 unchanged; 3 documents/);
      assert.equal(bot.answer('How do I fill the kettle?', false).answer_found, true);
    } finally {
      bot.close();
    }
  });

  it('re-reads only what changed, was added or removed; answers see the change', async () => {
    // In how many documents a word occurs (search as you type weighs a word being typed by it), once each however many passages say it.
    const pages = (db: Database.Database, word: string): number => db.prepare('SELECT coalesce((SELECT doc FROM page_vocab WHERE term = ?), 0)').pluck().get(processTerm(word)) as number;
    const bot = await open();
    try {
      const before = new Database(await indexFile(), { readonly: true });
      try {
        assert.equal(pages(before, 'water'), 2);
        assert.equal(before.prepare('SELECT doc FROM heading_vocab WHERE term = ?').pluck().get(processTerm('API')), 2, 'two passages of one page');
        assert.equal(pages(before, 'API'), 1);
      } finally {
        before.close();
      }
      // The terms a typed beginning begins are remembered until a sync changes the index.
      assert.deepEqual(bot.search('porc', 6), []);
      await writeFile(join(docs, 'kettles.md'), '# Kettles\n\n## Filling\n\nFill the kettle with sparkling mineral water.\n');
      await writeFile(join(docs, 'guide', 'cups.md'), '# Cups\n\nPorcelain cups are warmed before the tea is poured.\n');
      await rm(join(docs, 'guide', 'teapots.md'));
      logs.length = 0;
      await bot.reload();
      assert.match(logs.join('\n'), /re-indexed 3 documents \(\d+ passages\) from .* 2 files read, 1 removed, 1 unchanged/);
      assert.ok(bot.answer('How do I fill the kettle?', false).answer.includes('sparkling mineral water'));
      assert.equal(bot.search('porc', 6)[0]?.title, 'Cups');
      assert.equal(bot.answer('porcelain cups', false).sources[0]?.url, `${BASE}guide/cups`);
      assert.equal(bot.answer('loose leaves teapot', false).answer_found, false);
      // What retrieval scores by is kept with each passage: none left behind by the removed file, none missing.
      const db = new Database(await indexFile(), { readonly: true });
      try {
        const ids = (table: string): number[] => db.prepare(`SELECT id FROM ${table} ORDER BY id`).pluck().all() as number[];
        assert.deepEqual(ids('scoring_terms'), ids('passages'));
        assert.ok(ids('passages').length > 0);
        // A removed page no longer counts, a changed one counts once, an added one counts.
        assert.equal(pages(db, 'water'), 1);
        assert.equal(pages(db, 'teapot'), 0);
        assert.equal(pages(db, 'porcelain'), 1);
        assert.equal(pages(db, 'API'), 1);
      } finally {
        db.close();
      }
      logs.length = 0;
      await bot.reload();
      assert.deepEqual(logs, [], 'nothing changed: nothing re-read, nothing logged');
    } finally {
      bot.close();
    }
  });

  it('skips binary and unreadable files with a log line, and serves the rest', async () => {
    await writeFile(join(docs, 'logo.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0d, 0x0a]));
    await writeFile(join(docs, 'secret.md'), '# Secret\n\nThe vault code.\n');
    await chmod(join(docs, 'secret.md'), 0o000);
    // Root reads any file whatever its mode: the test then sees the file served, which says so.
    const unreadable = await readFile(join(docs, 'secret.md')).then(
      () => false,
      () => true,
    );
    logs.length = 0;
    const bot = await open();
    try {
      const text = logs.join('\n');
      assert.match(text, /bot "demo": skipped logo\.md in .*: a binary file, not text/);
      if (unreadable) assert.match(text, /bot "demo": skipped secret\.md in .*: cannot be read: EACCES/);
      assert.equal(bot.documents, unreadable ? 3 : 4);
      assert.equal(bot.answer('How do I fill the kettle?', false).answer_found, true);
    } finally {
      bot.close();
      await chmod(join(docs, 'secret.md'), 0o644);
      await rm(join(docs, 'secret.md'));
      await rm(join(docs, 'logo.md'));
    }
  });

  describe('a file that is not a trustworthy index is rebuilt, never used', () => {
    const rebuiltFrom = async (damage: (file: string) => Promise<void>, reason: RegExp): Promise<void> => {
      const file = await indexFile();
      await damage(file);
      logs.length = 0;
      const bot = await open();
      try {
        const text = logs.join('\n');
        assert.match(text, reason);
        assert.match(text, /built: 3 files read/);
        assert.equal(bot.answer('How do I fill the kettle?', false).answer_found, true);
      } finally {
        bot.close();
      }
    };

    it('control: an intact file is reused', async () => {
      (await open()).close();
      logs.length = 0;
      (await open()).close();
      assert.match(logs.join('\n'), /reused: 0 files read/);
      assert.doesNotMatch(logs.join('\n'), /removed, to be built anew/);
    });

    it('a corrupt file (not a database at all)', () =>
      rebuiltFrom((file) => writeFile(file, Buffer.alloc(8192, 0x5a)), /index .* is not a SQLite database: removed, to be built anew/));

    it('a file damaged inside (its pages overwritten)', () =>
      rebuiltFrom(async (file) => {
        const bytes = await readFile(file);
        // Page 1 (the header and schema) stays; the pages after it are garbage.
        bytes.fill(0xa5, 4096);
        await writeFile(file, bytes);
        await rm(`${file}-wal`, { force: true });
        await rm(`${file}-shm`, { force: true });
      }, /index .* (is corrupt|cannot be read)/));

    it("another program's SQLite file", () =>
      rebuiltFrom(async (file) => {
        await rm(file);
        const db = new Database(file);
        db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices (total) VALUES (12.5);');
        db.close();
      }, /index .* is not a bot-answer index: removed, to be built anew/));

    it('an index made by another version', () =>
      rebuiltFrom(async (file) => {
        const db = new Database(file);
        db.prepare("UPDATE meta SET value = '0' WHERE key = 'analyzer'").run();
        db.close();
      }, /index .* was made by another version: removed, to be built anew/));

    it('an index made by a reader before this one (its meta says no reader version)', () =>
      rebuiltFrom(async (file) => {
        const db = new Database(file);
        db.prepare("DELETE FROM meta WHERE key = 'reader'").run();
        db.close();
      }, /index .* was made by another version: removed, to be built anew/));

    it('an index made with other settings', () =>
      rebuiltFrom(async (file) => {
        const db = new Database(file);
        db.prepare("UPDATE meta SET value = '{}' WHERE key = 'settings'").run();
        db.close();
      }, /index .* was made for another folder or other settings: removed, to be built anew/));
  });

  it('other settings get a file of their own', async () => {
    const [first] = await readdir(indexFolder);
    const bots = await loadBots(docs, undefined, { kbSettings: { baseUrl: 'https://elsewhere.example.com/' }, indexFolder, watch: false });
    try {
      assert.notEqual(bots.get('demo')!.indexFile, join(indexFolder, first!));
    } finally {
      for (const bot of bots.values()) bot.close();
    }
  });

  it('goes in node_modules/.cache/bot-answer under the current folder when it has a node_modules, else in the user cache folder', async () => {
    await mkdir(join(root, 'app', 'node_modules'), { recursive: true });
    assert.equal(defaultIndexFolder(join(root, 'app')), join(root, 'app', 'node_modules', '.cache', 'bot-answer'));
    if (process.platform === 'linux') assert.equal(defaultIndexFolder(join(root, 'bare'), { XDG_CACHE_HOME: join(root, 'cache') }), join(root, 'cache', 'bot-answer'));
  });
});

describe('retrieval over the index', { timeout: 60_000 }, () => {
  let root: string;
  let bot: Bot;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'answer-retrieval-'));
    const docs = join(root, 'docs');
    await mkdir(docs);
    const pages: Record<string, string> = {
      'content-type.md': '# Content types\n\n## `parseMIMEType(input)`\n\nReads a header value into its essence and parameters.\n',
      'sockets.md': '# Pools\n\n## Limits\n\nSet `max_sockets` to cap the open sockets of each pool.\n',
      'files.md': '# Files\n\n## `fs.watch(path)`\n\nCalls back when something under the path changes.\n',
      'fonts.md': '# Fonts\n\n## Rendering\n\nFonts look sharper on Windows with subpixel rendering.\n',
      'executables.md': '# Single-file executables\n\n## Cross-compiling\n\nA standalone executable can be built for Windows from Linux with the target flag.\n',
      'lions.md': '# Lions\n\nLions sleep most of the day on the savanna.\n',
    };
    for (const [name, text] of Object.entries(pages)) await writeFile(join(docs, name), text);
    bot = (await loadBots(docs, undefined, { kbSettings: { baseUrl: BASE }, indexFolder: join(root, 'index'), watch: false })).get('demo')!;
  });
  after(async () => {
    bot.close();
    await rm(root, { recursive: true, force: true });
  });
  const first = (question: string, context?: string): string | undefined => bot.retrieve(question, context)[0]?.document.path;

  it('splits identifiers into their words and joins words into identifiers', () => {
    assert.equal(first('How do I parse a MIME type?'), 'content-type.md', 'words meet a camelCase name');
    assert.equal(first('parseMIMEType'), 'content-type.md', 'the name meets itself');
    assert.equal(first('What is the max sockets setting?'), 'sockets.md', 'words meet a snake_case name');
    assert.equal(first('fs.watch'), 'files.md');
    // Control: a name the documents do not hold finds nothing.
    assert.equal(first('parseJSONLines'), undefined);
  });

  it('scores from the fields the index stored: a term counted whole, or as a prefix', () => {
    const fields = storedFields(storedTerms(passageTerms('Pools', ['## `setMaxSockets(n)`'], 'Set the max sockets; sockets close.')));
    assert.equal(countTerm(fields.body, 'socket'), 2);
    assert.equal(countTerm(fields.joined, 'setmaxsocket'), 1);
    assert.equal(countTerm(fields.headings, 'max'), 1);
    assert.equal(countTerm(fields.title, 'pool'), 1);
    // Controls: a term inside another is not that term, but begins it.
    assert.equal(countTerm(fields.body, 'sock'), 0);
    assert.equal(countTerm(fields.body, 'sock', true), 2);
    assert.equal(countTerm(fields.joined, 'setmax'), 0);
    assert.equal(countTerm(fields.joined, 'setmax', true), 1);
  });

  it('gives the full-text tables each term as often as the passage used it', () => {
    const terms = passageTerms('Pools', ['## Sockets'], 'Sockets close; a socket pool reuses sockets.', 'api/pool.md');
    const fields = storedFields(storedTerms(terms));
    assert.match(fields.body, /socket:3/, 'stored once, with its count');
    for (const field of FIELDS) assert.deepEqual(fieldText(fields[field]).split(' ').filter(Boolean).sort(), [...terms[field]].sort(), field);
  });

  it('termsOf is the analyzer the index matches with', () => {
    assert.deepEqual(termsOf('parseMIMEType'), ['pars', 'mime', 'type', 'parsemimetype']);
    assert.deepEqual(termsOf('parse MIME type'), ['pars', 'mime', 'type', 'parsemime', 'mimetype']);
    assert.deepEqual(termsOf('Setting up e-mail'), ['set', 'mail', 'settingup', 'email']);
    // An acronym's plural is one word, the acronym's: not "AP" and "Is", "SA" and "Ts".
    assert.deepEqual(termsOf('APIs'), ['api']);
    assert.deepEqual(termsOf('Year 6 SATs'), ['year', 'sat']);
    // A contraction's parts are stop words: "won't" is not the word "won".
    assert.ok(!termsOf("my window won't open").includes('won'));
    // ... and so are contractions typed without the apostrophe.
    const typed = termsOf('why doesnt it open? im stuck, i cant log in');
    for (const word of ['doesnt', 'im', 'cant']) assert.ok(!typed.includes(word), word);
    assert.ok(typed.includes('stuck'));
  });

  it('refuses what the documents do not cover, and is not sure of a question naming a word no document has', () => {
    assert.deepEqual(bot.find('How do I bake sourdough bread?'), { outcome: 'refused', passages: [] });
    // "zoo" is in no document: the page on lions is the closest, not an answer (the docs say where lions sleep in the wild, not in a zoo).
    const found = bot.find('Where do lions sleep at the zoo?');
    assert.equal(found.outcome, 'not_sure');
    assert.equal(found.passages[0]?.document.path, 'lions.md');
    assert.equal(first('Where do lions sleep?'), 'lions.md');
  });

  it('a follow-up is found with the conversation before it, which weighs less than the question', () => {
    const context = 'How do I build a standalone executable?';
    assert.equal(first('Does that work on Windows too?', context), 'executables.md');
    // Control: alone, the follow-up names too little to be answered from it.
    assert.notEqual(first('Does that work on Windows too?'), 'executables.md');
    // The question decides: an unrelated question is not pulled to the conversation's page...
    assert.equal(first('Where do lions sleep?', context), 'lions.md');
    // ... nor answered because the conversation was.
    assert.equal(first('How do I bake sourdough bread?', context), undefined);
  });
});
