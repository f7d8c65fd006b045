import type { ErrorBody, ErrorCode } from '../../../bot-answer/src/protocol/types.js';

/** What a failure looks like to the client: status (before a stream starts), code and message. */
export interface FailureInfo {
  status: number;
  code: ErrorCode;
  message: string;
  /** The `outcome` field of the request's log line. */
  outcome: string;
}

/**
 * The one table mapping each failure to a status, a code and a human message.
 * Messages are fixed strings: nothing from the upstream (its body, its errors, the key)
 * ever reaches a client.
 */
export const FAILURES = {
  not_json_content_type: { status: 415, code: 'unsupported_media_type', message: 'Send the request as JSON with Content-Type: application/json.', outcome: 'rejected' },
  malformed_json: { status: 400, code: 'bad_request', message: 'The request body is not valid JSON.', outcome: 'rejected' },
  not_an_object: { status: 400, code: 'bad_request', message: 'The request body must be a JSON object {message, bot_id, inline_sources?, stream?, history?}.', outcome: 'rejected' },
  bad_message: { status: 400, code: 'bad_request', message: '"message" must be a string.', outcome: 'rejected' },
  empty_message: { status: 400, code: 'bad_request', message: '"message" must not be empty.', outcome: 'rejected' },
  message_too_long: { status: 400, code: 'message_too_long', message: 'The message is too long.', outcome: 'rejected' },
  bad_bot_id: { status: 400, code: 'bad_request', message: '"bot_id" must be a non-empty string.', outcome: 'rejected' },
  bad_inline_sources: { status: 400, code: 'bad_request', message: '"inline_sources" must be a boolean.', outcome: 'rejected' },
  bad_stream: { status: 400, code: 'bad_request', message: '"stream" must be a boolean.', outcome: 'rejected' },
  bad_history: { status: 400, code: 'bad_request', message: '"history" must be a list of {role: "user" | "assistant", content: string}, oldest first.', outcome: 'rejected' },
  history_too_large: { status: 413, code: 'payload_too_large', message: 'The conversation sent with the question is too long.', outcome: 'rejected' },
  body_too_large: { status: 413, code: 'payload_too_large', message: 'The request body is too large.', outcome: 'rejected' },
  body_unreadable: { status: 400, code: 'bad_request', message: 'The request body could not be read.', outcome: 'rejected' },
  origin_not_allowed: { status: 403, code: 'forbidden_origin', message: 'This origin may not call the answer endpoint.', outcome: 'rejected' },
  bot_not_allowed: { status: 403, code: 'forbidden_bot', message: 'This bot may not be used through this endpoint.', outcome: 'rejected' },
  not_found: { status: 404, code: 'not_found', message: 'Not found.', outcome: 'rejected' },
  method_not_allowed: { status: 405, code: 'method_not_allowed', message: 'Method not allowed.', outcome: 'rejected' },
  unauthenticated: { status: 401, code: 'unauthorized', message: 'Sign in to ask questions here.', outcome: 'unauthorized' },
  forbidden: { status: 403, code: 'forbidden', message: 'You may not ask questions here.', outcome: 'forbidden' },
  client_unknown: { status: 500, code: 'internal', message: 'The server cannot tell visitors apart for its rate limit, so it does not answer.', outcome: 'misconfigured' },
  empty_search: { status: 400, code: 'bad_request', message: '"q" must not be empty.', outcome: 'rejected' },
  search_too_long: { status: 400, code: 'bad_request', message: '"q" must be at most 200 characters.', outcome: 'rejected' },
  bad_search_limit: { status: 400, code: 'bad_request', message: '"limit" must be a whole number from 1 to 20.', outcome: 'rejected' },
  search_rate_limited: { status: 429, code: 'rate_limited', message: 'Too many searches. Please wait a moment and try again.', outcome: 'rate_limited' },
  search_unavailable: { status: 404, code: 'search_unavailable', message: 'The answer service offers no search.', outcome: 'search_unavailable' },
  bad_feedback: { status: 400, code: 'bad_request', message: 'The feedback must be a JSON object {request_id, bot_id, rating: "up" | "down", comment?}.', outcome: 'rejected' },
  rate_limited: { status: 429, code: 'rate_limited', message: 'Too many questions. Please wait a moment and try again.', outcome: 'rate_limited' },
  upstream_unauthorized: { status: 502, code: 'upstream_auth', message: 'The answer service refused the server\'s credentials.', outcome: 'upstream_auth' },
  upstream_unknown_bot: { status: 404, code: 'unknown_bot', message: 'The answer service does not know this bot.', outcome: 'upstream_error' },
  upstream_rejected: { status: 400, code: 'bad_request', message: 'The answer service rejected the request.', outcome: 'upstream_error' },
  upstream_payment: { status: 502, code: 'upstream_error', message: 'The answer service is not available for this account.', outcome: 'upstream_error' },
  upstream_rate_limited: { status: 429, code: 'rate_limited', message: 'The answer service is busy. Please wait a moment and try again.', outcome: 'upstream_rate_limited' },
  upstream_failed: { status: 502, code: 'upstream_error', message: 'The answer service failed.', outcome: 'upstream_error' },
  upstream_redirect: { status: 502, code: 'upstream_error', message: 'The answer service answered with a redirect, which is not followed.', outcome: 'upstream_error' },
  upstream_unreachable: { status: 502, code: 'upstream_error', message: 'The answer service could not be reached.', outcome: 'upstream_error' },
  upstream_bad_answer: { status: 502, code: 'upstream_error', message: 'The answer service sent an answer that could not be read.', outcome: 'upstream_error' },
  upstream_event_too_large: { status: 502, code: 'upstream_error', message: 'The answer service sent an event that is too large.', outcome: 'upstream_error' },
  upstream_headers_timeout: { status: 504, code: 'upstream_timeout', message: 'The answer service did not respond in time.', outcome: 'timeout' },
  upstream_idle_timeout: { status: 504, code: 'upstream_timeout', message: 'The answer service stopped responding.', outcome: 'timeout' },
  total_timeout: { status: 504, code: 'upstream_timeout', message: 'The answer took too long.', outcome: 'timeout' },
  stream_broken: { status: 502, code: 'stream_interrupted', message: 'The answer was interrupted.', outcome: 'interrupted' },
  shutting_down: { status: 503, code: 'shutting_down', message: 'The server is restarting. Please try again.', outcome: 'shutdown' },
  store_unavailable: { status: 503, code: 'unavailable', message: 'The service is unavailable. Please try again in a moment.', outcome: 'store_unavailable' },
  insights_signed_out: { status: 401, code: 'unauthorized', message: 'Sign in to the insights page, or send Authorization: Bearer <INSIGHTS_TOKEN>.', outcome: 'unauthorized' },
  insights_wrong_token: { status: 401, code: 'unauthorized', message: 'Wrong insights token.', outcome: 'unauthorized' },
  insights_token_in_url: { status: 400, code: 'bad_request', message: 'The insights token never goes in a URL: send it in an Authorization: Bearer header, or sign in with the form.', outcome: 'rejected' },
  insights_bad_filter: { status: 400, code: 'bad_request', message: 'The insights filter is not valid.', outcome: 'rejected' },
  not_form_content_type: { status: 415, code: 'unsupported_media_type', message: 'Send the sign-in form as application/x-www-form-urlencoded.', outcome: 'rejected' },
  internal: { status: 500, code: 'internal', message: 'Something went wrong on the server.', outcome: 'internal' },
} satisfies Record<string, FailureInfo>;

/** Every way a request can fail, before or during a stream: a key of {@link FAILURES}. */
export type Failure = keyof typeof FAILURES;

/** A failure as a thrown value, so each check can stop the request where it finds a problem. */
export class ProxyError extends Error {
  readonly failure: Failure;
  /** Seconds to wait before retrying (rate limits). */
  readonly retryAfter?: number;
  /** Extra message detail chosen by the proxy (never upstream text). */
  readonly detail?: string;

  constructor(failure: Failure, options: { retryAfter?: number; detail?: string } = {}) {
    super(FAILURES[failure].message);
    this.name = 'ProxyError';
    this.failure = failure;
    this.retryAfter = options.retryAfter;
    this.detail = options.detail;
  }

  get info(): FailureInfo {
    return FAILURES[this.failure];
  }

  /** The client-facing error body. */
  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.info.code, message: this.detail ? `${this.info.message} ${this.detail}` : this.info.message };
    if (this.retryAfter !== undefined) body.retry_after = this.retryAfter;
    return body;
  }
}

/** Turns anything thrown into a ProxyError, hiding what an unexpected error says. */
export function toProxyError(error: unknown): ProxyError {
  return error instanceof ProxyError ? error : new ProxyError('internal');
}
