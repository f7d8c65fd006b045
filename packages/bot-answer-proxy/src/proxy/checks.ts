import type { AnswerRequest } from '../../../bot-answer/src/protocol/types.js';
import type { RateLimiter } from './config.js';
import type { RequestContext } from './context.js';
import { ProxyError, type Failure } from './errors.js';
import { checkRateLimit, clientAddressOf } from './rate-limit.js';
import { isJsonContentType, parseAnswerRequest, parseFeedback, readRequestText, type Feedback } from './request-body.js';

const warned = new WeakSet<object>();

/**
 * Who may call: the origin, the `authorize` hook, then the rate limit (per user when the hook
 * names one), counted in `bucket`. Sets the context's user; throws a {@link ProxyError} to refuse
 * (`limited` beyond the rate limit).
 */
export async function checkCaller(ctx: RequestContext, limiter: RateLimiter | undefined, bucket: string, limited: Failure = 'rate_limited'): Promise<void> {
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
  if (wait !== undefined) throw new ProxyError(limited, { retryAfter: wait });
}

/** Largest feedback body in bytes. */
const MAX_FEEDBACK_BYTES = 4 * 1024;

/** Reads a JSON body of at most `maxBytes`, as text. */
function readJsonBody(ctx: RequestContext, maxBytes: number): Promise<string> {
  if (!isJsonContentType(ctx.request.headers.get('content-type'))) throw new ProxyError('not_json_content_type');
  return readRequestText(ctx.request, maxBytes);
}

/** The answer request's body, checked: JSON, size, fields, and the bot allowed. */
export async function readAnswerRequest(ctx: RequestContext): Promise<AnswerRequest> {
  const { cfg, record } = ctx;
  const body = parseAnswerRequest(await readJsonBody(ctx, cfg.maxBodyBytes), cfg.maxMessageChars, cfg);
  record.stream = body.stream;
  if (cfg.debug) record.message = body.message;
  return allowBot(ctx, body);
}

/** A feedback body, checked the same way. */
export async function readFeedback(ctx: RequestContext): Promise<Feedback> {
  return allowBot(ctx, parseFeedback(await readJsonBody(ctx, MAX_FEEDBACK_BYTES)));
}

/** Notes the body's bot in the log line, and refuses a bot that is not allowed. */
function allowBot<T extends { bot_id: string }>(ctx: RequestContext, body: T): T {
  const { allowedBotIds } = ctx.cfg;
  ctx.record.bot = body.bot_id;
  if (allowedBotIds.length > 0 && !allowedBotIds.includes(body.bot_id)) throw new ProxyError('bot_not_allowed');
  return body;
}
