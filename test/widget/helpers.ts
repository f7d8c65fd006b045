import { fixture, html, waitUntil } from '@open-wc/testing';
import { bot } from './stub.js';
import '../../packages/bot-answer/src/widget/index.js';
import type { BotAnswer } from '../../packages/bot-answer/src/widget/index.js';

// The element's box and chat in the page from the start, as they are once a visitor has shown intent (or a
// page called load()): these suites test the chat, and count the requests a question makes. Loading on
// intent is tested in loader.test.ts.
await document.createElement('bot-answer').load();

export { bot, count, scripted } from './stub.js';

/** An element talking to the stub endpoint. */
export const make = (scenario: string) =>
  fixture<BotAnswer>(html`<bot-answer bot-id=${bot(scenario)} endpoint="/stub/answer"></bot-answer>`);

/** First match in the element's shadow root. */
export const $ = <E extends Element = HTMLElement>(el: BotAnswer, sel: string) => el.shadowRoot!.querySelector<E>(sel)!;
/** All matches in the element's shadow root. */
export const $$ = <E extends Element = HTMLElement>(el: BotAnswer, sel: string) => [...el.shadowRoot!.querySelectorAll<E>(sel)];

/** Waits until the latest turn has left `answering`, then for the render. */
export async function settled(el: BotAnswer) {
  await waitUntil(() => el.state != 'answering' && el.state != 'idle', 'answer did not settle', { timeout: 8000 });
  await el.updateComplete;
}


/** Events of the given names fired by `el`, in order. */
export function record(el: EventTarget, ...names: string[]) {
  const log: CustomEvent[] = [];
  for (const name of names) el.addEventListener(name, (e) => log.push(e as CustomEvent));
  return log;
}
