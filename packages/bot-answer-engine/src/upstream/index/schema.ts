import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { READER_VERSION, type KnowledgeBaseSettings } from '../folder/knowledge-base.js';
import { ANALYZER_VERSION } from '../retrieval/analyzer.js';

/** The layout of the index file; a file of another layout is rebuilt. */
const SCHEMA_VERSION = 7;
const FORMAT = 'bot-answer knowledge-base index';
const TABLES = ['meta', 'documents', 'passages', 'field_lengths', 'passage_terms', 'passage_headings', 'passage_vocab', 'heading_vocab', 'scoring_terms', 'page_terms', 'page_vocab'];

/**
 * The full-text tables and their columns. The heading path (the page title and the section's
 * headings) has a table of its own, so BM25 normalises a heading's matches by the heading's
 * length, not the passage's: a short heading that names the question's words counts for much.
 */
export const FULL_TEXT = { headings: ['title', 'headings', 'path'], body: ['code', 'body', 'joined'] } as const;
export type FullTextTable = keyof typeof FULL_TEXT;
export type ColumnWeights = Record<(typeof FULL_TEXT)[FullTextTable][number], number>;
export const FTS_TABLE: Record<FullTextTable, string> = { headings: 'passage_headings', body: 'passage_terms' };

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE documents (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  size INTEGER, mtime REAL, ctime REAL, ino INTEGER,
  source TEXT,
  links TEXT,
  anchors INTEGER NOT NULL DEFAULT 0,
  skipped TEXT,
  no_url INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE passages (
  id INTEGER PRIMARY KEY,
  doc_id INTEGER NOT NULL REFERENCES documents (id),
  ord INTEGER NOT NULL,
  lengths TEXT NOT NULL,
  headings TEXT NOT NULL,
  url TEXT NOT NULL,
  markdown TEXT NOT NULL
);
CREATE TABLE field_lengths (field TEXT PRIMARY KEY, total INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX passages_by_document ON passages (doc_id);
CREATE VIRTUAL TABLE passage_terms USING fts5 (${FULL_TEXT.body.join(', ')}, content = '', contentless_delete = 1, tokenize = 'ascii');
-- Search as you type looks the heading paths up by the beginning of the word being typed: a prefix index of 2 to 4 letters
-- (without it a short one, "re"*, reads every term it begins).
CREATE VIRTUAL TABLE passage_headings USING fts5 (${FULL_TEXT.headings.join(', ')}, content = '', contentless_delete = 1, tokenize = 'ascii', prefix = '2 3 4');
CREATE VIRTUAL TABLE passage_vocab USING fts5vocab (passage_terms, 'row');
CREATE VIRTUAL TABLE heading_vocab USING fts5vocab (passage_headings, 'row');
-- Each passage's analysed fields (analyzer's storedTerms): retrieval scores its candidates from them.
CREATE TABLE scoring_terms (id INTEGER PRIMARY KEY, terms TEXT NOT NULL);
-- Each document's distinct terms (a row per document, its id the rowid), for how many pages hold a term: search as you
-- type weighs a word being typed by it. Only which rows hold a term is kept (detail = none).
CREATE VIRTUAL TABLE page_terms USING fts5 (terms, content = '', contentless_delete = 1, tokenize = 'ascii', detail = none);
CREATE VIRTUAL TABLE page_vocab USING fts5vocab (page_terms, 'row');
`;


/** How long a sync waits for another process that holds the index file's write lock. */
export const LOCK_WAIT_MS = 10 * 60_000;

type Row = Record<string, unknown>;

/** What an index file must have been made for: this layout, reader and analyzer, this folder, these settings. */
export function settingsKey(dir: string, settings: KnowledgeBaseSettings): string {
  const { baseUrl, urlExtension, appName, anchors, baseUrlSetting } = settings;
  return JSON.stringify({ dir, baseUrl, urlExtension, appName, anchors, baseUrlSetting });
}

function expectedMeta(key: string): Record<string, string> {
  return { format: FORMAT, schema: String(SCHEMA_VERSION), reader: String(READER_VERSION), analyzer: String(ANALYZER_VERSION), settings: key };
}

/**
 * Makes `file` an index for `key` that can be trusted: a file that is anything else (not a
 * SQLite database, corrupt, another program's, another version's, made with other settings)
 * is reported through `untrusted`, removed and made anew; a missing or empty one is given the
 * index's tables, in write-ahead-log mode. Another process may be doing the same, so the
 * tables are made under the write lock.
 */
export async function prepareIndexFile(file: string, key: string, untrusted: (reason: string) => void): Promise<void> {
  const reason = inspect(file, key);
  if (reason !== undefined) {
    untrusted(reason);
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
  }
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 0');
    await takeWriteLock(db, undefined, () => {
      if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
    });
    try {
      const tables = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get() as number;
      if (tables === 0) {
        db.exec(SCHEMA);
        const insert = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
        for (const [name, value] of Object.entries(expectedMeta(key))) insert.run(name, value);
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  } finally {
    db.close();
  }
}

/**
 * Begins a write transaction (`BEGIN IMMEDIATE`), waiting without blocking the event loop while
 * another connection holds the write lock (SQLite's own wait would block the thread), until
 * `signal` aborts; `before` runs before each try.
 */
export async function takeWriteLock(db: Database.Database, signal?: AbortSignal, before: () => void = () => {}): Promise<void> {
  for (let waited = 0; ; waited += 50) {
    signal?.throwIfAborted();
    try {
      before();
      db.exec('BEGIN IMMEDIATE');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || waited >= LOCK_WAIT_MS) throw error;
    }
    await sleep(50);
  }
}

/**
 * better-sqlite3's one compiled module needs Node-API 10 (Node.js 22.14 and later); an older
 * Node.js crashes the process when it loads it, so the index says so before opening anything.
 */
export function checkSqliteRuntime(napi = Number(process.versions.napi)): void {
  if (napi >= 10) return;
  throw new Error(
    `The local Answer API's index needs Node.js 22.14 or later (Node-API 10); this is Node.js ${process.version} ` +
      `(Node-API ${process.versions.napi}). Switch to a current Node.js (24 or 26), run \`npm install\` again, then start again.`,
  );
}

