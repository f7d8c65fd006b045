import { BotAnswer } from './bot-answer.js';
import { setLoaders, type Stages } from './stage.js';

/**
 * Defines `<bot-answer>`, whose other files `load` brings. Guarded: a second copy of the script, or a
 * server-side render without custom elements, defines nothing and throws nothing.
 */
export function register(load: { [K in keyof Stages]: () => Promise<Stages[K]> }) {
  setLoaders(load);
  if (typeof customElements !== 'undefined' && !customElements.get('bot-answer')) {
    customElements.define('bot-answer', BotAnswer);
  }
}
