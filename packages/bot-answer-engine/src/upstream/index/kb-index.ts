import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import type { LinkDefinition } from '../folder/clean-markdown.js';
import { KnowledgeBaseError, listKnowledgeBase, type KbDocument, type KnowledgeBaseSettings, type Passage, type SkippedFile } from '../folder/knowledge-base.js';
import { FIELDS, type Field } from '../retrieval/analyzer.js';
import { mapped } from '../retrieval/mapped.js';
import { indexFileName } from './index-file.js';
import { analysisThreads, filesToRead, SPREAD_FROM_BYTES, syncIndexFile, type StoredFile, type SyncFault, type SyncJob, type SyncOutcome } from './index-writer.js';
import { FTS_TABLE, FULL_TEXT, prepareIndexFile, settingsKey, type ColumnWeights, type FullTextTable } from './schema.js';
import { forkModule } from './spawn-module.js';

export { FULL_TEXT, type ColumnWeights, type FullTextTable } from './schema.js';
export type { SyncOutcome } from './index-writer.js';

/** Terms whose passage counts, and beginnings whose terms, are remembered between syncs. */
const MAX_REMEMBERED = 20_000;

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
  /**
   * Bytes of files to read from which a sync runs in a process of its own, with threads to
   * analyse them. Default `SPREAD_FROM_BYTES` (8 MiB); tests set less.
   */
  spreadFromBytes?: number;
  /**
   * Which syncs run in a process of its own: those with `spreadFromBytes` to read or more
   * (`'large'`, the default), or every one (`'all'`: a site bot's, many small ones as it crawls,
   * whose garbage would otherwise grow the serving process's heap for good).
   */
  syncElsewhere?: 'large' | 'all';
  /** For tests: every sync fails (or crashes the process) part-way, before it commits. */
  fault?: SyncFault;
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
 * This side only reads. A sync writes in a process of its own (`build-process`), in one
 * transaction, so answers read the last committed index meanwhile (SQLite's write-ahead log)
 * and see a sync's changes all at once; whatever a build allocates goes when its process ends.
 */
export class KbIndex {
  readonly file: string;
  readonly dir: string;
  /** How the folder's documents are read and cited (base URL, extension, app name). */
  readonly settings: KnowledgeBaseSettings;
  readonly #job: Omit<SyncJob, 'listing'>;
  readonly #allElsewhere: boolean;
  /** Stops a sync under way in this process when the index is closed. */
  readonly #stop = new AbortController();
  readonly #reader: Database.Database;
  #documents = 0;
  #passages = 0;
  readonly #frequencies = new Map<string, { headings: number; body: number }>();
  readonly #pageFrequencies = new Map<string, number>();
  readonly #beginnings = new Map<string, ReadonlyArray<{ term: string; df: number }>>();
  #averages = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>;
  #closed = false;
  /** The process of the sync under way. */
  #building: ChildProcess | undefined;
  readonly #statements: {
    frequencies: Database.Statement;
    pageFrequency: Database.Statement;
    passages: Database.Statement;
    scoring: Database.Statement;
  };

  private constructor(file: string, options: KbIndexOptions) {
    this.file = file;
    this.dir = options.dir;
    this.settings = options.settings;
    this.#job = { file, settings: options.settings, spreadFromBytes: options.spreadFromBytes ?? SPREAD_FROM_BYTES, ...(options.fault ? { fault: options.fault } : {}) };
    this.#allElsewhere = options.syncElsewhere === 'all';
    this.#reader = new Database(file, { fileMustExist: true });
    this.#reader.pragma('busy_timeout = 2000');
    this.#reader.pragma('cache_size = -8000');
    this.#statements = {
      frequencies: this.#reader.prepare(
        'SELECT coalesce((SELECT doc FROM heading_vocab WHERE term = @term), 0) AS headings, coalesce((SELECT doc FROM passage_vocab WHERE term = @term), 0) AS body',
      ),
      pageFrequency: this.#reader.prepare('SELECT coalesce((SELECT doc FROM page_vocab WHERE term = ?), 0)').pluck(),
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
    await prepareIndexFile(file, key, (reason) => log(`index ${file} ${reason}: removed, to be built anew`));
    return new KbIndex(file, options);
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
   * Brings the index up to date with the folder (see `syncIndexFile`): lists it, re-reads the
   * files that are new or changed and drops those gone, in one transaction that answers see
   * all at once when it commits; when nothing changed, nothing is written. Many bytes to read
   * (`spreadFromBytes`) are read in a process of its own, on threads, so whatever the build
   * allocates goes when it ends; a few are read here (or there too, with `syncElsewhere` 'all'). A folder left with no readable document
   * changes nothing; a sync that fails or is stopped (`close`) changes nothing either. Throws a
   * KnowledgeBaseError when the folder cannot be listed or holds no documents.
   */
  async sync(): Promise<SyncOutcome> {
    if (this.#closed) throw new Error('the index was closed');
    const listing = await listKnowledgeBase(this.dir);
    const stored = this.#reader.prepare('SELECT path, size, mtime, ctime, ino FROM documents').all() as StoredFile[];
    const toRead = filesToRead(listing, new Map(stored.map((row) => [row.path, row])));
    if (toRead.length === 0 && stored.length === listing.length) {
      return { documents: this.#documents, passages: this.#passages, read: 0, removed: 0, unchanged: listing.length, skipped: [] };
    }
    const job: SyncJob = { ...this.#job, listing };
    const elsewhere = this.#allElsewhere || analysisThreads(toRead, job.spreadFromBytes) > 0;
    const outcome = elsewhere ? await this.#syncElsewhere(job) : await syncIndexFile(job, this.#stop.signal);
    if (this.#closed) throw new Error('the index was closed');
    if (outcome.keptPrevious) return { ...outcome, documents: this.#documents, passages: this.#passages };
    this.#count();
    return outcome;
  }

  /** Runs a sync in a process of its own (`build-process`). */
  async #syncElsewhere(job: SyncJob): Promise<SyncOutcome> {
    const child = forkModule('build-process');
    this.#building = child;
    let reply: { outcome?: SyncOutcome; error?: { name: string; message: string; code?: string } } | undefined;
    try {
      // Its reply has come when its channel has closed (messages are read first) and it has ended.
      await new Promise<void>((resolve, reject) => {
        let ends = 2;
        const end = (): void => {
          if (--ends === 0) resolve();
        };
        child.once('message', (message: typeof reply) => (reply = message));
        child.once('error', reject);
        child.once('disconnect', end);
        child.once('exit', end);
        child.send(job);
      });
    } finally {
      this.#building = undefined;
    }
    if (this.#closed) throw new Error('the index was closed');
    if (!reply) throw new Error(`the index's build process stopped (exit code ${child.exitCode}${child.signalCode ? `, ${child.signalCode}` : ''})`);
    if (reply.error) throw rebuiltError(reply.error);
    return reply.outcome!;
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

  /** In how many documents `term` occurs, in any passage's heading path or body (remembered until the next sync changes the index). */
  pageFrequency(term: string): number {
    let known = this.#pageFrequencies.get(term);
    if (known === undefined) {
      known = this.#statements.pageFrequency.get(term) as number;
      if (this.#pageFrequencies.size >= MAX_REMEMBERED) this.#pageFrequencies.clear();
      this.#pageFrequencies.set(term, known);
    }
    return known;
  }

  /**
   * Terms of the index beginning with `prefix`, with their passage counts: at most `limit`, the
   * most frequent first (remembered until the next sync changes the index: counting them reads
   * every passage list of every term the beginning begins, most of a search in a large folder).
   */
  termsBeginning(prefix: string, limit: number): ReadonlyArray<{ term: string; df: number }> {
    const key = `${limit}:${prefix}`;
    let terms = this.#beginnings.get(key);
    if (!terms) {
      const end = prefix.slice(0, -1) + String.fromCodePoint(prefix.codePointAt(prefix.length - 1)! + 1);
      terms = this.#prepared('SELECT term, doc AS df FROM passage_vocab WHERE term >= ? AND term < ? ORDER BY doc DESC LIMIT ?').all(prefix, end, limit) as Array<{
        term: string;
        df: number;
      }>;
      if (this.#beginnings.size >= MAX_REMEMBERED) this.#beginnings.clear();
      this.#beginnings.set(key, terms);
    }
    return terms;
  }

  /**
   * Passages matching an FTS5 query, best first by BM25 with these column weights, at most
   * `limit`; `within` keeps only passages of these ids. Scores are positive, higher is better.
   */
  match(table: FullTextTable, query: string, weights: ColumnWeights, limit: number, within?: readonly number[]): Array<{ id: number; score: number }> {
    const name = FTS_TABLE[table];
    const columns = FULL_TEXT[table];
    const filter = within ? 'AND rowid IN (SELECT value FROM json_each(?))' : '';
    const sql = `SELECT rowid AS id, -bm25(${name}, ${mapped(columns, () => '?').join(', ')}) AS score FROM ${name}
      WHERE ${name} MATCH ? ${filter} ORDER BY score DESC LIMIT ?`;
    const statement = this.#prepared(sql);
    const params: unknown[] = [...mapped(columns, (c) => weights[c]), query];
    if (within) params.push(JSON.stringify(within));
    params.push(limit);
    return statement.all(...params) as Array<{ id: number; score: number }>;
  }

  /**
   * As `match`, among the first `scan` passages matching in the index's order only: the cost is
   * bounded by `scan` however many passages match (ranking all of them reads every match), and
   * the ranking is exact whenever fewer match.
   */
  matchAmong(table: FullTextTable, query: string, weights: ColumnWeights, limit: number, scan: number): Array<{ id: number; score: number }> {
    const name = FTS_TABLE[table];
    const columns = FULL_TEXT[table];
    const sql = `SELECT id, score FROM (SELECT rowid AS id, -bm25(${name}, ${mapped(columns, () => '?').join(', ')}) AS score FROM ${name}
      WHERE ${name} MATCH ? LIMIT ?) ORDER BY score DESC LIMIT ?`;
    return this.#prepared(sql).all(...mapped(columns, (c) => weights[c]), query, scan, limit) as Array<{ id: number; score: number }>;
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
    return mapped(ids, (id) => byId.get(id)).filter((p): p is Passage => p !== undefined);
  }

  /**
   * What retrieval scores a passage by, for these ids (in no particular order): its analysed
   * fields (`storedTerms`), each field's length in terms, its document and place in it. Much less
   * to read than the passages themselves, whose text only the chosen few need.
   */
  scoringRows(ids: readonly number[]): ScoringRow[] {
    return mapped(this.#statements.scoring.all(JSON.stringify(ids)) as Row[], (row) => ({
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
    // A sync under way is stopped: its transaction never commits.
    this.#stop.abort(new Error('the index was closed'));
    this.#building?.kill('SIGKILL');
    this.#reader.close();
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
    this.#pageFrequencies.clear();
    this.#beginnings.clear();
    this.#documents = this.#reader.prepare('SELECT count(*) FROM documents WHERE skipped IS NULL').pluck().get() as number;
    this.#passages = this.#reader.prepare('SELECT count(*) FROM passages').pluck().get() as number;
    const totals = new Map((this.#reader.prepare('SELECT field, total FROM field_lengths').all() as Row[]).map((row) => [row.field as string, row.total as number]));
    for (const field of FIELDS) this.#averages[field] = this.#passages ? (totals.get(field) ?? 0) / this.#passages : 0;
  }
}

/** An error of the build process, as it was thrown there (a KnowledgeBaseError stays one). */
function rebuiltError({ name, message, code }: { name: string; message: string; code?: string }): Error {
  const error = name === 'KnowledgeBaseError' ? new KnowledgeBaseError(message) : new Error(message);
  if (code !== undefined) Object.assign(error, { code });
  return error;
}
