import { expect, fixture, html } from '@open-wc/testing';
import '../../packages/bot-answer/src/widget/index.js';
import { BotAnswer } from '../../packages/bot-answer/src/widget/index.js';

describe('<bot-answer> registration', () => {
  it('defines the custom element once, even when imported twice', async () => {
    await import('../../packages/bot-answer/src/widget/index.js');
    expect(customElements.get('bot-answer')).to.equal(BotAnswer);
  });

  it('shows a visible configuration message without bot-id', async () => {
    const el = await fixture<BotAnswer>(html`<bot-answer></bot-answer>`);
    const message = el.shadowRoot!.querySelector('[part~="error"]');
    expect(message?.textContent).to.contain('bot-id');
  });
});
