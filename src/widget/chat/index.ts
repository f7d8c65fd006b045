/**
 * The chat stage of `<bot-answer>`, loaded by the element on the visitor's first sign of intent: the thread,
 * the answer client, Markdown and sanitising, search as you type, lit-html. Built as a file of its own (`bot-answer-chat.js`),
 * beside the loader, with everything it needs inside, so the ES module and the classic script share it.
 */
import type { BotAnswer } from '../bot-answer.js';
import { adopt } from '../dom.js';
import type { Chat } from '../stage.js';
import { CHAT_STRINGS } from '../strings.js';
import { chatStyles } from './chat.styles.js';
import { ChatView } from './chat-view.js';
import { SearchView } from './search-view.js';
import { searchStyles } from './search.styles.js';

/** The thread's and the search list's style sheets, made once per page. */
const styles: { sheet?: CSSStyleSheet } = {};
const searchSheet: { sheet?: CSSStyleSheet } = {};

export const strings = CHAT_STRINGS;

export function attach(host: BotAnswer): Chat {
  adopt(host.shadowRoot!, chatStyles, styles);
  adopt(host.shadowRoot!, searchStyles, searchSheet);
  return Object.assign(new ChatView(host), { search: new SearchView(host) });
}
