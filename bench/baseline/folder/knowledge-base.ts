import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Source } from '../../../packages/bot-answer/src/protocol/types.js';
import { documentUrl, titleFromPath, type DocumentUrlSettings } from './document-url.js';
import { FENCE, HEADING, HeadingSlugger, headingText, mapOutsideFences, plainHeading } from './markdown-text.js';
import { mdxToMarkdown } from './mdx.js';

/** A knowledge-base document: its Source fields (from the front-matter or the file) and its Markdown body. */
export interface KbDocument {
  /** Position in the knowledge base (documents are sorted by path, so this is stable). */
  index: number;
  /** Path relative to the knowledge-base folder, `/`-separated. */
  path: string;
  source: Omit<Source, 'snippet'> & { url: string; title: string };
  body: string;
  /** Whether its passages link to their section (`url#slug`). */
  anchors: boolean;
}

/** One section of a document: the text under one heading, up to the next heading. */
export interface Passage {
  /** Position among all passages of the knowledge base (stable, used to break ties). */
  index: number;
  document: KbDocument;
  /** The section's headings from the top, without the document title, e.g. `['Booking flights']`. */
  headings: string[];
  /** The section's Markdown, without its heading line. */
  markdown: string;
  /** Where a source for this passage links: the document's URL, plus `#` and the section's anchor when anchors are on. */
  url: string;
}

/** A file of the folder that is not served, and why. */
export interface SkippedFile {
  path: string;
  reason: string;
  /** Skipped only because no URL can be formed for it: a setting fixes it. */
  noUrl?: boolean;
}

/** A loaded knowledge base. */
export interface KnowledgeBase {
  dir: string;
  documents: KbDocument[];
  passages: Passage[];
  /** Files that could not be read or used; the others are served. */
  skipped: SkippedFile[];
}

/** How a folder used as it is (files without front-matter) is read. Every field is optional. */
export interface KnowledgeBaseSettings extends DocumentUrlSettings {
  /** `app_name` of documents that do not set one. Default: the folder's name. */
  appName?: string;
  /**
   * Whether sources link to the passage's section. `'auto'` (default): for URLs formed from
   * `baseUrl`, which are docs-site pages whose headings carry these anchors, not for URLs
   * written in front-matter, which may point anywhere (a wiki, a shared document).
   */
  anchors?: boolean | 'auto';
  /** The setting that sets `baseUrl`, named in the error when a document has no URL. Default `ANSWER_KB_BASE_URL`. */
  baseUrlSetting?: string;
}

/** A document that cannot be read as a knowledge-base document; the message names the file and the field. */
export class KnowledgeBaseError extends Error {
  override name = 'KnowledgeBaseError';
}

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n?---[ \t]*(?:\n|$)/;
const DOCUMENT_FILE = /\.mdx?$/i;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads every Markdown (`.md`, `.mdx`) file under `dir` (recursively, sorted by path; hidden
 * folders and `node_modules` left out) and splits them into passages. A file that cannot be
 * read or used is skipped and listed in `skipped`; the folder itself must be readable and hold
 * at least one document.
 */
export async function loadKnowledgeBase(dir: string, settings: KnowledgeBaseSettings = {}): Promise<KnowledgeBase> {
  let files: Array<{ file: string; error?: string }>;
  try {
    files = (await listDocumentFiles(dir, new Set([await realpathOf(dir)]))).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  } catch (error) {
    throw new KnowledgeBaseError(`Cannot read the knowledge base folder ${dir}: ${(error as Error).message}`);
  }
  if (files.length === 0) throw new KnowledgeBaseError(`The knowledge base folder ${dir} holds no Markdown (.md, .mdx) documents`);
  const resolved = { ...settings, appName: settings.appName ?? basename(dir) };
  const documents: KbDocument[] = [];
  const passages: Passage[] = [];
  const skipped: SkippedFile[] = [];
  for (const { file, error } of files) {
    const path = relative(dir, file).split('\\').join('/');
    try {
      if (error) throw new KnowledgeBaseError(error);
      const [bytes, info] = await Promise.all([readFile(file), stat(file)]);
      let text: string;
      try {
        text = UTF8.decode(bytes);
      } catch {
        throw new KnowledgeBaseError('not valid UTF-8 text');
      }
      const { source, body, anchors } = parseDocument(text, path, resolved, info.mtimeMs);
      const document: KbDocument = { index: documents.length, path, source, body, anchors };
      documents.push(document);
      for (const { anchor, ...section } of splitSections(body, source.title)) {
        // A URL that names a fragment already keeps it: it says where the page is to open.
        const url = anchors && anchor && !source.url.includes('#') ? `${source.url}#${anchor}` : source.url;
        passages.push({ index: passages.length, document, ...section, url });
      }
    } catch (caught) {
      const reason = (caught as Error).message.replace(`${path}: `, '');
      skipped.push({ path, reason, ...(caught instanceof NoUrlError ? { noUrl: true } : {}) });
    }
  }
  return { dir, documents, passages, skipped };
}

