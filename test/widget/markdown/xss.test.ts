import { expect } from '@open-wc/testing';
import { renderMarkdown } from '../../../packages/bot-answer/src/widget/markdown/markdown.js';
import { StreamRenderer } from '../../../packages/bot-answer/src/widget/markdown/stream-renderer.js';
import { chunks, dangerous, frame, render, rng } from './helpers.js';

// The shared test vectors (a copy of the team's xss.json), loaded before the resource observer starts.
let vectors: Record<string, unknown[]>;
let payloads: string[];

const generated: Record<string, string> = {
  'A x 100,000': 'A'.repeat(100_000),
  'deep blockquote': `${'> '.repeat(2000)}a`,
  'list 1,000 deep': Array.from({ length: 1000 }, (_, i) => `${'  '.repeat(i)}- a`).join('\n'),
  '_a x 20,000': '_a'.repeat(20_000),
  '<div> x 10,000': '<div>'.repeat(10_000),
};

describe('hostile answers (shared test vectors)', () => {
  const calls: string[] = [];
  const resources: string[] = [];
  const saved = { alert: window.alert, confirm: window.confirm, prompt: window.prompt, print: window.print, open: window.open };
  let observer: PerformanceObserver;
  let host: HTMLElement;

  before(async () => {
    vectors = await (await fetch(new URL('./fixtures/xss.json', import.meta.url))).json();
    // Every string payload, used as answer Markdown (the source-field ones too: harmless to reuse).
    payloads = Object.entries(vectors)
      .filter(([key]) => key !== '_about' && key !== 'generated')
      .flatMap(([, list]) => list.filter((v): v is string => typeof v === 'string'));
    for (const name of Object.keys(saved) as (keyof typeof saved)[]) {
      (window as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        calls.push(`${name}(${args.join()})`);
        return null;
      };
    }
    observer = new PerformanceObserver((list) => resources.push(...list.getEntries().map((e) => e.name)));
    observer.observe({ type: 'resource' });
    host = document.createElement('div');
    document.body.append(host);
  });

  after(() => {
    Object.assign(window, saved);
    observer.disconnect();
    host.remove();
  });

  it('covers every payload', () => {
    expect(payloads.length).to.be.greaterThan(30);
    expect(vectors.generated.length).to.equal(Object.keys(generated).length);
  });

  it('renders every payload inert in one piece, with and without images: only text, safe links', () => {
    for (const src of payloads) {
      for (const images of [false, true]) {
        const el = render(src, { images });
        host.append(el);
        expect(dangerous(el), src).to.deep.equal([]);
        expect(el.textContent!.trim(), src).not.to.equal('');
      }
    }
  });

  it('keeps every payload inert in every frame when streamed one character at a time and in random chunks', () => {
    for (const src of payloads) {
      for (const split of [[...src], chunks(src, rng(src.length), 6)]) {
        const el = document.createElement('div');
        host.append(el);
        const r = new StreamRenderer(el);
        for (const c of split) {
          r.append(c);
          r.flush();
          expect(dangerous(el), `${src} @ ${r.text}`).to.deep.equal([]);
        }
        r.finish();
        expect(el.innerHTML, src).to.equal(render(src).innerHTML);
      }
    }
  });

  it('renders the generated inputs in one piece and streamed, inert and equal', function () {
    this.timeout(60_000);
    for (const [name, src] of Object.entries(generated)) {
      host.append(renderMarkdown(src));
      host.getBoundingClientRect();
      const el = document.createElement('div');
      host.append(el);
      const r = new StreamRenderer(el);
      for (const c of chunks(src, rng(1), 4000)) {
        r.append(c);
        r.flush();
        el.getBoundingClientRect();
        expect(dangerous(el), `${name} @ ${r.text.length}`).to.deep.equal([]);
      }
      r.finish();
      expect(dangerous(el), name).to.deep.equal([]);
      expect(el.innerHTML, name).to.equal(render(src).innerHTML);
      host.replaceChildren();
    }
  });

  it('ran no script and loaded nothing', async () => {
    // Give a leaked onerror/onload or a resource load the time to happen.
    await new Promise((r) => setTimeout(r, 300));
    await frame();
    expect(calls).to.deep.equal([]);
    expect(resources).to.deep.equal([]);
    expect(document.querySelector('base, meta[http-equiv]')).to.equal(null);
  });
});
