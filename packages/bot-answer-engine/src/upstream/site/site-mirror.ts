import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** What the crawl remembers of a page it saved: where, and how to ask whether it changed. */
export interface MirroredPage {
  /** The file, relative to the mirror folder. */
  file: string;
  etag?: string;
  lastModified?: string;
}

const MANIFEST = '.pages.json';
const HTML_NAME = /\.html?$/i;

/**
 * A site's pages as files in a folder, which the knowledge-base reader indexes like any built
 * HTML folder; `.pages.json` beside them (hidden from the reader) keeps each page's validators
 * (ETag, Last-Modified) for conditional requests. Files are replaced whole (written aside,
 * then renamed), so an index sync never reads half a page.
 */
export class SiteMirror {
  readonly dir: string;
  readonly pages: Map<string, MirroredPage>;

  private constructor(dir: string, pages: Map<string, MirroredPage>) {
    this.dir = dir;
    this.pages = pages;
  }

  /** Opens the mirror in `dir` (made when missing); a manifest that cannot be read starts empty. */
  static async open(dir: string): Promise<SiteMirror> {
    await mkdir(dir, { recursive: true });
    let pages = new Map<string, MirroredPage>();
    try {
      const saved = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Record<string, MirroredPage>;
      pages = new Map(Object.entries(saved).filter(([, page]) => typeof page?.file === 'string' && !page.file.split('/').includes('..')));
    } catch {
      // No manifest yet, or a damaged one: the next crawl fetches every page whole.
    }
    return new SiteMirror(dir, pages);
  }

  /** Saves a page's HTML (text, or UTF-8 bytes in parts written one after the other) under the file its URL maps to, with its validators. */
  async save(url: string, file: string, html: string | readonly Uint8Array[], validators: { etag?: string; lastModified?: string }): Promise<void> {
    const path = join(this.dir, file);
    await mkdir(dirname(path), { recursive: true });
    const temporary = join(dirname(path), `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
    await writeFile(temporary, html);
    await rename(temporary, path);
    const previous = this.pages.get(url);
    if (previous && previous.file !== file) await this.#removeFile(previous.file);
    this.pages.set(url, { file, ...validators });
  }

  /** The kept copy of a page, if any. */
  async read(url: string): Promise<string | undefined> {
    const page = this.pages.get(url);
    return page ? readFile(join(this.dir, page.file), 'utf8').catch(() => undefined) : undefined;
  }

  /** Forgets a page and removes its file. */
  async remove(url: string): Promise<void> {
    const page = this.pages.get(url);
    if (!page) return;
    this.pages.delete(url);
    await this.#removeFile(page.file);
  }

  /** Writes the manifest (aside, then renamed). */
  async persist(): Promise<void> {
    const temporary = join(this.dir, `${MANIFEST}.${process.pid}.tmp`);
    // The JSON of an object of the pages, written entry by entry: a crawl writes it every few pages, and an object of a thousand keys built each time was 7% of what it allocated.
    const entries: string[] = [];
    for (const [url, page] of this.pages) entries.push(`${JSON.stringify(url)}:${JSON.stringify(page)}`);
    await writeFile(temporary, `{${entries.join(',')}}`);
    await rename(temporary, join(this.dir, MANIFEST));
  }

  async #removeFile(file: string): Promise<void> {
    if ([...this.pages.values()].some((page) => page.file === file)) return;
    await rm(join(this.dir, file), { force: true });
  }
}

/**
 * The file a page of the site is kept in, relative to the mirror: its path below the crawl's
 * path, each part percent-encoded (so no part is `..` or hidden), ending in `.html`
 * (`/docs/guide/` and `/docs/guide` are `guide/index.html`).
 */
export function mirrorFile(url: URL, scopePath: string): string {
  const below = url.pathname.slice(scopePath.length);
  const parts = below.split('/').filter(Boolean).map((part) => {
    let decoded = part;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      // Kept as written.
    }
    return encodeURIComponent(decoded).replace(/^\./, '%2E');
  });
  const last = parts[parts.length - 1];
  if (last && HTML_NAME.test(last) && !below.endsWith('/')) return parts.join('/');
  return [...parts, 'index.html'].join('/');
}
