import { BotAnswer } from './bot-answer.js';
import { setLoaders, type Stages } from './stage.js';

/**
 * Defines `<bot-answer>`, whose other files `load` brings; `urls` gives their URLs (the box's, the chat's), for
 * fetching them while the page is idle. Guarded: a second copy of the script defines nothing and throws nothing.
 * (On a server, `server.ts` provides a `customElements` registry first.)
 */
export function register(load: { [K in keyof Stages]: () => Promise<Stages[K]> }, urls: () => (string | false | undefined)[]) {
  setLoaders(load, urls);
  if (!customElements.get('bot-answer')) {
    customElements.define('bot-answer', BotAnswer);
  }
}
