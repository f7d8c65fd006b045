/**
 * Shapes shared by the element, the proxy and the local Answer API.
 * Field names follow the upstream Answer API spec (snake_case) so an answer
 * passes through every layer without renaming.
 */

/** Author of a source item, as the upstream describes it. */
export interface SourceAuthor {
  name?: string;
  email?: string;
  /** Photo URL; the element never loads it (it shows the name). */
  photo?: string;
}

/** One source the answer was drawn from. Every field may be missing. */
export interface Source {
  url?: string;
  title?: string;
  app_name?: string;
  author?: SourceAuthor;
  snippet?: string;
  /** Seconds since the Unix epoch (clients also tolerate milliseconds). */
  modified_time?: number;
}

/** One earlier message of a conversation: a visitor's question or the answer to it. */
export interface HistoryMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** Body of `POST /api/answer` (proxy) and `POST /v1/answer` (upstream). */
export interface AnswerRequest {
  message: string;
  bot_id: string;
  /** Default true: cite sources inline as `[[n]](url)`. */
  inline_sources?: boolean;
  /** Default false: true asks for Server-Sent Events. */
  stream?: boolean;
  /**
   * Beyond the upstream spec: the conversation so far, oldest first, so a follow-up can be read
   * in its light. The proxy forwards it only to an upstream known to take it (the local Answer API).
   */
  history?: HistoryMessage[];
}

/**
 * How an answer ended, as the visitor sees it: `answered` (a confident answer citing its
 * sources), `not_sure` (a short honest text; the sources are the closest pages, shown as related
 * pages, never as the answer's), `refused` (nothing related: no sources).
 */
export type Outcome = 'answered' | 'not_sure' | 'refused';

/** A complete (non-streamed) answer. */
export interface AnswerResponse {
  answer: string;
  answer_found: boolean;
  /** With `answered`, the cited pages; with `not_sure`, the closest pages (related, not cited); with `refused`, none. */
  sources: Source[];
  /**
   * Beyond the upstream spec (the proxy adds it; absent from older proxies, where
   * `deriveOutcome` gives it): which of the three outcomes this answer is.
   */
  outcome?: Outcome;
}

/**
 * Every error the proxy reports, as a stable machine-readable code.
 * The element picks the visitor-facing message from the code.
 */
export type ErrorCode =
  | 'bad_request'
  | 'message_too_long'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'forbidden_origin'
  | 'forbidden_bot'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'unknown_bot'
  | 'upstream_auth'
  | 'upstream_error'
  | 'upstream_timeout'
  | 'stream_interrupted'
  | 'shutting_down'
  | 'unavailable'
  | 'search_unavailable'
  | 'internal';

/** Payload of an error: JSON body `{"error": ErrorBody}` or the stream's `error` event. */
export interface ErrorBody {
  code: ErrorCode | (string & {});
  message: string;
  /** Seconds to wait before asking again (rate limits). */
  retry_after?: number;
}