/** A document that has no URL and no base URL to form one from. */
class NoUrlError extends KnowledgeBaseError {}

/**
 * Parses one document: optional YAML front-matter holding Source fields, then the Markdown body
 * (MDX made plain for `.mdx` files). Fields the front-matter leaves out come from the file:
 * the title from the first heading or the file name, the URL from `settings.baseUrl` and the
 * path, the modified time from `mtimeMs`, the app name from `settings.appName`.
 */
export function parseDocument(
  text: string,
  path: string,
  settings: KnowledgeBaseSettings = {},
  mtimeMs?: number,
): { source: KbDocument['source']; body: string; anchors: boolean } {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const match = FRONT_MATTER.exec(normalised);
  let meta: unknown = {};
  if (match) {
    try {
      meta = parseYaml(match[1]!) ?? {};
    } catch (error) {
      throw new KnowledgeBaseError(`${path}: front-matter is not valid YAML: ${(error as Error).message}`);
    }
    if (!isRecord(meta)) throw new KnowledgeBaseError(`${path}: front-matter must be a mapping of Source fields`);
  }
  let body = (match ? normalised.slice(match[0].length) : normalised).trim();
  if (/\.mdx$/i.test(path)) body = mdxToMarkdown(body).trim();
  const { source, formedUrl } = readSource(meta as Record<string, unknown>, path, body, settings);
  if (source.modified_time === undefined && mtimeMs !== undefined) source.modified_time = Math.floor(mtimeMs / 1000);
  const anchors = settings.anchors === 'auto' || settings.anchors === undefined ? formedUrl : settings.anchors;
  return { source, body, anchors };
}

function readSource(meta: Record<string, unknown>, path: string, body: string, settings: KnowledgeBaseSettings): { source: KbDocument['source']; formedUrl: boolean } {
  const field = (name: string, value: unknown): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' || value.trim() === '') {
      throw new KnowledgeBaseError(`${path}: front-matter field "${name}" must be a non-empty string`);
    }
    return value.trim();
  };
  let url = field('url', meta.url);
  const formedUrl = url === undefined;
  if (url === undefined) url = documentUrl(path, settings);
  else if (!/^https?:\/\//i.test(url)) throw new KnowledgeBaseError(`${path}: front-matter field "url" must be an http(s) URL`);
  if (url === undefined) {
    throw new NoUrlError(
      `${path}: no URL to cite it by: set ${settings.baseUrlSetting ?? 'ANSWER_KB_BASE_URL'} to the address the folder is published at, or give the file a "url" in its front-matter`,
    );
  }
  const title = field('title', meta.title) ?? firstHeading(body) ?? titleFromPath(path, settings.appName ?? 'index');
  const source: KbDocument['source'] = { title, url };
  const appName = field('app_name', meta.app_name) ?? settings.appName;
  if (appName) source.app_name = appName;
  if (meta.author !== undefined && meta.author !== null) {
    if (!isRecord(meta.author)) throw new KnowledgeBaseError(`${path}: front-matter field "author" must be a mapping with name, email, photo`);
    const author = {
      name: field('author.name', meta.author.name),
      email: field('author.email', meta.author.email),
      photo: field('author.photo', meta.author.photo),
    };
    source.author = Object.fromEntries(Object.entries(author).filter(([, v]) => v !== undefined));
  }
  const modified = readModifiedTime(meta.modified_time, path);
  if (modified !== undefined) source.modified_time = modified;
  return { source, formedUrl };
}