/** Why the file cannot be trusted as the index for `key`; undefined when it can (or is missing or empty). */
function inspect(file: string, key: string): string | undefined {
  checkSqliteRuntime();
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (error) {
    // Only SQLite's own errors speak of the file: any other (the native module not loading) leaves it alone.
    if (!(error instanceof Database.SqliteError)) throw sqliteUnavailable(error);
    if (error.code === 'SQLITE_CANTOPEN') return undefined;
    return `cannot be opened (${error.message})`;
  }
  try {
    db.pragma('busy_timeout = 5000');
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    if (tables.size === 0) return undefined;
    if (!TABLES.every((name) => tables.has(name))) return 'is not a bot-answer index';
    const meta = Object.fromEntries((db.prepare('SELECT key, value FROM meta').all() as Row[]).map((row) => [row.key, row.value]));
    const expected = expectedMeta(key);
    if (meta.format !== expected.format) return 'is not a bot-answer index';
    if (meta.schema !== expected.schema || meta.reader !== expected.reader || meta.analyzer !== expected.analyzer) return 'was made by another version';
    if (meta.settings !== expected.settings) return 'was made for another folder or other settings';
    // Reading every passage's row proves the tables' pages readable, at a fraction of an integrity check's cost.
    db.prepare('SELECT count(*), sum(length(lengths)) FROM passages').get();
    return undefined;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB') return 'is not a SQLite database';
    if (code === 'SQLITE_CORRUPT') return 'is corrupt';
    return `cannot be read (${(error as Error).message})`;
  } finally {
    db.close();
  }
}

/**
 * The start-up error when better-sqlite3's compiled module does not load in this Node.js (installed
 * under another Node.js version or for another system): what is wrong, and the fix.
 */
function sqliteUnavailable(error: unknown): Error {
  const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new Error(
    `better-sqlite3 (the SQLite module the index needs) does not load in Node.js ${process.version} ` +
      `(modules ${process.versions.modules}, Node-API ${process.versions.napi}): it was installed for another Node.js version or system. ` +
      `Run \`npm rebuild better-sqlite3\` (or reinstall with this Node.js), then start again. The index file was left as it is. (${detail})`,
    { cause: error },
  );
}
