import type { BotAnswer } from '../../packages/bot-answer/src/widget/index.js';

/** A fresh page in an iframe (its own module map: nothing of the element loaded yet) with the element from the sources. */
export type FramePage = { w: Window & typeof globalThis; doc: Document; el: BotAnswer; frame: HTMLIFrameElement };

/** Loads `body` (and `head`) in a new iframe of `css`, and waits for its `<bot-answer>` to render. */
export async function framePage(body: string, { head = '', css = 'width:800px;height:600px;border:0;display:block' } = {}): Promise<FramePage> {
  const frame = document.createElement('iframe');
  frame.style.cssText = css;
  frame.srcdoc = `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}<script type="module" src="/packages/bot-answer/src/widget/index.ts"></script></head><body>${body}</body></html>`;
  document.body.append(frame);
  await new Promise((r) => frame.addEventListener('load', r, { once: true }));
  const w = frame.contentWindow as Window & typeof globalThis;
  await w.customElements.whenDefined('bot-answer');
  const el = w.document.querySelector('bot-answer') as BotAnswer;
  await el.updateComplete;
  return { w, doc: w.document, el, frame };
}