/** The text of the body's first heading (outside code fences), as a reader sees it. */
function firstHeading(body: string): string | undefined {
  let found: string | undefined;
  mapOutsideFences(body, (lines) => {
    if (found === undefined) {
      for (const line of lines.split('\n')) {
        const heading = HEADING.exec(line);
        if (heading) {
          found = plainHeading(headingText(heading[2]!).text) || undefined;
          if (found) break;
        }
      }
    }
    return lines;
  });
  return found;
}

/** Unix seconds; also accepts milliseconds and ISO dates, since people write those by hand. */
function readModifiedTime(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
    return Math.floor(value > 1e11 ? value / 1000 : value);
  }
  if (typeof value === 'string' || value instanceof Date) {
    const ms = value instanceof Date ? value.getTime() : Date.parse(value);
    if (Number.isFinite(ms)) return Math.floor(ms / 1000);
  }
  throw new KnowledgeBaseError(`${path}: front-matter field "modified_time" must be Unix seconds (an integer) or an ISO date`);
}

/**
 * Splits a Markdown body at its headings (ignoring `#` lines inside code fences). Text before
 * the first heading, and under the document's own title heading, gets an empty heading trail.
 * Each section has the anchor of its heading (github-slugger, counted over every heading of the
 * page, so repeated headings get `-1`, `-2`), except those with an empty trail.
 */
export function splitSections(body: string, title: string): Array<{ headings: string[]; markdown: string; anchor?: string }> {
  const sections: Array<{ headings: string[]; markdown: string; anchor?: string }> = [];
  const trail: Array<{ level: number; text: string; anchor: string }> = [];
  const slugger = new HeadingSlugger();
  let lines: string[] = [];
  let fence: string | undefined;
  const flush = (): void => {
    const markdown = lines.join('\n').trim();
    const last = trail[trail.length - 1];
    if (markdown) sections.push({ headings: trail.map((h) => h.text), markdown, ...(last ? { anchor: last.anchor } : {}) });
    lines = [];
  };
  for (const line of body.split('\n')) {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1]!;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
    }
    const heading = fence === undefined && !fenceMatch ? HEADING.exec(line) : null;
    if (!heading) {
      lines.push(line);
      continue;
    }
    flush();
    const level = heading[1]!.length;
    const anchor = slugger.slug(heading[2]!);
    const text = headingText(heading[2]!).text;
    while (trail.length && trail[trail.length - 1]!.level >= level) trail.pop();
    // The document's own title heading adds nothing to the trail: the title is shown anyway.
    if (!(trail.length === 0 && plainHeading(text).toLowerCase() === title.toLowerCase())) trail.push({ level, text, anchor });
  }
  flush();
  return sections;
}

/**
 * Every `.md` / `.mdx` file under `dir`, following symbolic links; hidden entries and
 * `node_modules` are left out. An entry that cannot be looked at is listed with its error.
 */
async function listDocumentFiles(dir: string, seen = new Set<string>()): Promise<Array<{ file: string; error?: string }>> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry): Promise<Array<{ file: string; error?: string }>> => {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') return [];
      const file = join(dir, entry.name);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const target = await stat(file);
          isDirectory = target.isDirectory();
          isFile = target.isFile();
        } catch (error) {
          return DOCUMENT_FILE.test(entry.name) ? [{ file, error: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }] : [];
        }
      }
      if (isDirectory) {
        // A link back up the tree would list the same files forever.
        const real = await realpathOf(file);
        if (seen.has(real)) return [];
        seen.add(real);
        try {
          return await listDocumentFiles(file, seen);
        } catch (error) {
          return [{ file, error: `folder cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }];
        }
      }
      return isFile && DOCUMENT_FILE.test(entry.name) ? [{ file }] : [];
    }),
  );
  return nested.flat();
}

function realpathOf(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
