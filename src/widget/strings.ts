/**
 * Every visible or announced text of `<bot-answer>`, in English. Override any subset through
 * the element's `strings` property (translations); `{n}` in a string is replaced by a number.
 * Error messages are keyed by the error code they explain.
 */
export const STRINGS = {
  heading: 'Ask a question',
  placeholder: 'Ask a question…',
  input: 'Your question',
  send: 'Send',
  stop: 'Stop',
  open: 'Ask',
  close: 'Close',
  startOver: 'Start over',
  suggestions: 'Try asking',
  thread: 'Conversation',
  answering: 'Answering…',
  done: 'Answer ready',
  noAnswer: 'No answer found. Try rephrasing your question.',
  stopped: 'Stopped',
  retry: 'Retry',
  sources: 'Sources ({n})',
  copy: 'Copy answer',
  copyCode: 'Copy code',
  copied: 'Copied',
  helpful: 'Helpful',
  unhelpful: 'Not helpful',
  config: 'bot-answer: set the bot-id attribute.',
  error: 'Something went wrong. Please try again.',
  rate_limited: 'Too many questions. Try again in {n} seconds.',
  unavailable: 'The service is unavailable right now. Please try again later.',
  unknown_bot: 'This assistant is not available (bot not found).',
  network: 'Could not reach the service. Check your connection.',
  offline: 'You are offline. Reconnect and try again.',
  timeout: 'The answer took too long. Please try again.',
  message_too_long: 'Your question is too long. Please shorten it.',
};

/** The keys of {@link STRINGS}. */
export type Strings = typeof STRINGS;

/** Which message explains each error code (codes not listed use `error`). */
const MESSAGE_BY_CODE: Record<string, keyof Strings> = {
  rate_limited: 'rate_limited',
  upstream_error: 'unavailable',
  upstream_auth: 'unavailable',
  shutting_down: 'unavailable',
  forbidden_origin: 'unavailable',
  internal: 'unavailable',
  unknown_bot: 'unknown_bot',
  forbidden_bot: 'unknown_bot',
  not_found: 'unknown_bot',
  network: 'network',
  stream_interrupted: 'network',
  offline: 'offline',
  timeout: 'timeout',
  upstream_timeout: 'timeout',
  message_too_long: 'message_too_long',
  payload_too_large: 'message_too_long',
};

/** `s` with `{n}` replaced by `n`. */
export const fmt = (s: string, n: unknown) => s.replace('{n}', String(n));

/** The visitor-facing message for an error code (a rate limit without a known wait says 60 seconds). */
export function errorMessage(t: Strings, code: string, wait?: number): string {
  const key = MESSAGE_BY_CODE[code] ?? 'error';
  return fmt(t[key], key == 'rate_limited' && wait == null ? 60 : wait);
}
