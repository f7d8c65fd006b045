import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type { LinkDefinition } from '../folder/clean-markdown.js';
import type { KbDocument, KnowledgeBaseSettings, Passage, SkippedFile } from '../folder/knowledge-base.js';
import { listKnowledgeBase, readDocumentFile, skippedFile, type DocumentFile, type ReadDocument } from '../folder/knowledge-base.js';
import { ANALYZER_VERSION, FIELDS, passageTerms, storedTerms, type Field } from '../retrieval/analyzer.js';
import { indexFileName } from './index-file.js';

/** The layout of the index file; a file of another layout is rebuilt. */
const SCHEMA_VERSION = 5;
const FORMAT = 'bot-answer knowledge-base index';
const TABLES = ['meta', 'documents', 'passages', 'field_lengths', 'passage_terms', 'passage_headings', 'passage_vocab', 'heading_vocab', 'scoring_terms'];

/**
 * The full-text tables and their columns. The heading path (the page title and the section's
 * headings) has a table of its own, so BM25 normalises a heading's matches by the heading's
 * length, not the passage's: a short heading that names the question's words counts for much.
 */
export const FULL_TEXT = { headings: ['title', 'headings'], body: ['code', 'body', 'joined'] } as const;
export type FullTextTable = keyof typeof FULL_TEXT;
export type ColumnWeights = Record<(typeof FULL_TEXT)[FullTextTable][number], number>;
const FTS_TABLE: Record<FullTextTable, string> = { headings: 'passage_headings', body: 'passage_terms' };

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
CREATE VIRTUAL TABLE passage_headings USING fts5 (${FULL_TEXT.headings.join(', ')}, content = '', contentless_delete = 1, tokenize = 'ascii');
CREATE VIRTUAL TABLE passage_vocab USING fts5vocab (passage_terms, 'row');
CREATE VIRTUAL TABLE heading_vocab USING fts5vocab (passage_headings, 'row');
-- Each passage's analysed fields (analyzer's storedTerms): retrieval scores its candidates from them.
CREATE TABLE scoring_terms (id INTEGER PRIMARY KEY, terms TEXT NOT NULL);
`;

/** How long a sync waits for another process that holds the index file's write lock. */
const LOCK_WAIT_MS = 10 * 60_000;
/** Terms whose passage counts are remembered between syncs. */
const MAX_REMEMBERED = 20_000;
/** Files read ahead of the one being indexed. */
const READ_AHEAD = 16;

/** What opening an index and bringing it up to date with its folder found. */
export interface SyncOutcome {
  /** Documents served and their passages, after the sync. */
  documents: number;
  passages: number;
  /** Files read (new or changed) and removed; files left as they were. */
  read: number;
  removed: number;
  unchanged: number;
  /** Files read this time that are not served, and why. */
  skipped: SkippedFile[];
  /** True when the folder was left with no readable document: nothing was changed. */
  keptPrevious?: boolean;
}

/** How an index file is opened. */
export interface KbIndexOptions {
  /** The documents folder. */
  dir: string;
  /** How it is read (with the app name resolved). */
  settings: KnowledgeBaseSettings;
  /** The folder index files go in. */
  folder: string;
  /** Names the file, with a hash of the folder and settings. */
  botId: string;
  log?: (line: string) => void;
}

type Row = Record<string, unknown>;

/** A passage as retrieval scores it: see `KbIndex.scoringRows`. */
export interface ScoringRow {
  id: number;
  docId: number;
  /** The document's path in the folder, and the passage's place in it: ties are broken by them. */
  path: string;
  ord: number;
  /** The analysed fields, as `storedTerms` writes them. */
  terms: string;
  /** Each field's length in terms, in the order of `FIELDS`. */
  lengths: number[];
}

/**
 * A knowledge base's passages and their full-text index (SQLite FTS5), in one file on disk.
 * Passage text stays in the file and is read when an answer quotes it. The file is brought up
 * to date with the folder by `sync()`, which re-reads only new and changed files; a file that
 * is not an index of this folder, made by this version with these settings, is rebuilt.
 *
 * Two connections: `sync()` writes in one transaction on its own, so answers read the last
 * committed index meanwhile (SQLite's write-ahead log) and see a sync's changes all at once.
 */
export class KbIndex {
  readonly file: string;
  readonly dir: string;
  readonly #settings: KnowledgeBaseSettings;
  readonly #writer: Database.Database;
  readonly #reader: Database.Database;
  readonly #log: (line: string) => void;
  #documents = 0;
  #passages = 0;
  readonly #frequencies = new Map<string, { headings: number; body: number }>();
  #averages = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>;
  /** Change of each field's total length during the sync under way. */
  #lengthDelta = new Map<Field, number>();
  #closed = false;
  readonly #statements: {
    frequencies: Database.Statement;
    passages: Database.Statement;
    scoring: Database.Statement;
  };

  private constructor(file: string, options: KbIndexOptions, writer: Database.Database) {
    this.file = file;
    this.dir = options.dir;
    this.#settings = options.settings;
    this.#log = options.log ?? ((): void => {});
    this.#writer = writer;
    this.#reader = new Database(file, { fileMustExist: true });
    this.#reader.pragma('busy_timeout = 2000');
    this.#reader.pragma('cache_size = -8000');
    this.#statements = {
      frequencies: this.#reader.prepare(
        'SELECT coalesce((SELECT doc FROM heading_vocab WHERE term = @term), 0) AS headings, coalesce((SELECT doc FROM passage_vocab WHERE term = @term), 0) AS body',
      ),
      passages: this.#reader.prepare(
        `SELECT p.id, p.ord, p.headings, p.markdown, p.url, d.id AS doc_id, d.path, d.source, d.links, d.anchors
         FROM passages p JOIN documents d ON d.id = p.doc_id WHERE p.id IN (SELECT value FROM json_each(?))`,
      ),
      scoring: this.#reader.prepare(
        `SELECT s.id, s.terms, p.doc_id AS docId, p.ord, p.lengths, d.path
         FROM scoring_terms s JOIN passages p ON p.id = s.id JOIN documents d ON d.id = p.doc_id WHERE s.id IN (SELECT value FROM json_each(?))`,
      ),
    };
    this.#count();
  }

  /**
   * Opens the index file of a folder in `options.folder` (made when missing), after checking
   * that it is an index of this folder made by this version with these settings; a file that
   * is not (another format, version or settings, not a SQLite database, corrupt) is logged,
   * removed and made anew. Call `sync()` next to bring it up to date with the folder.
   */
  static async open(options: KbIndexOptions): Promise<KbIndex> {
    mkdirSync(options.folder, { recursive: true });
    const key = settingsKey(options.dir, options.settings);
    const file = join(options.folder, indexFileName(options.botId, key));
    const log = options.log ?? ((): void => {});
    let writer = openChecked(file, key, (reason) => log(`index ${file} ${reason}: removed, to be built anew`));
    try {
      await initialise(writer, key);
    } catch (error) {
      writer.close();
      throw error;
    }
    return new KbIndex(file, options, writer);
  }

  /** Documents served now. */
  get documents(): number {
    return this.#documents;
  }

  /** Passages indexed now. */
  get passages(): number {
    return this.#passages;
  }

  /** The average length, in terms, of each field of a passage: BM25 normalises a field's matches by it. */
  averageLengths(): Record<Field, number> {
    return this.#averages;
  }

  /**
   * Brings the index up to date with the folder: lists it, re-reads the files that are new or
   * changed (by size, times and inode) and drops those gone, in one transaction that answers
   * see all at once when it commits. A folder left with no readable document changes nothing.
   * Throws a KnowledgeBaseError when the folder cannot be listed or holds no Markdown.
   */
  async sync(): Promise<SyncOutcome> {
    const listing = await listKnowledgeBase(this.dir);
    await this.#begin();
    try {
      const outcome = await this.#apply(listing);
      if (outcome.keptPrevious) this.#writer.exec('ROLLBACK');
      else this.#writer.exec('COMMIT');
      if (outcome.read || outcome.removed) this.#writer.pragma('wal_checkpoint(TRUNCATE)');
      // The writer's page cache served the sync; answers only read.
      this.#writer.pragma('shrink_memory');
      this.#count();
      return { ...outcome, documents: outcome.keptPrevious ? this.#documents : outcome.documents, passages: this.#passages };
    } catch (error) {
      if (this.#writer.inTransaction) this.#writer.exec('ROLLBACK');
      throw error;
    }
  }

  /** Files the index holds that are not served, and why (all of them, not only those read by the last sync). */
  skipped(): SkippedFile[] {
    const rows = this.#reader.prepare('SELECT path, skipped, no_url FROM documents WHERE skipped IS NOT NULL ORDER BY path').all() as Row[];
    return rows.map((row) => ({ path: row.path as string, reason: row.skipped as string, ...(row.no_url ? { noUrl: true } : {}) }));
  }

  /** Runs `body` on one snapshot of the index: everything it reads comes from the same state, whatever a sync commits meanwhile. */
  read<T>(body: () => T): T {
    return this.#reader.transaction(body)();
  }

  /** In how many passages' heading paths, and bodies, `term` occurs (remembered until the next sync changes the index). */
  frequencies(term: string): { headings: number; body: number } {
    let known = this.#frequencies.get(term);
    if (!known) {
      known = this.#statements.frequencies.get({ term }) as { headings: number; body: number };
      if (this.#frequencies.size >= MAX_REMEMBERED) this.#frequencies.clear();
      this.#frequencies.set(term, known);
    }
    return known;
  }

  /** In how many passages `term` occurs (at least: in the body or the heading path, whichever has it more). */
  documentFrequency(term: string): number {
    const { headings, body } = this.frequencies(term);
    return Math.max(headings, body);
  }

  /** Terms of the index beginning with `prefix`, with their passage counts: at most `limit`, the most frequent first. */
  termsBeginning(prefix: string, limit: number): Array<{ term: string; df: number }> {
    const end = prefix.slice(0, -1) + String.fromCodePoint(prefix.codePointAt(prefix.length - 1)! + 1);
    return this.#prepared('SELECT term, doc AS df FROM passage_vocab WHERE term >= ? AND term < ? ORDER BY doc DESC LIMIT ?').all(prefix, end, limit) as Array<{
      term: string;
      df: number;
    }>;
  }

  /**
   * Passages matching an FTS5 query, best first by BM25 with these column weights, at most
   * `limit`; `within` keeps only passages of these ids. Scores are positive, higher is better.
   */
  match(table: FullTextTable, query: string, weights: ColumnWeights, limit: number, within?: readonly number[]): Array<{ id: number; score: number }> {
    const name = FTS_TABLE[table];
    const columns = FULL_TEXT[table];
    const filter = within ? 'AND rowid IN (SELECT value FROM json_each(?))' : '';
    const sql = `SELECT rowid AS id, -bm25(${name}, ${columns.map(() => '?').join(', ')}) AS score FROM ${name}
      WHERE ${name} MATCH ? ${filter} ORDER BY score DESC LIMIT ?`;
    const statement = this.#prepared(sql);
    const params: unknown[] = [...columns.map((c) => weights[c]), query];
    if (within) params.push(JSON.stringify(within));
    params.push(limit);
    return statement.all(...params) as Array<{ id: number; score: number }>;
  }

  /** The passages of these ids, in the order given, each with its document. */
  passagesById(ids: readonly number[]): Passage[] {
    const rows = this.#statements.passages.all(JSON.stringify(ids)) as Row[];
    const documents = new Map<number, KbDocument>();
    const byId = new Map<number, Passage>();
    for (const row of rows) {
      const docId = row.doc_id as number;
      let document = documents.get(docId);
      if (!document) {
        document = { index: docId, path: row.path as string, source: JSON.parse(row.source as string) as KbDocument['source'], anchors: row.anchors === 1 };
        if (row.links) document.links = new Map(JSON.parse(row.links as string) as Array<[string, LinkDefinition]>);
        documents.set(docId, document);
      }
      byId.set(row.id as number, { index: row.id as number, document, headings: JSON.parse(row.headings as string) as string[], markdown: row.markdown as string, url: row.url as string });
    }
    return ids.map((id) => byId.get(id)).filter((p): p is Passage => p !== undefined);
  }

  /**
   * What retrieval scores a passage by, for these ids (in no particular order): its analysed
   * fields (`storedTerms`), each field's length in terms, its document and place in it. Much less
   * to read than the passages themselves, whose text only the chosen few need.
   */
  scoringRows(ids: readonly number[]): ScoringRow[] {
    return (this.#statements.scoring.all(JSON.stringify(ids)) as Row[]).map((row) => ({
      id: row.id as number,
      docId: row.docId as number,
      path: row.path as string,
      ord: row.ord as number,
      terms: row.terms as string,
      lengths: JSON.parse(row.lengths as string) as number[],
    }));
  }

  /** Closes the file. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#reader.close();
    this.#writer.close();
  }

  readonly #cache = new Map<string, Database.Statement>();
  #prepared(sql: string): Database.Statement {
    let statement = this.#cache.get(sql);
    if (!statement) {
      statement = this.#reader.prepare(sql);
      this.#cache.set(sql, statement);
    }
    return statement;
  }

  #count(): void {
    this.#frequencies.clear();
    this.#documents = this.#reader.prepare('SELECT count(*) FROM documents WHERE skipped IS NULL').pluck().get() as number;
    this.#passages = this.#reader.prepare('SELECT count(*) FROM passages').pluck().get() as number;
    const totals = new Map((this.#reader.prepare('SELECT field, total FROM field_lengths').all() as Row[]).map((row) => [row.field as string, row.total as number]));
    for (const field of FIELDS) this.#averages[field] = this.#passages ? (totals.get(field) ?? 0) / this.#passages : 0;
  }

  /** Takes the write lock, waiting without blocking the event loop while another process holds it. */
  async #begin(): Promise<void> {
    for (let waited = 0; ; waited += 50) {
      try {
        this.#writer.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || waited >= LOCK_WAIT_MS) throw error;
      }
      await sleep(50);
    }
  }

  async #apply(listing: DocumentFile[]): Promise<Omit<SyncOutcome, 'passages'>> {
    const w = this.#writer;
    this.#lengthDelta.clear();
    const stored = new Map(
      (w.prepare('SELECT id, path, size, mtime, ctime, ino, skipped FROM documents').all() as Row[]).map((row) => [row.path as string, row]),
    );
    const listed = new Set(listing.map((f) => f.path));
    let removed = 0;
    for (const [path, row] of stored) {
      if (listed.has(path)) continue;
      this.#deletePassages(row.id as number);
      w.prepare('DELETE FROM documents WHERE id = ?').run(row.id);
      removed++;
    }
    const changed = listing.filter((f) => {
      const row = stored.get(f.path);
      return !row || f.error !== undefined || row.size !== (f.size ?? null) || row.mtime !== (f.mtimeMs ?? null) || row.ctime !== (f.ctimeMs ?? null) || row.ino !== (f.ino ?? null);
    });
    const skipped: SkippedFile[] = [];
    const reads: Array<Promise<ReadDocument | SkippedFile>> = [];
    const readAt = (i: number): void => {
      const f = changed[i];
      if (f) reads[i] = readDocumentFile(f, this.#settings).catch((caught: unknown) => skippedFile(f.path, caught));
    };
    for (let i = 0; i < READ_AHEAD; i++) readAt(i);
    for (let i = 0; i < changed.length; i++) {
      readAt(i + READ_AHEAD);
      const f = changed[i]!;
      const result = await reads[i]!;
      delete reads[i];
      if (this.#closed) throw new Error('the index was closed');
      const existing = stored.get(f.path);
      if (existing) this.#deletePassages(existing.id as number);
      if ('reason' in result) skipped.push(result);
      this.#store(f, result, existing?.id as number | undefined);
    }
    const addLength = w.prepare('INSERT INTO field_lengths (field, total) VALUES (?, ?) ON CONFLICT (field) DO UPDATE SET total = total + excluded.total');
    for (const [field, delta] of this.#lengthDelta) addLength.run(field, delta);
    this.#lengthDelta.clear();
    const documents = w.prepare('SELECT count(*) FROM documents WHERE skipped IS NULL').pluck().get() as number;
    return { documents, read: changed.length, removed, unchanged: listing.length - changed.length, skipped, ...(documents === 0 ? { keptPrevious: true } : {}) };
  }

  #deletePassages(docId: number): void {
    for (const lengths of this.#writer.prepare('SELECT lengths FROM passages WHERE doc_id = ?').pluck().all(docId) as string[]) {
      (JSON.parse(lengths) as number[]).forEach((n, i) => this.#addLength(FIELDS[i]!, -n));
    }
    this.#writer.prepare('DELETE FROM passage_terms WHERE rowid IN (SELECT id FROM passages WHERE doc_id = ?)').run(docId);
    this.#writer.prepare('DELETE FROM passage_headings WHERE rowid IN (SELECT id FROM passages WHERE doc_id = ?)').run(docId);
    this.#writer.prepare('DELETE FROM scoring_terms WHERE id IN (SELECT id FROM passages WHERE doc_id = ?)').run(docId);
    this.#writer.prepare('DELETE FROM passages WHERE doc_id = ?').run(docId);
  }

  #store(f: DocumentFile, result: ReadDocument | SkippedFile, id: number | undefined): void {
    const w = this.#writer;
    const read = 'reason' in result ? undefined : result;
    const values = {
      path: f.path,
      size: f.size ?? null,
      mtime: f.mtimeMs ?? null,
      ctime: f.ctimeMs ?? null,
      ino: f.ino ?? null,
      source: read ? JSON.stringify(read.source) : null,
      links: read?.links.size ? JSON.stringify([...read.links]) : null,
      anchors: read?.anchors ? 1 : 0,
      skipped: read ? null : (result as SkippedFile).reason,
      no_url: !read && (result as SkippedFile).noUrl ? 1 : 0,
    };
    let docId = id;
    if (docId === undefined) {
      docId = Number(
        w.prepare('INSERT INTO documents (path, size, mtime, ctime, ino, source, links, anchors, skipped, no_url) VALUES (@path, @size, @mtime, @ctime, @ino, @source, @links, @anchors, @skipped, @no_url)').run(values)
          .lastInsertRowid,
      );
    } else {
      w.prepare('UPDATE documents SET size = @size, mtime = @mtime, ctime = @ctime, ino = @ino, source = @source, links = @links, anchors = @anchors, skipped = @skipped, no_url = @no_url WHERE id = @id').run({ ...values, id: docId });
    }
    if (!read) return;
    const insertPassage = w.prepare('INSERT INTO passages (doc_id, ord, headings, markdown, url, lengths) VALUES (?, ?, ?, ?, ?, ?)');
    const insertTerms = w.prepare(`INSERT INTO passage_terms (rowid, ${FULL_TEXT.body.join(', ')}) VALUES (?, ?, ?, ?)`);
    const insertHeadings = w.prepare(`INSERT INTO passage_headings (rowid, ${FULL_TEXT.headings.join(', ')}) VALUES (?, ?, ?)`);
    const insertScoring = w.prepare('INSERT INTO scoring_terms (id, terms) VALUES (?, ?)');
    read.sections.forEach((section, ord) => {
      const terms = passageTerms(read.source.title, section.headings, section.markdown);
      const lengths = FIELDS.map((field) => terms[field].length);
      lengths.forEach((n, i) => this.#addLength(FIELDS[i]!, n));
      const passageId = insertPassage.run(docId, ord, JSON.stringify(section.headings), section.markdown, section.url, JSON.stringify(lengths)).lastInsertRowid;
      insertTerms.run(passageId, terms.code.join(' '), terms.body.join(' '), terms.joined.join(' '));
      insertHeadings.run(passageId, terms.title.join(' '), terms.headings.join(' '));
      insertScoring.run(passageId, storedTerms(terms));
    });
  }

  #addLength(field: Field, n: number): void {
    this.#lengthDelta.set(field, (this.#lengthDelta.get(field) ?? 0) + n);
  }
}

/** What an index file must have been made for: this layout and analyzer, this folder, these settings. */
function settingsKey(dir: string, settings: KnowledgeBaseSettings): string {
  const { baseUrl, urlExtension, appName, anchors, baseUrlSetting } = settings;
  return JSON.stringify({ dir, baseUrl, urlExtension, appName, anchors, baseUrlSetting });
}

function expectedMeta(key: string): Record<string, string> {
  return { format: FORMAT, schema: String(SCHEMA_VERSION), analyzer: String(ANALYZER_VERSION), settings: key };
}

/**
 * Opens the file, and if it is anything but an index made for `key` (or an empty file about to
 * become one), says why, removes it and opens a new one. Never trusted: not a SQLite database,
 * corrupt, another program's, another version's, or made with other settings.
 */
function openChecked(file: string, key: string, untrusted: (reason: string) => void): Database.Database {
  const reason = inspect(file, key);
  if (reason === undefined) return configure(new Database(file));
  untrusted(reason);
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
  return configure(new Database(file));
}

function configure(db: Database.Database): Database.Database {
  // The writer waits for the lock without blocking (see #begin); SQLite itself does not wait.
  db.pragma('busy_timeout = 0');
  db.pragma('cache_size = -32000');
  db.pragma('synchronous = NORMAL');
  return db;
}

/** Why the file cannot be trusted as the index for `key`; undefined when it can (or is missing or empty). */
function inspect(file: string, key: string): string | undefined {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_CANTOPEN') return undefined;
    return `cannot be opened (${(error as Error).message})`;
  }
  try {
    db.pragma('busy_timeout = 5000');
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    if (tables.size === 0) return undefined;
    if (!TABLES.every((name) => tables.has(name))) return 'is not a bot-answer index';
    const meta = Object.fromEntries((db.prepare('SELECT key, value FROM meta').all() as Row[]).map((row) => [row.key, row.value]));
    const expected = expectedMeta(key);
    if (meta.format !== expected.format) return 'is not a bot-answer index';
    if (meta.schema !== expected.schema || meta.analyzer !== expected.analyzer) return 'was made by another version';
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

/** Gives an empty file the index's tables, in write-ahead-log mode; another process may be doing the same, so it is checked under the write lock. */
async function initialise(db: Database.Database, key: string): Promise<void> {
  for (let waited = 0; ; waited += 50) {
    try {
      if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
      db.exec('BEGIN IMMEDIATE');
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || waited >= LOCK_WAIT_MS) throw error;
    }
    await sleep(50);
  }
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
}
