import { AnswerError, responseError, send, type RequestOptions } from './answer-client.js';
import { cap, safeUrl } from './source-format.js';

/** One page found as the visitor types, checked: an http(s) link, plain-text title and snippet, valid ranges. */
export interface SearchResult {
  title: string;
  url: string;
  /** Plain text. */
  snippet: string;
  /** The matched words: `[start, end)` UTF-16 offsets into `snippet`, in order, not overlapping. */
  highlights: [number, number][];
}

/** Hits shown (and asked for) at most. */
export const SEARCH_LIMIT = 6;
/** Characters of a snippet shown at most. */
const SNIPPET_MAX = 300;

/**
 * The search endpoint of an answer endpoint: `search` beside its last path segment, so `/api/answer` gives
 * `/api/search` (and `https://help.example.com/api/answer`, `https://help.example.com/api/search`).
 */
export const searchEndpoint = (answerEndpoint: string) => new URL('search', new URL(answerEndpoint, document.baseURI)).href;

/** `highlights` as `[start, end)` pairs of integers within `length`, in order and not overlapping; anything else is dropped. */
export function highlightRanges(highlights: unknown, length: number): [number, number][] {
  const out: [number, number][] = [];
  if (!Array.isArray(highlights)) return out;
  const pairs = highlights.filter(
    (r): r is [number, number] => Array.isArray(r) && Number.isInteger(r[0]) && Number.isInteger(r[1]) && 0 <= r[0] && r[0] < r[1] && r[1] <= length,
  );
  for (const [start, end] of pairs.sort((a, b) => a[0] - b[0])) if (start >= (out.at(-1)?.[1] ?? 0)) out.push([start, end]);
  return out;
}

/** `snippet` cut at its ranges: `[text, marked]` pieces, in order, which join back to `snippet`. */
export function highlightPieces(snippet: string, ranges: [number, number][]): [string, boolean][] {
  const pieces: [string, boolean][] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) pieces.push([snippet.slice(at, start), false]);
    pieces.push([snippet.slice(start, end), true]);
    at = end;
  }
  if (at < snippet.length) pieces.push([snippet.slice(at), false]);
  return pieces;
}

/** The hits of a response body as the element shows them: at most {@link SEARCH_LIMIT}, each checked, those without an http(s) link dropped. */
export function searchResults(body: unknown): SearchResult[] {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return [];
  return results
    .filter((r) => r && typeof r == 'object' && safeUrl(r.url))
    .slice(0, SEARCH_LIMIT)
    .map((r) => {
      const url = safeUrl(r.url)!;
      const snippet = cap(r.snippet, SNIPPET_MAX);
      // A cut snippet keeps only the ranges inside what is shown of it.
      return { title: cap(r.title, 200) || cap(url, 200), url, snippet, highlights: highlightRanges(r.highlights, Math.min(snippet.length, SNIPPET_MAX)) };
    });
}

/**
 * Asks `url` (the proxy's search endpoint, relative to the page or absolute) for the pages matching `q`: `GET url?bot_id=&q=&limit=`, with the
 * host's headers and credentials mode, as answers are. Rejects with an {@link AnswerError}: the proxy's error
 * code, `search_unavailable` for a 404 (the upstream, or the proxy, has no search), `aborted`, `network`, or `headers`.
 */
export async function fetchSearch(url: string, botId: string, q: string, signal: AbortSignal, options: RequestOptions = {}): Promise<SearchResult[]> {
  const target = new URL(url, document.baseURI);
  target.search = new URLSearchParams({ bot_id: botId, q, limit: '' + SEARCH_LIMIT }) + '';
  try {
    const res = await send(target.href, undefined, signal, options);
    // Any 404: the proxy's `search_unavailable`, or a proxy without search (its `not_found`).
    if (res.status == 404) throw new AnswerError('search_unavailable', 'No search at ' + url);
    if (!res.ok) throw await responseError(res);
    return searchResults(await res.json());
  } catch (e) {
    throw e instanceof AnswerError ? e : new AnswerError(signal.aborted ? 'aborted' : 'network', String(e));
  }
}
