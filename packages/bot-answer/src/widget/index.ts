import { BotAnswer } from './bot-answer.js';
import { register } from './register.js';
import { preload } from './stage.js';

export { BotAnswer };
export type { Strings } from './strings.js';
export type { SearchResult } from './search-client.js';
export type * from './events.js';

// Static specifiers: bundlers split the box and the chat into chunks of their own, fetched when needed.
register({ box: () => import('./box/index.js'), chat: () => import('./chat/index.js') });
// The same files by URL, fetched once the page is idle (not on a server). The build names them as published,
// and only where this file is the published one: in an app's bundle, nothing is fetched early (vite.config.ts).
if (globalThis.document) preload([import.meta.resolve?.('./box/index.js'), import.meta.resolve?.('./chat/index.js')]);

declare global {
  interface HTMLElementTagNameMap {
    'bot-answer': BotAnswer;
  }
}
