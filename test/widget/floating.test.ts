import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { BotAnswer } from '../../src/widget/index.js';
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
