import { statSync } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { parse as parseYaml } from 'yaml';
import type { Source } from '../../../../bot-answer/src/protocol/types.js';
import { baseFolder, documentUrl, titleFromPath, URL_SCHEME, type DocumentUrlSettings } from './document-url.js';
import { linkDefinitions, type LinkDefinitions } from './clean-markdown.js';
import { fencedCode, HEADING, HeadingSlugger, headingText, mapOutsideFences, plainHeading } from './markdown-text.js';
import { mdxToMarkdown } from './mdx.js';
import { withoutCodeNotation } from './code-notation.js';
import { withoutBlockComments } from './html-comments.js';
import { withoutTemplateTags } from './template-tags.js';
import { decodeCharacterReferences } from './character-references.js';
import { withDefinitionLists } from './definition-lists.js';
import { withPlainCodeInfo } from './code-info.js';
import { withTagLikeText } from './tag-like-text.js';
import { withoutNavigationRows } from './navigation-rows.js';
import { withOverflowingRowsJoined } from './overflowing-rows.js';
import { withDelimiterTabsSpaced } from './table-delimiters.js';
import { withRowDescriptions } from './row-descriptions.js';
import { withFrontMatterValues } from './frontmatter-values.js';
import { readHtmlPage } from './html-page.js';
import { isNavigationFile } from './navigation-file.js';

