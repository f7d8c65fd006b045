/**
 * JSX typings of `<bot-answer>` for React 19, which sets a custom element's properties when the
 * element has them (once it is defined) and adds a listener for each `on<event-name>` prop.
 * Load them once, e.g. `import type {} from 'bot-answer/react'` in a `.d.ts` of your app.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { BotAnswer, BotAnswerAttributes, BotAnswerOnEvents, BotAnswerProperties } from './element-types.js';

/** `onbot-answer-done` and the like: React 19 listens to the event named after `on`. */
export type BotAnswerReactEvents = BotAnswerOnEvents;

/** Props of `<bot-answer>` in JSX. */
export type BotAnswerReactProps = DetailedHTMLProps<HTMLAttributes<BotAnswer>, BotAnswer> & BotAnswerProperties & BotAnswerAttributes & BotAnswerReactEvents;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'bot-answer': BotAnswerReactProps;
    }
  }
}
