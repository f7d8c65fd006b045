/**
 * Every visible or announced text of `<bot-answer>`, in English. Override any subset through
 * the element's `strings` attribute (JSON) or property, or load a translation (`locales/`);
 * `{n}` in a string is replaced by a number. Error messages are keyed by the error code they explain.
 *
 * In three tables, by the file that shows them: the loader's (every page), the box's (the inline box and the
 * floating dialog around the thread) and the chat's (the thread). {@link STRINGS} is all three.
 */
export const LOADER_STRINGS = {
  open: 'Ask',
  loadFailed: 'Could not load the assistant. Check your connection.',
  retry: 'Retry',
};

/** The box's strings: its heading, suggestions, question field and controls, and the configuration message. */
export const BOX_STRINGS = {
  config: 'bot-answer: set the bot-id attribute.',
  heading: 'Ask a question',
  placeholder: 'Ask a question…',
  input: 'Your question',
  send: 'Send',
  stop: 'Stop',
  close: 'Close',
  startOver: 'Start over',
  suggestions: 'Try asking',
  thread: 'Conversation',
  answering: 'Answering…',
  independent: 'Each question is answered on its own.',
  followUps: 'Your last {n} questions and answers in this thread are sent with each new question.',
};

/** The chat stage's strings: states, sources, actions and error messages of the thread. */
export const CHAT_STRINGS = {
  done: 'Answer ready',
  noAnswer: 'No answer found. Try rephrasing.',
  notSure: 'No sure answer. These pages may help.',
  related: 'Related pages',
  stopped: 'Stopped',
  sources: 'Sources ({n})',
  copy: 'Copy answer',
  copyCode: 'Copy code',
  copied: 'Copied',
  helpful: 'Helpful',
  unhelpful: 'Not helpful',
  comment: 'What was missing? (optional)',
  thanks: 'Thanks for your feedback.',
  searchResults: 'Matching pages',
  searchFound: '{n} pages found',
  searchFoundOne: '1 page found',
  error: 'Something went wrong. Try again.',
  rate_limited: 'Too many questions. Try again in {n} seconds.',
  unavailable: 'The service is unavailable. Try again later.',
  interrupted: 'The answer was interrupted. Try again.',
  unknown_bot: 'This assistant is not available.',
  network: 'Could not reach the service. Check your connection.',
  offline: 'You are offline. Reconnect and try again.',
  timeout: 'The answer took too long. Try again.',
  message_too_long: 'Your question is too long.',
};

/** The keys of {@link STRINGS}. */
export type Strings = typeof LOADER_STRINGS & typeof BOX_STRINGS & typeof CHAT_STRINGS;

/** Every string with its English default. */
export const STRINGS: Strings = /* @__PURE__ */ Object.assign({}, LOADER_STRINGS, BOX_STRINGS, CHAT_STRINGS);

/** Which error codes each message explains (codes not listed use `error`). */
const CODES: Partial<Record<keyof Strings, string>> = {
  rate_limited: 'rate_limited',
  unavailable: 'upstream_error upstream_auth shutting_down forbidden_origin internal unavailable',
  unknown_bot: 'unknown_bot forbidden_bot not_found unauthorized forbidden',
  network: 'network',
  interrupted: 'stream_interrupted',
  offline: 'offline',
  timeout: 'timeout upstream_timeout',
  message_too_long: 'message_too_long payload_too_large',
};

/** `s` with `{n}` replaced by `n`. */
export const fmt = (s: string, n: unknown) => s.replace('{n}', '' + n);

/** The visitor-facing message for an error code (a rate limit without a known wait says 60 seconds). */
export function errorMessage(t: Strings, code: string, wait?: number): string {
  const key = (Object.keys(CODES) as (keyof Strings)[]).find((k) => CODES[k]!.split(' ').includes(code)) ?? 'error';
  return fmt(t[key], wait || 60);
}
