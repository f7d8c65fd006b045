import { availableParallelism } from 'node:os';
import Database from 'better-sqlite3';
import type { KnowledgeBaseSettings, SkippedFile } from '../folder/knowledge-base.js';
import type { DocumentFile } from '../folder/knowledge-base.js';
import { FIELDS, fieldText, storedFields } from '../retrieval/analyzer.js';
import { isSkipped, type AnalysedDocument } from './analyse-file.js';
import { startAnalysers } from './analysers.js';
import { FTS_TABLE, FULL_TEXT, takeWriteLock } from './schema.js';

/** What bringing an index up to date with its folder found. */
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

/** A failure a test asks for (a disk error, a crash) in the middle of a sync. */
export interface SyncFault {
  afterFiles: number;
  crash?: boolean;
}

/** A sync of an index file with its folder. */
export interface SyncJob {
  /** The index file, made ready by `prepareIndexFile`. */
  file: string;
  /** How the documents folder is read (with the app name resolved), and what it holds now (`listKnowledgeBase`). */
  settings: KnowledgeBaseSettings;
  listing: DocumentFile[];
  /** Bytes to read from which files are analysed on threads of their own (`SPREAD_FROM_BYTES`; tests set less). */
  spreadFromBytes: number;
  /** For tests: the sync fails (throws, or with `crash` kills the process) after writing this many files, before it commits. */
  fault?: SyncFault;
}

/** Files each analysing thread is given ahead of the writer, so it is never idle waiting for the next. */
const AHEAD_PER_THREAD = 8;
/** Files read ahead when the writer's thread analyses them itself: their reads overlap. */
const READ_AHEAD = 16;
/**
 * Bytes of files to read from which a sync is worth a process of its own and threads to
 * analyse them (one per half of it, up to one per core): below, starting them costs more than
 * they save (a 3 MB folder: 1.3-1.5 s CPU on the calling thread, 2.3-2.4 s with a process and
 * two threads).
 */
export const SPREAD_FROM_BYTES = 8 * 1024 * 1024;
// What a sync holds in memory as it writes: a large build writes hundreds of MB, a small sync
// little. The page cache; and FTS5's pending terms, written out as a segment when they pass
// the hash size, then merged as segments pile up: its default (1 MB) makes a large build mostly
// merging (16 MB: 9.8-10.5 s CPU instead of 13.3 for the 200 MB folder's inserts).
const WRITER_MEMORY = {
  large: { cacheKiB: 64 * 1024, ftsHashBytes: 16 * 1024 * 1024 },
  small: { cacheKiB: 8 * 1024, ftsHashBytes: 1024 * 1024 },
};

/** How many threads analyse these files: none (the writer's thread does) below `spreadFrom` bytes. */
export function analysisThreads(files: readonly DocumentFile[], spreadFrom: number): number {
  const bytes = files.reduce((sum, f) => sum + (f.size ?? 0), 0);
  if (bytes < spreadFrom) return 0;
  return Math.max(1, Math.min(availableParallelism(), Math.floor((2 * bytes) / spreadFrom)));
}

/**
 * Brings the index file up to date with its folder's listing: reads and analyses the files
 * that are new or changed (by size, times and inode) and drops those gone, in one transaction
 * that answers see all at once when it commits. A folder left with no readable document
 * changes nothing, and so does a sync that fails or is aborted (`signal`). Files are analysed
 * on threads of their own when there are many (`analysisThreads`); this thread writes.
 */
