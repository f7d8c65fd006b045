import { fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/widget/index.js';
import type { BotAnswer } from '../../src/widget/index.js';

// The element's box and chat in the page from the start, as they are once a visitor has shown intent (or a
// page called load()): these suites test the chat, and count the requests a question makes. Loading on
// intent is tested in loader.test.ts.
await document.createElement('bot-answer').load();

let n = 0;
/** A bot id unique to this run: the stub picks its behaviour from the part before `:`. */
export const bot = (scenario: string) => `${scenario}:${Date.now()}-${n++}`;

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

/** Requests the stub received for a bot id. */
export const count = async (id: string) => +(await (await fetch(`/stub/count?bot=${encodeURIComponent(id)}`)).text());

/** Events of the given names fired by `el`, in order. */
export function record(el: EventTarget, ...names: string[]) {
  const log: CustomEvent[] = [];
  for (const name of names) el.addEventListener(name, (e) => log.push(e as CustomEvent));
  return log;
}

/**
 * Makes the stub's `script` scenario answer `result` for a new bot id, and returns that id. `slow` (or `true`)
 * streams with long pauses, `fine` as many small events.
 */
export async function scripted(result: { answer: string; answer_found?: boolean; sources?: unknown[] }, pace: boolean | 'slow' | 'fine' = false) {
  const id = bot(pace ? `script+${pace === true ? 'slow' : pace}` : 'script');
  await fetch(`/stub/script?bot=${encodeURIComponent(id)}`, { method: 'POST', body: JSON.stringify({ answer_found: true, sources: [], ...result }) });
  return id;
}
