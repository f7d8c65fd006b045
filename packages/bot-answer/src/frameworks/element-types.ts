/**
 * The element's surface as framework typings see it: the properties a template or JSX may set,
 * the attributes whose names differ from their property, and its events.
 */
import type { BotAnswer } from '../widget/bot-answer.js';
import type { ReactiveElement } from '../widget/reactive-element.js';
import type { BotAnswerEventMap } from '../widget/events.js';

export type { BotAnswer, BotAnswerEventMap };

/** Public properties of `<bot-answer>` a framework may set (every one is also reflected by an attribute but `strings`). */
export type BotAnswerProperties = {
  [K in keyof BotAnswer as K extends keyof ReactiveElement | 'state' ? never : BotAnswer[K] extends (...args: never[]) => unknown ? never : K]?: BotAnswer[K];
} & { lang?: string };

/** Attributes whose names are not their property's (frameworks that set attributes use these). */
export interface BotAnswerAttributes {
  /** Identifier of the bot that answers (required): the `botId` property. */
  'bot-id'?: string;
  /** `"false"` turns inline citations off: the `inlineSources` property. */
  'inline-sources'?: 'true' | 'false' | boolean;
}

/** `onbot-answer-done` and the like: a listener prop per event, as React 19 and Svelte 5 take them. */
export type BotAnswerOnEvents = {
  [K in keyof BotAnswerEventMap as `on${K}`]?: (event: BotAnswerEventMap[K]) => void;
};
