/**
 * The chat stage of `<bot-answer>`, loaded by the element on the visitor's first sign of intent: the thread,
 * the answer client, Markdown and sanitising, search as you type, lit-html. Built as a file of its own (`bot-answer-chat.js`),
 * beside the loader, with everything it needs inside, so the ES module and the classic script share it.
 */
import { adopt } from '../dom.js';
import type { Chat, StageHost } from '../stage.js';
import { CHAT_STRINGS } from '../strings.js';
import { chatStyles } from './chat.styles.js';
import { ChatView } from './chat-view.js';
import { searchStyles } from './search.styles.js';

/** The thread's and the search list's style sheet, made once per page. */
const styles: { sheet?: CSSStyleSheet } = {};

export const strings = CHAT_STRINGS;

export function attach(host: StageHost): Chat {
  // One sheet: the shell counts on the chat adding one.
  adopt(host.shadowRoot!, chatStyles + searchStyles, styles);
  return new ChatView(host);
}
