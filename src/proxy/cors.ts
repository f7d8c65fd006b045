/** How a request's `Origin` relates to the configured origins. */
export type OriginDecision = 'none' | 'same' | 'allowed' | 'forbidden';

/**
 * Classifies the request's origin: no `Origin` header (not a browser cross-origin call), the
 * page's own host (same-origin always works, whatever the scheme a TLS terminator in front
 * rewrote), an exact member of `allowed`, or forbidden.
 */
export function decideOrigin(origin: string | null, requestUrl: URL, allowed: readonly string[]): OriginDecision {
  if (origin === null) return 'none';
  if (allowed.includes(origin)) return 'allowed';
  if (origin !== 'null') {
    try {
      if (new URL(origin).host === requestUrl.host) return 'same';
    } catch {
      // a malformed Origin is simply not same-origin
    }
  }
  return 'forbidden';
}

/** CORS headers for a response to `origin` (only when it was explicitly allowed). */
export function corsHeaders(headers: Headers, decision: OriginDecision, origin: string | null): void {
  headers.append('vary', 'Origin');
  if (decision === 'allowed' && origin !== null) {
    headers.set('access-control-allow-origin', origin);
    headers.set('access-control-expose-headers', 'Retry-After, X-Request-Id');
  }
}

/** Extra headers of a successful preflight. */
export function preflightHeaders(headers: Headers): void {
  headers.set('access-control-allow-methods', 'POST, OPTIONS');
  headers.set('access-control-allow-headers', 'Content-Type');
  headers.set('access-control-max-age', '600');
}
