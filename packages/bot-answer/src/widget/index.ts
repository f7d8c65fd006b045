import { BotAnswer } from './bot-answer.js';
import { register } from './register.js';

export { BotAnswer };
export type { Strings } from './strings.js';
export type { SearchResult } from './search-client.js';
export type * from './events.js';

// Static specifiers: bundlers split the box and the chat into chunks of their own, fetched when needed.
register({ box: () => import('./box/index.js'), chat: () => import('./chat/index.js') });

declare global {
  interface HTMLElementTagNameMap {
    'bot-answer': BotAnswer;
  }
}
