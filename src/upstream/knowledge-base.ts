import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Source } from '../protocol/types.js';

/** A knowledge-base document: its Source fields (from the front-matter) and its Markdown body. */
export interface KbDocument {
  /** Position in the knowledge base (documents are sorted by path, so this is stable). */
  index: number;
  /** Path relative to the knowledge-base folder, `/`-separated. */
  path: string;
  source: Omit<Source, 'snippet'> & { url: string; title: string };
  body: string;
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
}

/** A loaded knowledge base. */
export interface KnowledgeBase {
  dir: string;
  documents: KbDocument[];
  passages: Passage[];
}

/** A document that cannot be read as a knowledge-base document; the message names the file and the field. */
export class KnowledgeBaseError extends Error {
  override name = 'KnowledgeBaseError';
}

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/;
const HEADING = /^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;

/** Reads every `*.md` file under `dir` except READMEs (recursively, sorted by path) and splits them into passages. */
export async function loadKnowledgeBase(dir: string): Promise<KnowledgeBase> {
  let files: string[];
  try {
    files = (await listMarkdownFiles(dir)).sort();
  } catch (error) {
    throw new KnowledgeBaseError(`Cannot read the knowledge base folder ${dir}: ${(error as Error).message}`);
  }
  if (files.length === 0) throw new KnowledgeBaseError(`The knowledge base folder ${dir} holds no Markdown (.md) documents`);
  const documents: KbDocument[] = [];
  const passages: Passage[] = [];
  for (const file of files) {
    const path = relative(dir, file).split('\\').join('/');
    const { source, body } = parseDocument(await readFile(file, 'utf8'), path);
    const document: KbDocument = { index: documents.length, path, source, body };
    documents.push(document);
    for (const section of splitSections(body, source.title)) {
      passages.push({ index: passages.length, document, ...section });
    }
  }
  return { dir, documents, passages };
}

/** Parses one document: YAML front-matter holding the Source fields, then the Markdown body. */
export function parseDocument(text: string, path: string): { source: KbDocument['source']; body: string } {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const match = FRONT_MATTER.exec(normalised);
  if (!match) throw new KnowledgeBaseError(`${path}: missing YAML front-matter (a block between --- lines at the top)`);
  let meta: unknown;
  try {
    meta = parseYaml(match[1]!);
  } catch (error) {
    throw new KnowledgeBaseError(`${path}: front-matter is not valid YAML: ${(error as Error).message}`);
  }
  if (!isRecord(meta)) throw new KnowledgeBaseError(`${path}: front-matter must be a mapping of Source fields`);
  const body = normalised.slice(match[0].length).trim();
  return { source: readSource(meta, path), body };
}

function readSource(meta: Record<string, unknown>, path: string): KbDocument['source'] {
  const field = (name: string, value: unknown, required = false): string | undefined => {
    if (value === undefined || value === null) {
      if (required) throw new KnowledgeBaseError(`${path}: front-matter field "${name}" is required`);
      return undefined;
    }
    if (typeof value !== 'string' || value.trim() === '') {
      throw new KnowledgeBaseError(`${path}: front-matter field "${name}" must be a non-empty string`);
    }
    return value.trim();
  };
  const url = field('url', meta.url, true)!;
  if (!/^https?:\/\//i.test(url)) throw new KnowledgeBaseError(`${path}: front-matter field "url" must be an http(s) URL`);
  const source: KbDocument['source'] = { title: field('title', meta.title, true)!, url };
  const appName = field('app_name', meta.app_name);
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
  return source;
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
 */
export function splitSections(body: string, title: string): Array<{ headings: string[]; markdown: string }> {
  const sections: Array<{ headings: string[]; markdown: string }> = [];
  const trail: Array<{ level: number; text: string }> = [];
  let lines: string[] = [];
  let fence: string | undefined;
  const flush = (): void => {
    const markdown = lines.join('\n').trim();
    if (markdown) sections.push({ headings: trail.map((h) => h.text), markdown });
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
    const text = heading[2]!.trim();
    while (trail.length && trail[trail.length - 1]!.level >= level) trail.pop();
    // The document's own title heading adds nothing to the trail: the title is shown anyway.
    if (!(trail.length === 0 && text.toLowerCase() === title.toLowerCase())) trail.push({ level, text });
  }
  flush();
  return sections;
}

async function listMarkdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return listMarkdownFiles(path);
      // A README describes the folder; it is not a document.
      const name = entry.name.toLowerCase();
      return entry.isFile() && name.endsWith('.md') && name !== 'readme.md' ? [path] : [];
    }),
  );
  return nested.flat();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
