import { PROTOCOL_HEADER } from '../../../bot-answer/src/protocol/stream-events.js';

/** How a request's `Origin` relates to the configured origins. */
export type OriginDecision = 'none' | 'same' | 'allowed' | 'forbidden';

/**
 * Classifies the request's origin: no `Origin` header (not a browser cross-origin call), the
 * page's own host (same-origin always works, whatever the scheme a TLS terminator in front
 * rewrote), an exact member of `allowed`, or forbidden.
 */
export function decideOrigin(origin: string | null, requestHost: string, allowed: readonly string[]): OriginDecision {
  if (origin === null) return 'none';
  if (allowed.includes(origin)) return 'allowed';
  // A malformed Origin is simply not same-origin.
  if (origin !== 'null' && URL.canParse(origin) && new URL(origin).host === requestHost) return 'same';
  return 'forbidden';
}

/**
 * CORS headers for a response to `origin` (only when it was explicitly allowed: the origin is
 * echoed, never `*`, so credentials can be allowed when configured).
 */
export function corsHeaders(headers: Record<string, string>, decision: OriginDecision, origin: string | null, credentials: boolean): void {
  headers.vary = headers.vary ? `${headers.vary}, Origin` : 'Origin';
  if (decision === 'allowed' && origin !== null) {
    headers['access-control-allow-origin'] = origin;
    headers['access-control-expose-headers'] = `Retry-After, X-Request-Id, X-Cache, ${PROTOCOL_HEADER}`;
    if (credentials) headers['access-control-allow-credentials'] = 'true';
  }
}

/** Extra headers of a successful preflight for an endpoint taking `methods`. */
export function preflightHeaders(credentials: boolean, methods = 'POST, OPTIONS'): Record<string, string> {
  return {
    'access-control-allow-methods': methods,
    'access-control-allow-headers': credentials ? 'Content-Type, Authorization' : 'Content-Type',
    'access-control-max-age': '600',
  };
}