/** A knowledge-base document: its Source fields (from the front-matter or the file) and its Markdown body. */
export interface KbDocument {
  /** Position in the knowledge base (documents are sorted by path, so this is stable). */
  index: number;
  /** Path relative to the knowledge-base folder, `/`-separated. */
  path: string;
  source: Omit<Source, 'snippet'> & { url: string; title: string };
  /** The whole Markdown body: present when the folder was read whole (`loadKnowledgeBase`), not for documents served from the on-disk index, which keeps passages only. */
  body?: string;
  /** Whether its passages link to their section (`url#slug`). */
  anchors: boolean;
  /** Its link reference definitions (`[label]: url`), which pages often keep at their end: a passage's reference links need them. */
  links?: LinkDefinitions;
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

/**
 * The version of what a file is read into (its body, sections, Source fields). Changing that
 * text (the front matter's description added, say) changes it, so indexes made before, which
 * keep each file's passages as read, are rebuilt. 1: the front matter's `description` is the lead
 * paragraph; 2: Shiki's notation comments (`// [!code highlight]`) taken out of code; 3: the
 * title is the first level-1 heading, not a banner above it; 4: comments opening a block left out;
 * 5: character references in prose (`&mdash;`) read as their characters; 6: MUI's and
 * Docusaurus' highlight comments taken out of code, definition lists read as lists, components'
 * labels (`<Accordion title="...">`) read as text, a line break written as a reference (`&#xA;`) read
 * as a space, MDX's indented text (no indented code in MDX) read as text; 7: TypeTable keys written
 * as quoted paths (`'options.fallbackToDM'`) read as rows, a card's `description` read under its
 * title, code blocks' info strings cut to the language and the file name the site shows; 8: a page
 * whose headings are all level 1 titled by its file name, template tags that write nothing
 * (`<% if (isHtml) { %>`) taken out of prose; 9: a tag-like name that is no HTML (`Array<Session>`,
 * `App_Resources/<platform>`) escaped in prose, read as text; a description the body says with escapes
 * (`\<style>`) not added again, a reference escaped for Markdown (`\&#39;`) read as the character it escapes,
 * navigation rows (`[[Back to top]](#) [[Back to README]](../README.md)`) left out; 10: an
 * admonition's title written as a directive attribute (`:::tip{title="Hot tip"}`) read as its
 * label, an admonition in a list item kept in the item, an MDX expression over several lines
 * (`{components.map((comp) => (` ... `))}`) left out of prose, an author written as a name read
 * (the page was left out), a front-matter field's interpolation (`{{ $frontmatter.author }}`)
 * written as its value; 11: a navigation button alone on its line (`[[Back to README]](../README.md)`)
 * left out, a section opening with an indented code block keeping its first line's indentation, a
 * front matter opened by an indented `---` read, a table of methods' description (`| [**cancelPayout()**](Payout.md#cancelpayout-function)
 * | ... | API to cancel requested payouts |`) read as the first line of the section it links to; 12: a
 * name escaped on its left only (`\<OUTPUT_FILE_PATH>`, `&lt;Name&gt;`) written escaped on both sides;
 * 13: a table row overflowing its header by the bare pipes of a bracketed span (`[**'open' | 'closed'**]`)
 * read with them escaped, its description in its cell; a page whose text opens above a first
 * heading (no level 1) naming something else than its file (`## Properties`) titled by its file name;
 * 14: an underscore inside a heading's word (`get_run_details`) kept in its title, text and anchor;
 * a site's navigation file (`_sidebar.md`: a partial holding only a list of links) skipped; a page
 * with no text under its title (a title alone, headings alone, docsify's `index.html` shell) skipped;
 * a tab in a table's delimiter row (`|---\t|`) read as a space, so marked shows the table; a component
 * tag inside a line (`<Badge text="Since 3.3"/>` in a `.md` heading) dropped from the indexed text;
 * 15: a component attribute written `{"..."}` read as its text; a field tag's own field before the
 * data it holds; a row's `note` read as its text (file trees, data models); a tag named in a
 * component's title shown as text; a grid written as data (`columns`, `rows`) read as a table;
 * 16: a line opening with three backticks whose info string holds a backtick read as prose (a code
 * span), not as a fence.
 */
export const READER_VERSION = 17;

/** As many level-1 headings as this, and no other level: the page's sections, none its title. */
const SECTIONS_NOT_TITLE = 2;
// Its opening line may be indented (A-Frame's `\t---`): a slip, the block is the page's front matter all the same.
const FRONT_MATTER = /^[ \t]*---[ \t]*\n([\s\S]*?)\n?---[ \t]*(?:\n|$)/;
const DOCUMENT_FILE = /\.(?:mdx?|html?)$/i;
/** A built HTML page, by its file name. */
export const HTML_FILE = /\.html?$/i;
const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** Longest the listing runs between two turns of the event loop. */
const STAT_SLICE_MS = 5;

/** A Markdown file of a knowledge-base folder, as listed (before it is read). */
export interface DocumentFile {
  /** Absolute path. */
  file: string;
  /** Path relative to the folder, `/`-separated. */
  path: string;
  /** Why it cannot be looked at (a dangling link, a folder that cannot be read); otherwise its size and times. */
  error?: string;
  size?: number;
  mtimeMs?: number;
  ctimeMs?: number;
  ino?: number;
}

/** One document read from its file: its Source fields, body and sections (each with the URL its sources link to). */
export interface ReadDocument {
  source: KbDocument['source'];
  body: string;
  anchors: boolean;
  links: LinkDefinitions;
  sections: Array<{ headings: string[]; markdown: string; url: string }>;
}

/**
 * Lists every document (Markdown `.md`, `.mdx`; built HTML `.html`, `.htm`) file under `dir` (recursively, sorted by path; hidden
 * folders and `node_modules` left out, symbolic links followed) with its size and modification
 * time, which say whether it changed since it was last read. The folder itself must be
 * readable and hold at least one such file.
 */
export async function listKnowledgeBase(dir: string): Promise<DocumentFile[]> {
  let files: Array<{ file: string; path: string; error?: string }>;
  try {
    files = await listDocumentFiles(dir, '', new Set([await realpathOf(dir)]));
  } catch (error) {
    throw new KnowledgeBaseError(`Cannot read the knowledge base folder ${dir}: ${(error as Error).message}`);
  }
  if (files.length === 0) throw new KnowledgeBaseError(`The knowledge base folder ${dir} holds no documents (.md, .mdx, .html, .htm)`);
  // One stat at a time, synchronously (a large folder's promises cost several times the CPU),
  // letting other work in every few milliseconds, so a slow disk does not hold it long.
  const listed: DocumentFile[] = [];
  let since = performance.now();
  for (const { file, path, error } of files) {
    if (error) {
      listed.push({ file, path, error });
      continue;
    }
    try {
      const info = statSync(file);
      listed.push({ file, path, size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino });
    } catch (caught) {
      listed.push({ file, path, error: `cannot be read: ${(caught as NodeJS.ErrnoException).code ?? (caught as Error).message}` });
    }
    if (performance.now() - since > STAT_SLICE_MS) {
      await setImmediate();
      since = performance.now();
    }
  }
  return listed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Reads one listed file into a document: UTF-8 text (a file holding NUL bytes is binary, not
 * text), optional front-matter, sections. Throws a KnowledgeBaseError saying why it cannot be
 * used (`skippedFile` turns it into the reason logged): among them a site's navigation file
 * (`isNavigationFile`) and a file with no text under its title; `settings.appName` should already be resolved.
 */
export async function readDocumentFile(listed: DocumentFile, settings: KnowledgeBaseSettings): Promise<ReadDocument> {
  if (listed.error) throw new KnowledgeBaseError(listed.error);
  let bytes: Buffer;
  try {
    bytes = await readFile(listed.file);
  } catch (error) {
    throw new KnowledgeBaseError(`cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (bytes.includes(0)) throw new KnowledgeBaseError('a binary file, not text');
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new KnowledgeBaseError('not valid UTF-8 text');
  }
  const { source, body, anchors, ids }: ReturnType<typeof parseDocument> & { ids?: ReadonlySet<string> } = HTML_FILE.test(listed.path)
    ? parseHtmlDocument(text, listed.path, settings, listed.mtimeMs)
    : parseDocument(text, listed.path, settings, listed.mtimeMs);
  if (!ids && isNavigationFile(listed.path, body)) throw new KnowledgeBaseError("a site's navigation (a list of links the site builds into its pages), not a page");
  const sections = splitSections(body, source.title).map(({ anchor, headings, markdown }) => ({
    headings,
    markdown,
    // A URL that names a fragment already keeps it: it says where the page is to open. A built
    // page's sections link only to the ids it has.
    url: anchors && anchor && !source.url.includes('#') && (!ids || ids.has(anchor)) ? `${source.url}#${anchor}` : source.url,
  }));
  // A title alone (a page not written yet), headings alone, or the shell a site renders its pages
  // into in the browser (docsify's `index.html`): nothing to answer from, and no page to count.
  if (sections.length === 0) throw new KnowledgeBaseError('holds no text under its title: nothing to answer from');
  return { source, body, anchors, links: linkDefinitions(body), sections };
}

/** The settings a folder is read with, defaults filled in (the app name is the folder's name). */
export function resolveSettings(dir: string, settings: KnowledgeBaseSettings = {}): KnowledgeBaseSettings {
  return { ...settings, appName: settings.appName ?? basename(dir) };
}

/**
 * Reads every document (`.md`, `.mdx`, `.html`, `.htm`) file under `dir` (recursively, sorted by path; hidden
 * folders and `node_modules` left out) and splits them into passages, all in memory. A file
 * that cannot be read or used is skipped and listed in `skipped`; the folder itself must be
 * readable and hold at least one document. The server reads folders into its on-disk index
 * file by file instead; this whole-folder form serves tests and tools.
 */
export async function loadKnowledgeBase(dir: string, settings: KnowledgeBaseSettings = {}): Promise<KnowledgeBase> {
  const files = await listKnowledgeBase(dir);
  const resolved = resolveSettings(dir, settings);
  const documents: KbDocument[] = [];
  const passages: Passage[] = [];
  const skipped: SkippedFile[] = [];
  for (const listed of files) {
    try {
      const { source, body, anchors, links, sections } = await readDocumentFile(listed, resolved);
      const document: KbDocument = { index: documents.length, path: listed.path, source, body, anchors, links };
      documents.push(document);
      for (const section of sections) passages.push({ index: passages.length, document, ...section });
    } catch (caught) {
      skipped.push(skippedFile(listed.path, caught));
    }
  }
  return { dir, documents, passages, skipped };
}

/** Why a file was skipped, from what reading it threw. */
export function skippedFile(path: string, caught: unknown): SkippedFile {
  if (!(caught instanceof KnowledgeBaseError)) throw caught;
  return { path, reason: caught.message.replace(`${path}: `, ''), ...(caught instanceof NoUrlError ? { noUrl: true } : {}) };
}

/** A document that has no URL and no base URL to form one from. */
class NoUrlError extends KnowledgeBaseError {}

/**
 * A front-matter `url` as the page is cited: an http(s) URL as written; one without a scheme
 * (`/tools`, `guide/setup`, as Hugo's `url` and many generators' fields are written) resolved
 * against the base URL as a link on the site would be, `/tools` at the site's root.
 */
function frontMatterUrl(url: string, path: string, settings: KnowledgeBaseSettings): string {
  const field = `front-matter field "url"`;
  if (URL_SCHEME.test(url)) {
    if (!/^https?:\/\//i.test(url)) throw new KnowledgeBaseError(`${path}: ${field} must be an http(s) URL`);
    return url;
  }
  if (!settings.baseUrl) throw noUrl(path, settings, `write its ${field} whole: "${url}" is relative`);
  const base = baseFolder(settings.baseUrl);
  const resolved = URL.parse(url, base);
  if (!resolved || !/^https?:$/.test(resolved.protocol)) throw new KnowledgeBaseError(`${path}: ${field} "${url}" is no URL on ${base}`);
  return resolved.href;
}

function noUrl(path: string, settings: KnowledgeBaseSettings, otherwise: string): NoUrlError {
  return new NoUrlError(`${path}: no URL to cite it by: set ${settings.baseUrlSetting ?? 'ANSWER_KB_BASE_URL'} to the address the folder is published at, or ${otherwise}`);
}

/**
 * Parses one built HTML page (see `readHtmlPage`): its main content as the Markdown body, its
 * title from the `<h1>` or `<title>`, its URL from `<link rel="canonical">`, else
 * `settings.baseUrl` and the path (`guide/index.html` is `guide/`). Its headings' ids are the
 * page's own anchors (`ids`), so sources link to sections that have one, unless
 * `settings.anchors` is false. A page
 * that only redirects elsewhere (`<meta http-equiv="refresh">`) is not a document.
 */
export function parseHtmlDocument(
  html: string,
  path: string,
  settings: KnowledgeBaseSettings = {},
  mtimeMs?: number,
): { source: KbDocument['source']; body: string; anchors: boolean; ids: ReadonlySet<string> } {
  const formed = documentUrl(path, settings);
  const page = readHtmlPage(html, formed);
  if (!page.markdown && /<meta[^>]+http-equiv\s*=\s*["']?refresh/i.test(html)) throw new KnowledgeBaseError('a page that only redirects');
  const url = page.canonical ?? formed;
  if (url === undefined) throw noUrl(path, settings, 'give the page a <link rel="canonical">');
  const source: KbDocument['source'] = { title: page.title ?? titleFromPath(path, settings.appName ?? 'index'), url };
  if (settings.appName) source.app_name = settings.appName;
  if (mtimeMs !== undefined) source.modified_time = Math.floor(mtimeMs / 1000);
  return { source, body: page.markdown, anchors: settings.anchors === 'auto' || settings.anchors === undefined ? true : settings.anchors, ids: page.ids };
}

/**
 * Parses one document: optional YAML front-matter holding Source fields, then the Markdown body
 * (template tags that write nothing left out; MDX made plain for `.mdx` files; definition lists as lists; HTML comments opening a block and
 * highlighters' notation comments left out; character references in prose decoded; navigation rows of links back to the top or an index left out; a table of methods' descriptions read in the sections they link to; the front matter's `description` as its lead paragraph;
 * a tag-like name that is no HTML, `Array<Session>`, escaped as text; a table row's bare pipes in a bracketed span,
 * `[**'open' | 'closed'**]`, escaped where the row has one cell too many for each; a tab in a table's delimiter row read as a space). Fields the front-matter
 * leaves out come from the file: the title from the first level-1 heading, else the first
 * heading, else the file name (also when every heading is level 1: the page's sections), the URL from `settings.baseUrl` and the
 * path, the modified time from `mtimeMs`, the app name from `settings.appName`.
 */
export function parseDocument(
  text: string,
  path: string,
  settings: KnowledgeBaseSettings = {},
  mtimeMs?: number,
): { source: KbDocument['source']; body: string; anchors: boolean } {
  // Template tags first: a front matter may be wrapped in one (`<% if (isJekyll) { %>---`).
  const normalised = withoutTemplateTags(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'));
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
  let body = withFrontMatterValues((match ? normalised.slice(match[0].length) : normalised).trim(), meta as Record<string, unknown>);
  if (/\.mdx$/i.test(path)) body = mdxToMarkdown(body).trim();
  body = withoutNavigationRows(withOverflowingRowsJoined(withDelimiterTabsSpaced(decodeCharacterReferences(withPlainCodeInfo(withoutCodeNotation(withoutBlockComments(withDefinitionLists(body)))))))).trim();
  body = withRowDescriptions(body, path);
  const { source, formedUrl } = readSource(meta as Record<string, unknown>, path, body, settings);
  body = withTagLikeText(withDescription(body, (meta as Record<string, unknown>).description, source.title));
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
  else url = frontMatterUrl(url, path, settings);
  if (url === undefined) throw noUrl(path, settings, 'give the file a "url" in its front-matter');
  const named = titleFromPath(path, settings.appName ?? 'index');
  const title = field('title', meta.title) ?? firstHeading(body, named) ?? named;
  const source: KbDocument['source'] = { title, url };
  const appName = field('app_name', meta.app_name) ?? settings.appName;
  if (appName) source.app_name = appName;
  // Many sites write the author as a name (`author: Eron Powell`: Hugo, Jekyll, VitePress
  // blogs): that is the author's name, not a reason to leave the page out.
  if (typeof meta.author === 'string') {
    if (meta.author.trim() !== '') source.author = { name: meta.author.trim() };
  } else if (meta.author !== undefined && meta.author !== null) {
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

/**
 * The body with the front matter's `description` as its lead paragraph, under the title heading
 * if the body opens with one, else first. Docs sites (Docusaurus, VitePress, Starlight,
 * Mintlify, Fumadocs, Hugo, npm's) write there what the page is for in a sentence, often in words
 * the page itself never uses again ("Clean install a project" for `npm ci`), and most show it
 * under the title; read without it, the page loses its summary.
 */
function withDescription(body: string, description: unknown, title: string): string {
  if (typeof description !== 'string') return body;
  const text = description.replace(/\s+/g, ' ').trim();
  // A page whose text says it already (some sites copy the lead sentence up) needs it once.
  // Compared as read: the body may escape what the description writes plain (`\<style>`).
  if (!text || body.replace(/\\([!-/:-@[-`{-~])/g, '$1').replace(/\s+/g, ' ').includes(text)) return body;
  const firstLine = body.split('\n', 1)[0]!;
  const heading = HEADING.exec(firstLine);
  if (heading && plainHeading(headingText(heading[2]!).text).toLowerCase() === title.toLowerCase()) {
    return `${firstLine}\n\n${text}\n\n${body.slice(firstLine.length).trimStart()}`.trimEnd();
  }
  return `${text}\n\n${body}`.trimEnd();
}

/**
 * The page's title heading as a reader sees it: the body's first level-1 heading (outside code
 * fences), else its first heading. A banner or note a generator puts above the title (`### [Read
 * this on the main docs site](...)` on every page) is not what the page is called. A page whose
 * headings are all level 1, two or more of them, has no title heading: its headings are its
 * sections, as in a man page written in Markdown (`# NAME`, `# SYNOPSIS`, `# DESCRIPTION`) or an
 * oclif command's message file (`# summary`, `# description`, `# examples`, `# flags.wait.summary`):
 * the first is what the page's first section is, not what the page is called, so the file name
 * titles it. So does it a page with no level-1 heading whose text opens before its first heading,
 * when that heading shares no word with the file's name (`useSelectOptions.md`: a paragraph on
 * the hook, then `## Properties`): it is the first section's.
 */
function firstHeading(body: string, named: string): string | undefined {
  let first: string | undefined;
  let top: string | undefined;
  let levelOnes = 0;
  let deeper = false;
  let textFirst = false;
  mapOutsideFences(body, (lines) => {
    for (const line of lines.split('\n')) {
      const heading = HEADING.exec(line);
      if (!heading) {
        // A banner in HTML (`<h1 align="center">Fastify</h1>` above each of Fastify's pages) or a
        // directive's fence (`::: slot pause`) is no text of the page's.
        if (first === undefined && line.trim() !== '' && !/^[ \t]*(?:<|:::)/.test(line)) textFirst = true;
        continue;
      }
      const text = plainHeading(headingText(heading[2]!).text);
      if (!text) continue;
      first ??= text;
      if (heading[1]!.length === 1) {
        top ??= text;
        levelOnes++;
      } else deeper = true;
    }
    return lines;
  });
  if (levelOnes >= SECTIONS_NOT_TITLE && !deeper) return undefined;
  if (top === undefined && first !== undefined && textFirst && !sharesWord(first, named)) return undefined;
  return top ?? first;
}

/** Whether two names share a word, case and camelCase aside (`useSelectOptions`, "Select options"). */
function sharesWord(a: string, b: string): boolean {
  const words = (text: string): string[] => text.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const of = new Set(words(b));
  return words(a).some((word) => of.has(word));
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

// A line of an indented code block: four columns of indentation or more.
const INDENTED_CODE = /^(?: {4}| {0,3}\t)/;
// MakeCode's boxes are written as headings: `### ~ hint` (or `## ~avatar avatar`) opens one, a
// tilde alone (`### ~`) closes it. The site shows a hint or a speech bubble inside the step it is
// in, with no heading: no other docs' heading opens with a tilde.
const BOX_FENCE = /^~/;
// A MakeCode tutorial's step is titled in braces, its flags after the name (`{Intro @unplugged}`):
// the site shows the name alone.
const STEP_TITLE = /^\{([^{}#][^{}]*?)(?:[ \t]+@[A-Za-z]+)*\}$/;

/**
 * Splits a Markdown body at its headings (ignoring `#` lines inside code fences). Text before
 * the first heading, and under the document's own title heading, gets an empty heading trail.
 * Each section has the anchor of its heading (github-slugger, counted over every heading of the
 * page, so repeated headings get `-1`, `-2`), except those with an empty trail. A MakeCode box's
 * fence written as a heading (`### ~ hint` ... `### ~`) is no heading: the box's text stays in
 * its section; a step's title in braces (`## {Step 1 @fullscreen}`) is read as its name.
 */
export function splitSections(body: string, title: string): Array<{ headings: string[]; markdown: string; anchor?: string }> {
  const sections: Array<{ headings: string[]; markdown: string; anchor?: string }> = [];
  const trail: Array<{ level: number; text: string; anchor: string }> = [];
  const slugger = new HeadingSlugger();
  let lines: string[] = [];
  const flush = (): void => {
    // A section opening with an indented code block keeps its first line's indentation: trimmed,
    // that line would turn into text and the rest of the block into what follows it.
    const text = lines.join('\n');
    const opensWithCode = INDENTED_CODE.test(lines.find((line) => line.trim() !== '') ?? '');
    const markdown = opensWithCode ? text.replace(/^(?:[ \t]*\n)+/, '').trimEnd() : text.trim();
    const last = trail[trail.length - 1];
    if (markdown) sections.push({ headings: trail.map((h) => h.text), markdown, ...(last ? { anchor: last.anchor } : {}) });
    lines = [];
  };
  const isCode = fencedCode();
  for (const line of body.split('\n')) {
    const heading = isCode(line) ? null : HEADING.exec(line);
    if (!heading) {
      lines.push(line);
      continue;
    }
    if (BOX_FENCE.test(heading[2]!)) {
      // The box's text stays in the section around it, a paragraph of its own.
      lines.push('');
      continue;
    }
    flush();
    const level = heading[1]!.length;
    const anchor = slugger.slug(heading[2]!);
    const written = headingText(heading[2]!).text;
    const text = STEP_TITLE.exec(written)?.[1]!.trim() || written;
    while (trail.length && trail[trail.length - 1]!.level >= level) trail.pop();
    // The document's own title heading adds nothing to the trail: the title is shown anyway.
    if (!(trail.length === 0 && plainHeading(text).toLowerCase() === title.toLowerCase())) trail.push({ level, text, anchor });
  }
  flush();
  return sections;
}

/**
 * Every document file (`.md`, `.mdx`, `.html`, `.htm`) under `dir`, following symbolic links, with its path from the
 * folder read (`prefix`, `/`-separated); hidden entries and `node_modules` are left out. An
 * entry that cannot be looked at is listed with its error.
 */
async function listDocumentFiles(dir: string, prefix: string, seen: Set<string>): Promise<Array<{ file: string; path: string; error?: string }>> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry): Promise<Array<{ file: string; path: string; error?: string }>> => {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') return [];
      const file = join(dir, entry.name);
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const target = await stat(file);
          isDirectory = target.isDirectory();
          isFile = target.isFile();
        } catch (error) {
          return DOCUMENT_FILE.test(entry.name) ? [{ file, path, error: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }] : [];
        }
      }
      if (isDirectory) {
        // A link back up the tree would list the same files forever.
        const real = await realpathOf(file);
        if (seen.has(real)) return [];
        seen.add(real);
        try {
          return await listDocumentFiles(file, path, seen);
        } catch (error) {
          return [{ file, path, error: `folder cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }];
        }
      }
      return isFile && DOCUMENT_FILE.test(entry.name) ? [{ file, path }] : [];
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
