import type { AnswerRequest } from '../../../bot-answer/src/protocol/types.js';
import type { RequestContext } from './context.js';
import { ProxyError, type Failure } from './errors.js';
import type { RequestTimers } from './timers.js';
import type { UpstreamResponse } from './upstream-client.js';

/**
 * Sends the one upstream request (never retried: each costs money) and maps a non-success
 * status to a failure; the upstream's body is never passed on.
 */
export async function callUpstream(ctx: RequestContext, body: AnswerRequest, signal: AbortSignal, timers: RequestTimers): Promise<UpstreamResponse> {
  const accept = body.stream ? 'text/event-stream, application/json' : 'application/json';
  const response = await sendUpstream(ctx, { url: ctx.cfg.upstreamUrl, headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(body) }, signal, timers);
  if (response.status >= 200 && response.status < 300) return response;
  timers.abortUpstream();
  throw upstreamFailure(ctx, response);
}

/**
 * Sends one upstream request with the key (the headers timeout running until its headers come)
 * and gives its response whatever its status; an upstream that cannot be reached is a failure.
 */
export async function sendUpstream(
  ctx: RequestContext,
  request: { url: string; method?: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  signal: AbortSignal,
  timers: RequestTimers,
): Promise<UpstreamResponse> {
  timers.startHeaders();
  let response: UpstreamResponse;
  try {
    response = await ctx.cfg.upstreamClient({ ...request, headers: { authorization: `Bearer ${ctx.cfg.apiKey}`, ...request.headers }, signal });
  } catch {
    throw new ProxyError(timers.reason ?? 'upstream_unreachable');
  }
  timers.headersArrived();
  ctx.record.upstream_status = response.status;
  return response;
}

/** The failure an upstream's non-success status stands for (its body is never passed on). */
export function upstreamFailure(ctx: RequestContext, response: UpstreamResponse): ProxyError {
  const status = response.status;
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
  return new ProxyError(failure, { retryAfter });
}

/** Retry-After as whole seconds (from seconds or an HTTP date), 60 when missing, capped at an hour. */
export function parseRetryAfter(value: string | null): number {
  if (value) {
    const seconds = /^\s*\d+\s*$/.test(value) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
    if (Number.isFinite(seconds)) return Math.min(3600, Math.max(1, Math.ceil(seconds)));
  }
  return 60;
}
