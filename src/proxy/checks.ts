import type { AnswerRequest } from '../protocol/types.js';
import type { RateLimiter } from './config.js';
import type { RequestContext } from './context.js';
import { decideOrigin } from './cors.js';
import { ProxyError } from './errors.js';
import { checkRateLimit, clientAddressOf } from './rate-limit.js';
import { isJsonContentType, parseAnswerRequest, readRequestText } from './request-body.js';

const warned = new WeakSet<object>();

/**
 * Who may call: the origin, the `authorize` hook, then the rate limit (per user when the hook
 * names one). Sets the context's CORS decision and user; throws a {@link ProxyError} to refuse.
 */
export async function checkCaller(ctx: RequestContext, limiter: RateLimiter | undefined, bucket: string): Promise<void> {
  const { cfg, request } = ctx;
  if (ctx.cors === 'forbidden') throw new ProxyError('origin_not_allowed');
  if (cfg.authorize) {
    let verdict;
    try {
      verdict = await cfg.authorize(request);
    } catch (error) {
      throw error instanceof ProxyError ? error : new ProxyError('unauthenticated');
    }
    if (verdict === 'unauthenticated') throw new ProxyError('unauthenticated');
    if (verdict === false || verdict === 'forbidden') throw new ProxyError('forbidden');
    if (typeof verdict === 'object' && verdict !== null && typeof verdict.user === 'string') ctx.user = verdict.user;
  }
  if (!limiter) return;
  const clientAddress = clientAddressOf(request, ctx.host, cfg);
  const key = cfg.rateLimitKey ? cfg.rateLimitKey(request, { user: ctx.user, clientAddress }) : (ctx.user ?? clientAddress);
  if (!key) {
    if (!warned.has(cfg)) ctx.log.event('error', 'rate limit on, but this request has no client address to count it under: it is refused. Set clientAddress (how this runtime gives the visitor address), rateLimitKey or trustProxy, or rateLimitPerMinute: 0', { id: ctx.id });
    warned.add(cfg);
    throw new ProxyError('client_unknown');
  }
  const wait = await checkRateLimit(limiter, `${bucket}${key}`, cfg.storeFailure);
  if (wait !== undefined) throw new ProxyError('rate_limited', { retryAfter: wait });
}

/** Sets the context's CORS decision from the request's `Origin`. */
export function decideCors(ctx: RequestContext): void {
  ctx.cors = decideOrigin(ctx.origin, ctx.url.host, ctx.cfg.allowedOrigins);
}

/** Reads a JSON body of at most `maxBytes`, as text. */
export function readJsonBody(ctx: RequestContext, maxBytes: number): Promise<string> {
  if (!isJsonContentType(ctx.request.headers.get('content-type'))) throw new ProxyError('not_json_content_type');
  return readRequestText(ctx.request, maxBytes);
}

/** The answer request's body, checked: JSON, size, fields, and the bot allowed. */
export async function readAnswerRequest(ctx: RequestContext): Promise<AnswerRequest> {
  const { cfg, record } = ctx;
  const body = parseAnswerRequest(await readJsonBody(ctx, cfg.maxBodyBytes), cfg.maxMessageChars);
  record.bot = body.bot_id;
  record.stream = body.stream;
  if (cfg.debug) record.message = body.message;
  if (cfg.allowedBotIds.length > 0 && !cfg.allowedBotIds.includes(body.bot_id)) throw new ProxyError('bot_not_allowed');
  return body;
}
