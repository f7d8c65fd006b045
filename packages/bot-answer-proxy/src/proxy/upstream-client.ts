/** What the proxy reads of an upstream response. */
export interface UpstreamResponse {
  status: number;
  /** A response header, case-insensitive; repeated ones joined with `, `. */
  header(name: string): string | null;
  /** The body, chunk by chunk; stopping the iteration early discards the rest. */
  body: AsyncIterable<Uint8Array>;
}

/** One upstream request, as the proxy makes it. */
export interface UpstreamRequest {
  url: string;
  /** `POST` (answers; the default when absent) or `GET` (search, which has no body). */
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/**
 * The client the proxy reaches the upstream with: one request, never a followed redirect.
 * `fetchUpstream(fetch)` (the default, over `globalThis.fetch`) fits anywhere; the Node entry
 * offers `undiciUpstream()`, a keep-alive pool.
 */
export type UpstreamClient = (request: UpstreamRequest) => Promise<UpstreamResponse>;

/** An {@link UpstreamClient} over a `fetch` function: the default, and the one for edge runtimes. */
export function fetchUpstream(fetchFn: typeof fetch): UpstreamClient {
  return async ({ url, method = 'POST', headers, body, signal }) => {
    const response = await fetchFn(url, { method, headers, body, signal, redirect: 'manual' });
    return {
      // A browser-like fetch hides a redirect's status behind an opaque response.
      status: response.type === 'opaqueredirect' ? 302 : response.status,
      header: (name) => response.headers.get(name),
      // Leaving the iteration early cancels the body.
      body: response.body ?? (async function* () {})(),
    };
  };
}