export async function syncIndexFile(job: SyncJob, signal?: AbortSignal): Promise<SyncOutcome> {
  const db = new Database(job.file, { fileMustExist: true });
  try {
    // The lock is waited for without blocking (takeWriteLock); SQLite itself does not wait.
    db.pragma('busy_timeout = 0');
    db.pragma('synchronous = NORMAL');
    db.pragma('temp_store = MEMORY');
    await takeWriteLock(db, signal);
    try {
      const outcome = await new IndexWriter(db, job, signal).apply();
      if (outcome.keptPrevious) db.exec('ROLLBACK');
      else db.exec('COMMIT');
      if (outcome.read || outcome.removed) db.pragma('wal_checkpoint(TRUNCATE)');
      return outcome;
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  } finally {
    db.close();
  }
}

/** A document as the index last read it: its path, size, times and inode. */
export type StoredFile = { path: string; size: number | null; mtime: number | null; ctime: number | null; ino: number | null };

/** The listed files that are new or changed since the index read them (or could not be looked at): they are read again. */
export function filesToRead(listing: readonly DocumentFile[], stored: ReadonlyMap<string, StoredFile>): DocumentFile[] {
  return listing.filter((f) => {
    const row = stored.get(f.path);
    return !row || f.error !== undefined || row.size !== (f.size ?? null) || row.mtime !== (f.mtimeMs ?? null) || row.ctime !== (f.ctimeMs ?? null) || row.ino !== (f.ino ?? null);
  });
}

/** The writes of one sync, in the transaction it runs in. */
class IndexWriter {
  readonly #db: Database.Database;
  readonly #job: SyncJob;
  readonly #signal: AbortSignal | undefined;
  /** Change of each field's total length. */
  readonly #lengthDelta = new Map<string, number>();
  readonly #statements;

  constructor(db: Database.Database, job: SyncJob, signal: AbortSignal | undefined) {
    this.#db = db;
    this.#job = job;
    this.#signal = signal;
    this.#statements = {
      insertDocument: db.prepare(
        'INSERT INTO documents (path, size, mtime, ctime, ino, source, links, anchors, skipped, no_url) VALUES (@path, @size, @mtime, @ctime, @ino, @source, @links, @anchors, @skipped, @no_url)',
      ),
      updateDocument: db.prepare(
        'UPDATE documents SET size = @size, mtime = @mtime, ctime = @ctime, ino = @ino, source = @source, links = @links, anchors = @anchors, skipped = @skipped, no_url = @no_url WHERE id = @id',
      ),
      deleteDocument: db.prepare('DELETE FROM documents WHERE id = ?'),
      passageLengths: db.prepare('SELECT lengths FROM passages WHERE doc_id = ?').pluck(),
      deleteTerms: db.prepare('DELETE FROM passage_terms WHERE rowid IN (SELECT id FROM passages WHERE doc_id = ?)'),
      deleteHeadings: db.prepare('DELETE FROM passage_headings WHERE rowid IN (SELECT id FROM passages WHERE doc_id = ?)'),
      deleteScoring: db.prepare('DELETE FROM scoring_terms WHERE id IN (SELECT id FROM passages WHERE doc_id = ?)'),
      deletePassages: db.prepare('DELETE FROM passages WHERE doc_id = ?'),
      insertPassage: db.prepare('INSERT INTO passages (doc_id, ord, headings, markdown, url, lengths) VALUES (?, ?, ?, ?, ?, ?)'),
      insertTerms: db.prepare(`INSERT INTO passage_terms (rowid, ${FULL_TEXT.body.join(', ')}) VALUES (?, ${FULL_TEXT.body.map(() => '?').join(', ')})`),
      insertHeadings: db.prepare(`INSERT INTO passage_headings (rowid, ${FULL_TEXT.headings.join(', ')}) VALUES (?, ${FULL_TEXT.headings.map(() => '?').join(', ')})`),
      insertScoring: db.prepare('INSERT INTO scoring_terms (id, terms) VALUES (?, ?)'),
      insertPage: db.prepare('INSERT INTO page_terms (rowid, terms) VALUES (?, ?)'),
      deletePage: db.prepare('DELETE FROM page_terms WHERE rowid = ?'),
      addLength: db.prepare('INSERT INTO field_lengths (field, total) VALUES (?, ?) ON CONFLICT (field) DO UPDATE SET total = total + excluded.total'),
      countDocuments: db.prepare('SELECT count(*) FROM documents WHERE skipped IS NULL').pluck(),
      countPassages: db.prepare('SELECT count(*) FROM passages').pluck(),
    };
  }

  async apply(): Promise<SyncOutcome> {
    const s = this.#statements;
    const listing = this.#job.listing;
    const stored = new Map((this.#db.prepare('SELECT id, path, size, mtime, ctime, ino FROM documents').all() as Array<StoredFile & { id: number }>).map((row) => [row.path, row]));
    const listed = new Set(listing.map((f) => f.path));
    let removed = 0;
    for (const [path, row] of stored) {
      if (listed.has(path)) continue;
      this.#deletePassages(row.id);
      s.deleteDocument.run(row.id);
      removed++;
    }
    const changed = filesToRead(listing, stored);
    const threads = analysisThreads(changed, this.#job.spreadFromBytes);
    const memory = threads ? WRITER_MEMORY.large : WRITER_MEMORY.small;
    this.#db.pragma(`cache_size = -${memory.cacheKiB}`);
    for (const table of Object.values(FTS_TABLE)) this.#db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('hashsize', ${memory.ftsHashBytes})`);
    const analysers = startAnalysers(threads, this.#job.settings);
    const skipped: SkippedFile[] = [];
    try {
      const ahead = threads ? threads * AHEAD_PER_THREAD : READ_AHEAD;
      const results: Array<ReturnType<typeof analysers.analyse>> = [];
      const analyseAt = (i: number): void => {
        const f = changed[i];
        if (f) {
          results[i] = analysers.analyse(f);
          // Awaited in order below; a failure meanwhile is not an unhandled rejection.
          results[i]!.catch(() => {});
        }
      };
      for (let i = 0; i < ahead; i++) analyseAt(i);
      for (let i = 0; i < changed.length; i++) {
        analyseAt(i + ahead);
        const f = changed[i]!;
        const result = await results[i]!;
        delete results[i];
        this.#signal?.throwIfAborted();
        if (this.#job.fault && i >= this.#job.fault.afterFiles) {
          if (this.#job.fault.crash) process.kill(process.pid, 'SIGKILL');
          throw new Error(`failed on purpose after ${i} files`);
        }
        const existing = stored.get(f.path);
        if (existing) this.#deletePassages(existing.id);
        if (isSkipped(result)) skipped.push(result);
        this.#store(f, isSkipped(result) ? result : undefined, isSkipped(result) ? undefined : result, existing?.id);
      }
    } finally {
      await analysers.close();
    }
    for (const [field, delta] of this.#lengthDelta) s.addLength.run(field, delta);
    const documents = s.countDocuments.get() as number;
    return {
      documents,
      passages: s.countPassages.get() as number,
      read: changed.length,
      removed,
      unchanged: listing.length - changed.length,
      skipped,
      ...(documents === 0 ? { keptPrevious: true } : {}),
    };
  }

  #deletePassages(docId: number): void {
    const s = this.#statements;
    for (const lengths of s.passageLengths.all(docId) as string[]) {
      (JSON.parse(lengths) as number[]).forEach((n, i) => this.#addLength(FIELDS[i]!, -n));
    }
    s.deleteTerms.run(docId);
    s.deleteHeadings.run(docId);
    s.deleteScoring.run(docId);
    s.deletePassages.run(docId);
    s.deletePage.run(docId);
  }

  #store(f: DocumentFile, skipped: SkippedFile | undefined, read: AnalysedDocument | undefined, id: number | undefined): void {
    const s = this.#statements;
    const values = {
      path: f.path,
      size: f.size ?? null,
      mtime: f.mtimeMs ?? null,
      ctime: f.ctimeMs ?? null,
      ino: f.ino ?? null,
      source: read ? read.source : null,
      links: read ? read.links : null,
      anchors: read?.anchors ? 1 : 0,
      skipped: skipped ? skipped.reason : null,
      no_url: skipped?.noUrl ? 1 : 0,
    };
    const docId = id ?? Number(s.insertDocument.run(values).lastInsertRowid);
    if (id !== undefined) s.updateDocument.run({ ...values, id });
    if (!read) return;
    const pageTerms = new Set<string>();
    read.passages.forEach((passage, ord) => {
      passage.lengths.forEach((n, i) => this.#addLength(FIELDS[i]!, n));
      const passageId = s.insertPassage.run(docId, ord, passage.headings, passage.markdown, passage.url, JSON.stringify(passage.lengths)).lastInsertRowid;
      const columns = storedFields(passage.stored);
      s.insertTerms.run(passageId, ...FULL_TEXT.body.map((field) => fieldText(columns[field])));
      s.insertHeadings.run(passageId, ...FULL_TEXT.headings.map((field) => fieldText(columns[field])));
      s.insertScoring.run(passageId, passage.stored);
      for (const entry of passage.stored.split(/[ \n]/)) if (entry) pageTerms.add(entry.replace(/:\d+$/, ''));
    });
    if (pageTerms.size > 0) s.insertPage.run(docId, [...pageTerms].join(' '));
  }

  #addLength(field: string, n: number): void {
    this.#lengthDelta.set(field, (this.#lengthDelta.get(field) ?? 0) + n);
  }
}
