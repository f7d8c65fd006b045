/**
 * Search as you type: the shapes of `GET /v1/search` (the local Answer API) and
 * `GET /api/search` (the proxy), which are the same.
 */

/** One hit: a section of a page. */
export interface SearchResult {
  /** The page's title and the section's headings, `Page › Section`: plain text, never HTML. */
  title: string;
  /** The section's published URL (the page's, with `#anchor` when sections have anchors): what answers cite. */
  url: string;
  /** Plain text from the section (no Markdown, no HTML), around the matched words. */
  snippet: string;
  /**
   * The matched words in `snippet`, as `[start, end)` offsets in UTF-16 code units (what
   * JavaScript's `String.prototype.slice` takes), in order and not overlapping.
   */
  highlights: Array<[number, number]>;
}

/** The body of a successful search. */
export interface SearchResponse {
  results: SearchResult[];
}

/** Hits given when the request names no `limit`. */
export const DEFAULT_SEARCH_LIMIT = 6;
/** Most hits one search may ask for. */
export const MAX_SEARCH_LIMIT = 20;
/** Longest search text, in characters (Unicode code points). */
export const MAX_SEARCH_CHARS = 200;
