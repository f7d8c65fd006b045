import { BotAnswer } from './bot-answer.js';

export { BotAnswer };
export type { Strings } from './strings.js';
export type * from './events.js';

// Guarded so a second copy of the bundle, or a server-side render without custom elements, does not throw.
if (typeof customElements !== 'undefined' && !customElements.get('bot-answer')) {
  customElements.define('bot-answer', BotAnswer);
}

declare global {
  interface HTMLElementTagNameMap {
    'bot-answer': BotAnswer;
  }
}
