/** How documents without a `url` in their front-matter get one. */
export interface DocumentUrlSettings {
  /** Address the folder is published at; a document's URL is this plus its path. */
  baseUrl?: string;
  /**
   * What replaces a document's `.md` / `.mdx` extension in its URL: `''` drops it (default, as
   * Docusaurus, VitePress and MkDocs publish), `'.html'` maps it, `'/'` gives a folder-style URL.
   */
  urlExtension?: string;
}

/** A URL's scheme (`https:`, `mailto:`, `javascript:`): a URL with one is absolute, one without is relative. */
export const URL_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** A base URL as the folder it names, ending in `/`, so a relative path resolves under it. */
export function baseFolder(baseUrl: string): string {
  return baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
}

const INDEX_NAME = /^(?:index|readme)$/i;
const MARKDOWN_EXTENSION = /\.mdx?$/i;
const HTML_EXTENSION = /\.html?$/i;

/**
 * The URL a docs site publishes a file at: `baseUrl` plus the file's path, each part
 * percent-encoded, and `index.md` / `README.md` / `index.html` standing for their folder
 * (`guide/README.md` and `guide/index.html` are `guide/`). A Markdown file's extension is
 * dropped or mapped (`urlExtension`); a built HTML file is published at its own name.
 * Undefined without a base URL.
 */
export function documentUrl(path: string, { baseUrl, urlExtension = '' }: DocumentUrlSettings): string | undefined {
  if (!baseUrl) return undefined;
  const base = baseFolder(baseUrl);
  const parts = path.split('/');
  const file = parts.pop()!;
  const html = HTML_EXTENSION.test(file);
  const name = file.replace(html ? HTML_EXTENSION : MARKDOWN_EXTENSION, '');
  const folder = parts.map(encodeURIComponent).join('/');
  const published = html ? encodeURIComponent(file) : `${encodeURIComponent(name)}${urlExtension}`;
  const relative = INDEX_NAME.test(name) ? (folder ? `${folder}/` : '') : `${folder ? `${folder}/` : ''}${published}`;
  return new URL(relative, base).href;
}

/** A title from a file name: `getting-started.md` (or `.html`) is "getting started"; an index or README takes its folder's name. */
export function titleFromPath(path: string, rootName: string): string {
  const parts = path.split('/');
  let name = parts.pop()!.replace(MARKDOWN_EXTENSION, '').replace(HTML_EXTENSION, '');
  if (INDEX_NAME.test(name)) name = parts.pop() ?? rootName;
  return name.replace(/[-_]+/g, ' ').trim() || name;
}

/** Checks a base URL and URL extension given as settings; the message names the setting. */
export function checkUrlSettings(settings: DocumentUrlSettings, names: { baseUrl: string; urlExtension: string }): string | undefined {
  const { baseUrl } = settings;
  if (baseUrl !== undefined && !(URL.canParse(baseUrl) && /^https?:$/.test(new URL(baseUrl).protocol))) {
    return `${names.baseUrl} must be an http(s) URL, not "${baseUrl}"`;
  }
  const ext = settings.urlExtension;
  if (ext !== undefined && ext !== '' && ext !== '/' && !/^\.[\w.-]+$/.test(ext)) {
    return `${names.urlExtension} must be empty, "/" or an extension such as ".html", not "${ext}"`;
  }
  return undefined;
}
