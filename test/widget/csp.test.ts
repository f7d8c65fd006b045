import { expect, waitUntil } from '@open-wc/testing';
import type { BotAnswer } from '../../packages/bot-answer/src/widget/index.js';
import { bot } from './helpers.js';

type CspWindow = Window & typeof globalThis & { violations: string[] };

/** Loads the strict-CSP page (script-src 'self', no inline script or eval, Trusted Types required) in an iframe. */
async function cspPage(): Promise<CspWindow> {
  const frame = document.createElement('iframe');
  frame.src = '/test/widget/csp-page.html';
  frame.style.cssText = 'width:800px;height:600px';
  document.body.append(frame);
  await new Promise((r) => frame.addEventListener('load', r, { once: true }));
  const w = frame.contentWindow as CspWindow;
  await w.customElements.whenDefined('bot-answer');
  return w;
}

describe('<bot-answer> under a strict Content-Security-Policy with Trusted Types', () => {
  afterEach(() => document.querySelectorAll('iframe').forEach((f) => f.remove()));

  it('streams and renders an answer with citations and sources, and the page reports no violation', async () => {
    const w = await cspPage();
    const el = w.document.querySelector('bot-answer') as BotAnswer;
    el.botId = bot('ok');
    await el.updateComplete;
    el.ask('Q');
    await waitUntil(() => el.state == 'done', 'answer', { timeout: 8000 });
    await el.updateComplete;
    const root = el.shadowRoot!;
    expect(root.querySelectorAll('[part~=answer] a.citation')).to.have.length(3);
    expect(root.querySelector('[part~=answer] pre code')!.textContent).to.equal('const limit = 6;\n');
    (root.querySelector('[part=sources-toggle]') as HTMLElement).click();
    await el.updateComplete;
    expect(root.querySelectorAll('[part=source]')).to.have.length(3);
    // Styles apply (adopted style sheets are allowed by style-src 'self').
    expect(w.getComputedStyle(root.querySelector('[part=send]')!).borderTopStyle).to.equal('solid');
    el.botId = bot('echo');
    el.ask('<img src=x onerror=alert(1)> [x](javascript:alert(1)) **bold**');
    await waitUntil(() => el.state == 'done' && root.querySelectorAll('article').length == 2, 'second answer', { timeout: 8000 });
    expect(root.querySelectorAll('article')[1].querySelector('strong')!.textContent).to.equal('bold');
    expect(w.violations).to.deep.equal([]);
  });

  it('really enforces the policy: an HTML string sink and eval are refused and reported', async () => {
    const w = await cspPage();
    expect(() => (w.document.body.innerHTML = '<b>x</b>')).to.throw(/TrustedHTML/);
    expect(() => w.eval('1')).to.throw();
    await waitUntil(() => w.violations.length >= 2, 'violations reported');
    expect(w.violations.join()).to.contain('require-trusted-types-for');
  });
});
