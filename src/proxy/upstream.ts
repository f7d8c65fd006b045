import type { AnswerRequest } from '../protocol/types.js';
import type { RequestContext } from './context.js';
import { ProxyError, type Failure } from './errors.js';
import type { RequestTimers } from './timers.js';
import type { UpstreamResponse } from './upstream-client.js';

/**
 * Sends the one upstream request (never retried: each costs money) and maps a non-success
 * status to a failure; the upstream's body is never passed on.
 */
export async function callUpstream(ctx: RequestContext, body: AnswerRequest, signal: AbortSignal, timers: RequestTimers): Promise<UpstreamResponse> {
  const { cfg } = ctx;
  timers.startHeaders();
  let response: UpstreamResponse;
  try {
    response = await cfg.upstreamClient({
      url: cfg.upstreamUrl,
      headers: {
        authorization: `Bearer ${cfg.apiKey}`,
        'content-type': 'application/json',
        accept: body.stream ? 'text/event-stream, application/json' : 'application/json',
      },
      body: JSON.stringify(body),
      signal,
    });
  } catch {
    throw new ProxyError(timers.reason ?? 'upstream_unreachable');
  }
  timers.headersArrived();
  const status = response.status;
  ctx.record.upstream_status = status;
  if (status >= 200 && status < 300) return response;
  timers.abortUpstream();
  let failure: Failure = 'upstream_failed';
  let retryAfter: number | undefined;
  if (status >= 300 && status < 400) failure = 'upstream_redirect';
  else if (status === 401 || status === 403) {
    failure = 'upstream_unauthorized';
    ctx.record.level = 'error';
    ctx.log.event('error', 'upstream rejected the API key: check ANSWER_API_KEY', { id: ctx.id, upstream_status: status });
  } else if (status === 404) failure = 'upstream_unknown_bot';
  else if (status === 400 || status === 422) failure = 'upstream_rejected';
  else if (status === 402) failure = 'upstream_payment';
  else if (status === 429) {
    failure = 'upstream_rate_limited';
    retryAfter = parseRetryAfter(response.header('retry-after'));
  }
  throw new ProxyError(failure, { retryAfter });
}

/** Retry-After as whole seconds (from seconds or an HTTP date), 60 when missing, capped at an hour. */
export function parseRetryAfter(value: string | null): number {
  if (value) {
    const seconds = /^\s*\d+\s*$/.test(value) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
    if (Number.isFinite(seconds)) return Math.min(3600, Math.max(1, Math.ceil(seconds)));
  }
  return 60;
}
