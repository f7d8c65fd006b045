import { BotAnswer } from './bot-answer.js';
import { loadStage, setLoaders, type Stages } from './stage.js';

/**
 * Defines `<bot-answer>`, whose other files `load` brings. Guarded: a second copy of the script defines
 * nothing and throws nothing. (On a server, `server.ts` provides a `customElements` registry first.)
 */
export function register(load: { [K in keyof Stages]: () => Promise<Stages[K]> }) {
  setLoaders(load);
  // The box's file is fetched once the page is idle, so a press with no hover first does not wait for the
  // network: its module only defines the box's class and strings (drawn on intent, as before), and it is then
  // loaded for the page, so a press does not wait for a task either. The chat, whose evaluation is the long part,
  // still waits for intent. A failure here is left for intent to retry and report; without idle callbacks
  // (Safari, a server) the box comes on intent.
  globalThis.requestIdleCallback?.(() => loadStage('box').catch(() => {}));
  if (!customElements.get('bot-answer')) {
    customElements.define('bot-answer', BotAnswer);
  }
}
