import { renderMarkdown, type RenderOptions } from '../../../packages/bot-answer/src/widget/markdown/markdown.js';

/** Renders Markdown in one piece into a detached element and returns it. */
export function render(src: string, opts?: RenderOptions): HTMLElement {
  const el = document.createElement('div');
  el.append(renderMarkdown(src, opts));
  return el;
}

/** Waits for the next animation frame (callbacks registered before this one have run). */
export const frame = () => new Promise<number>((r) => requestAnimationFrame(r));

/** A small seeded PRNG (mulberry32), so random chunkings are reproducible. */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Splits text into chunks of 1..max characters chosen by `rand`. */
export function chunks(text: string, rand: () => number, max = 40): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(rand() * max);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

/** Every attribute in the subtree that could run script or load something: event handlers and non-http(s)/mailto URLs. */
export function dangerous(root: ParentNode): string[] {
  const bad: string[] = [];
  for (const el of root.querySelectorAll('*')) {
    if (/^(script|iframe|object|embed|form|input|button|style|link|meta|base|svg|math|template|noscript)$/i.test(el.localName)) {
      bad.push(`<${el.localName}>`);
    }
    for (const { name, value } of el.attributes) {
      if (/^on/i.test(name) || name === 'style' || name === 'id' || name === 'name' || name === 'srcdoc') bad.push(`${name}=${value}`);
      if (/^(href|src|action|formaction|xlink:href)$/i.test(name) && !/^(https?:|mailto:)/i.test(value)) bad.push(`${name}=${value}`);
    }
  }
  return bad;
}
