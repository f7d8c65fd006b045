/**
 * Template typings of `<bot-answer>` for Vue 3, as Vue's guide to custom elements in TypeScript
 * recommends: a `GlobalComponents` entry typing its props (Vue sets a custom element's properties
 * when it has them) and its events (`@bot-answer-done`). Load them once, e.g.
 * `import type {} from 'bot-answer/vue'` in a `.d.ts` of your app; tell the compiler that
 * `bot-answer` is a custom element (`compilerOptions.isCustomElement`).
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { BotAnswer, BotAnswerAttributes, BotAnswerEventMap, BotAnswerProperties } from './element-types.js';

/** `<bot-answer>` as a Vue component type: its element instance, its props and its events. */
export type BotAnswerVue = new () => BotAnswer & {
  /** @deprecated For template prop types only: not on the element. */
  $props: HTMLAttributes & BotAnswerProperties & BotAnswerAttributes & PublicProps;
  /** @deprecated For template event types only: not on the element. */
  $emit: EmitFn<{ [K in keyof BotAnswerEventMap]: (event: BotAnswerEventMap[K]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    'bot-answer': BotAnswerVue;
  }
}
