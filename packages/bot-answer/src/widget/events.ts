import type { AnswerResponse, ErrorBody, Source } from '../protocol/types.js';
import type { SearchResult } from './search-client.js';

/** Detail of `bot-answer-submit` (cancelable) and `bot-answer-start`. */
export interface BotAnswerAskDetail {
  message: string;
}

/**
 * Detail of `bot-answer-done`: the complete answer Markdown as the upstream sent it, its sources (with
 * `outcome` `not_sure`, the closest pages rather than the answer's), its `outcome` (the proxy's, or derived
 * as a proxy does when it sent none), and the proxy's id for the request (its `X-Request-Id` header; absent
 * when the response had none).
 */
export interface BotAnswerDoneDetail extends AnswerResponse {
  requestId?: string;
}

/** Detail of `bot-answer-error`: the error code and the server's (or client's) message. */
export type BotAnswerErrorDetail = Pick<ErrorBody, 'code' | 'message'>;

/**
 * Detail of `bot-answer-feedback`: the visitor's rating of one answer, the proxy's id for that answer's
 * request, and the comment when the visitor sent one (a second event after the thumbs-down).
 */
export interface BotAnswerFeedbackDetail {
  value: 'up' | 'down';
  question: string;
  answer: string;
  requestId?: string;
  comment?: string;
}

/**
 * Detail of `bot-answer-source-click`: the source whose title link was followed, and its 0-based index;
 * `related` is true for a link of a not-sure answer's related pages.
 */
export interface BotAnswerSourceClickDetail {
  source: Source;
  index: number;
  question: string;
  related?: boolean;
}

/** Detail of `bot-answer-search-result-click`: the page found (checked), its 0-based index, and the text it was found for. */
export interface BotAnswerSearchResultClickDetail {
  result: SearchResult;
  index: number;
  query: string;
}

/** Every event `<bot-answer>` fires, by name. All bubble and cross shadow roots (composed). */
export interface BotAnswerEventMap {
  'bot-answer-submit': CustomEvent<BotAnswerAskDetail>;
  'bot-answer-start': CustomEvent<BotAnswerAskDetail>;
  'bot-answer-done': CustomEvent<BotAnswerDoneDetail>;
  'bot-answer-error': CustomEvent<BotAnswerErrorDetail>;
  'bot-answer-feedback': CustomEvent<BotAnswerFeedbackDetail>;
  'bot-answer-source-click': CustomEvent<BotAnswerSourceClickDetail>;
  'bot-answer-search-result-click': CustomEvent<BotAnswerSearchResultClickDetail>;
}

type Detail<K extends keyof BotAnswerEventMap> = BotAnswerEventMap[K]['detail'];

/** Fires `name` from `target`, bubbling and composed (cancelable: `bot-answer-submit` and `bot-answer-search-result-click`); returns false when a listener cancelled it. */
export const emit = <K extends keyof BotAnswerEventMap>(target: EventTarget, name: K, detail: Detail<K>) =>
  target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: name == 'bot-answer-submit' || name == 'bot-answer-search-result-click' }));

// Typed wherever a listener may sit: on the element, and on the document and window the events bubble to.
declare global {
  interface HTMLElementEventMap extends BotAnswerEventMap {}
  interface DocumentEventMap extends BotAnswerEventMap {}
  interface WindowEventMap extends BotAnswerEventMap {}
}
