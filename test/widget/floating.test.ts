import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { BotAnswer } from '../../packages/bot-answer/src/widget/index.js';
import { $, bot } from './helpers.js';

/** Whether the panel takes room or paints anywhere on the page. */
function visible(panel: HTMLElement) {
  const box = panel.getBoundingClientRect();
  return getComputedStyle(panel).display != 'none' && box.width > 0 && box.height > 0;
}

describe('<bot-answer mode="floating"> panel visibility', () => {
  after(() => setViewport({ width: 800, height: 600 }));

  for (const [width, height] of [
    [375, 667],
    [1280, 800],
  ]) {
    it(`at ${width} px: hidden before opening, shown when open, hidden after Escape and after hide()`, async () => {
      await setViewport({ width, height });
      expect(innerWidth).to.equal(width);
      const wrap = await fixture<HTMLDivElement>(html`<div>
        <p id="before">Before</p>
        <bot-answer bot-id=${bot('ok')} endpoint="/stub/answer" mode="floating"></bot-answer>
        <p id="after">After</p>
      </div>`);
      const el = wrap.querySelector('bot-answer') as BotAnswer;
      await el.updateComplete;
      const panel = $(el, '[part=panel]');
      const gap = () => wrap.querySelector('#after')!.getBoundingClientRect().top - wrap.querySelector('#before')!.getBoundingClientRect().bottom;
      // Closed: the element takes no room in the page flow (its launcher is fixed in the corner).
      const closedGap = gap();
      expect(visible(panel), 'before opening').to.equal(false);
      expect(el.getBoundingClientRect().height).to.equal(0);
      expect(visible($(el, '[part=launcher]'))).to.equal(true);

      await el.show();
      expect(visible(panel), 'open').to.equal(true);
      const box = panel.getBoundingClientRect();
      // Full screen on a phone, a centred box on a desktop; inside the viewport either way.
      expect(box.width).to.be.closeTo(width < 640 ? width : 640, 1);
      expect(box.left).to.be.at.least(0);
      expect(box.right).to.be.at.most(width + 0.5);

      await sendKeys({ press: 'Escape' });
      await waitUntil(() => !el.open, 'Escape closes');
      await el.updateComplete;
      expect(visible(panel), 'after Escape').to.equal(false);
      expect(gap()).to.equal(closedGap);

      await el.show();
      expect(visible(panel)).to.equal(true);
      el.hide();
      await el.updateComplete;
      expect(visible(panel), 'after hide()').to.equal(false);
      expect(gap()).to.equal(closedGap);
    });
  }
});

describe('<bot-answer mode="floating"> focus when the dialog closes', () => {
  after(() => setViewport({ width: 800, height: 600 }));

  /** The focused element, looking into the element's shadow root. */
  const focused = (el: BotAnswer) => (document.activeElement == el ? el.shadowRoot!.activeElement : document.activeElement);

  async function escape(el: BotAnswer) {
    await waitUntil(() => el.open && focused(el)?.getAttribute('part') == 'input', 'the dialog opens with the question field focused');
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => !el.open, 'Escape closes');
    await el.updateComplete;
  }

  for (const [width, height] of [
    [375, 667],
    [1280, 800],
  ]) {
    it(`at ${width} px: a tap that focuses nothing (as a finger on iOS) opens it; Escape puts focus on the launcher, not the body`, async () => {
      await setViewport({ width, height });
      const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${bot('ok')} endpoint="/stub/answer" mode="floating"></bot-answer>`);
      await el.updateComplete;
      const launcher = $(el, '[part=launcher]');
      (document.activeElement as HTMLElement | null)?.blur();
      launcher.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, composed: true, pointerType: 'touch' }));
      launcher.click();
      // Compared as booleans: a failing comparison of two elements would print them whole.
      expect(document.activeElement == document.body, 'control: nothing had focus').to.equal(true);
      await escape(el);
      expect(focused(el) == launcher, 'focus is on the launcher').to.equal(true);
    });

    it(`at ${width} px: the page's own button that called show() gets focus back`, async () => {
      await setViewport({ width, height });
      const wrap = await fixture<HTMLDivElement>(html`<div><button id="own">Help</button><bot-answer bot-id=${bot('ok')} endpoint="/stub/answer" mode="floating"></bot-answer></div>`);
      const el = wrap.querySelector('bot-answer') as BotAnswer;
      const own = wrap.querySelector<HTMLButtonElement>('#own')!;
      own.addEventListener('click', () => el.show());
      own.focus();
      await sendKeys({ press: 'Enter' });
      await escape(el);
      expect(document.activeElement == own, 'focus is on the button that opened it').to.equal(true);
    });
  }
});
