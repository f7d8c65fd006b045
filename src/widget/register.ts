import { BotAnswer } from './bot-answer.js';
import { setLoaders, type Stages } from './stage.js';

/**
 * Defines `<bot-answer>`, whose other files `load` brings. Guarded: a second copy of the script defines
 * nothing and throws nothing. (On a server, `server.ts` provides a `customElements` registry first.)
 */
export function register(load: { [K in keyof Stages]: () => Promise<Stages[K]> }) {
  setLoaders(load);
  if (!customElements.get('bot-answer')) {
    customElements.define('bot-answer', BotAnswer);
  }
}
