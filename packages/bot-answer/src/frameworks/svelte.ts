/**
 * Template typings of `<bot-answer>` for Svelte 5, as Svelte's TypeScript guide recommends:
 * an entry in `svelte/elements`' `SvelteHTMLElements`. Svelte sets a custom element's properties
 * when it has them, and `onbot-answer-done={...}` listens to that event. Load them once, e.g.
 * `import type {} from 'bot-answer/svelte'` in a `.d.ts` of your app.
 */
import type { HTMLAttributes } from 'svelte/elements';
import type { BotAnswer, BotAnswerAttributes, BotAnswerOnEvents, BotAnswerProperties } from './element-types.js';

/** `onbot-answer-done` and the like. */
export type BotAnswerSvelteEvents = BotAnswerOnEvents;

/** Attributes and properties of `<bot-answer>` in Svelte markup. */
export type BotAnswerSvelteAttributes = Omit<HTMLAttributes<BotAnswer>, keyof BotAnswerProperties> & BotAnswerProperties & BotAnswerAttributes & BotAnswerSvelteEvents;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'bot-answer': BotAnswerSvelteAttributes;
  }
}
