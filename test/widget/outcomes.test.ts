import { expect, fixture, html } from '@open-wc/testing';
import type { BotAnswer } from '../../packages/bot-answer/src/widget/index.js';
import { $, $$, record, scripted, settled } from './helpers.js';

/** axe in the light and the dark theme. */
async function accessible(el: BotAnswer) {
  for (const theme of ['light', 'dark'] as const) {
    el.theme = theme;
    await el.updateComplete;
    await expect(el).to.be.accessible();
  }
}

const CLOSEST = [
  { url: 'https://docs.example.com/benefits', title: 'Benefits', snippet: 'Health and wellbeing.' },
  { url: 'https://docs.example.com/office', title: 'Office life' },
];
const ANSWERS: Record<'answered' | 'not_sure' | 'refused', { answer: string; answer_found: boolean; sources: unknown[] }> = {
  answered: { answer: 'Roll back with `deploy rollback` [[1]](https://docs.example.com/rollback).', answer_found: true, sources: [{ url: 'https://docs.example.com/rollback', title: 'Rollback' }] },
  not_sure: { answer: "I'm not sure the docs answer this. These pages look closest.", answer_found: false, sources: CLOSEST },
  refused: { answer: "I couldn't find anything about this in the docs.", answer_found: false, sources: [] },
};
type Outcome = keyof typeof ANSWERS;

/** An element answered `outcome` by the stub, streamed or as JSON, with the proxy's `outcome` field or (an older proxy) without. */
async function answered(outcome: Outcome, stream: boolean, saysOutcome: boolean) {
  const id = await scripted({ ...ANSWERS[outcome], ...(saysOutcome ? { outcome } : {}) });
  const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${id} endpoint="/stub/answer" .stream=${stream} feedback></bot-answer>`);
  const done = record(el, 'bot-answer-done');
  el.ask('Is there a gym discount?');
  await settled(el);
  return { el, done };
}

const emoji = /\p{Extended_Pictographic}/u;

describe('<bot-answer> the three outcomes of an answer', () => {
  for (const stream of [true, false]) {
    for (const saysOutcome of [true, false]) {
      const mode = `${stream ? 'streamed' : 'JSON'}, ${saysOutcome ? "the proxy's outcome" : 'derived (a proxy without the field)'}`;

      it(`answered (${mode}): the answer with its sources and thumbs, as before`, async () => {
        const { el, done } = await answered('answered', stream, saysOutcome);
        expect(el.state).to.equal('done');
        expect($(el, '[part=sources-toggle]').textContent).to.equal('Sources (1)');
        expect($(el, '[part=related]')).to.equal(null);
        expect($$(el, '.acts button[aria-label]').map((b) => b.getAttribute('aria-label'))).to.deep.equal(['Helpful', 'Not helpful']);
        expect(done[0]!.detail).to.deep.include({ answer: ANSWERS.answered.answer, answer_found: true, outcome: 'answered' });
        await accessible(el);
      });

      it(`not sure (${mode}): the short text, then the related pages as a labelled list of links, no sources, thumbs kept`, async () => {
        const { el, done } = await answered('not_sure', stream, saysOutcome);
        expect(el.state).to.equal('no-answer');
        expect($(el, '[part~=answer]').textContent!.trim()).to.equal(ANSWERS.not_sure.answer);
        expect($(el, '[part=sources-toggle]'), 'never the sources toggle').to.equal(null);
        expect($(el, '[part=sources]')).to.equal(null);
        expect($(el, '.turn .note'), 'the text says it: no note under it').to.equal(null);
        const related = $(el, '[part=related]');
        const list = related.querySelector('ul')!;
        expect(el.shadowRoot!.getElementById(list.getAttribute('aria-labelledby')!)!.textContent).to.equal('Related pages');
        const links = [...list.querySelectorAll('a')];
        expect(links.map((a) => [a.textContent, a.href, a.target])).to.deep.equal(CLOSEST.map((s) => [s.title, s.url, '_blank']));
        expect($$(el, '.acts button[aria-label]').map((b) => b.getAttribute('aria-label'))).to.deep.equal(['Helpful', 'Not helpful']);
        expect($(el, '[part=status]').textContent).to.equal('No sure answer. These pages may help.');
        expect(done[0]!.detail).to.deep.include({ answer_found: false, outcome: 'not_sure' });
        expect(done[0]!.detail.sources).to.deep.equal(CLOSEST);
        await accessible(el);

        const clicks = record(el, 'bot-answer-source-click');
        el.shadowRoot!.addEventListener('click', (e) => e.preventDefault(), { once: true });
        links[1]!.click();
        expect(clicks[0]!.detail).to.deep.include({ index: 1, related: true, question: 'Is there a gym discount?' });
      });

      it(`refused (${mode}): the text only`, async () => {
        const { el, done } = await answered('refused', stream, saysOutcome);
        expect(el.state).to.equal('no-answer');
        expect($(el, '[part~=answer]').textContent!.trim()).to.equal(ANSWERS.refused.answer);
        expect($(el, '[part=related]')).to.equal(null);
        expect($(el, '[part=sources-toggle]')).to.equal(null);
        expect($(el, '.turn .note')).to.equal(null);
        expect(done[0]!.detail).to.deep.include({ answer_found: false, outcome: 'refused' });
        await accessible(el);
      });
    }
  }

  it("a not-sure answer without text says so itself; one the proxy calls not sure without pages shows no empty list", async () => {
    const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${await scripted({ answer: '', answer_found: false, sources: CLOSEST })} endpoint="/stub/answer"></bot-answer>`);
    el.ask('Q');
    await settled(el);
    expect($(el, '.turn .note').textContent!.trim()).to.equal('No sure answer. These pages may help.');
    expect($$(el, '[part=related] li').length).to.equal(2);
  });

  it('a hostile page title and URL in the related pages are shown as text, never as markup or a script link', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
    const id = await scripted({
      answer: 'Not sure.',
      answer_found: false,
      sources: [
        { url: 'https://docs.example.com/a', title: hostile },
        { url: 'javascript:window.__pwned=1', title: 'Script link' },
      ],
      outcome: 'not_sure',
    });
    const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${id} endpoint="/stub/answer"></bot-answer>`);
    el.ask('Q');
    await settled(el);
    const items = $$(el, '[part=related] li');
    expect(items[0]!.textContent).to.equal(hostile);
    expect($$(el, '[part=related] img, [part=related] script').length).to.equal(0);
    expect(items[1]!.querySelector('a'), 'a javascript: URL is not a link').to.equal(null);
    expect(items[1]!.textContent).to.equal('Script link');
    expect((window as unknown as { __pwned?: number }).__pwned).to.equal(undefined);
    await accessible(el);
  });

  it('says "Related pages" in every language', async () => {
    await Promise.all([
      import('../../packages/bot-answer/src/widget/locales/de.js'),
      import('../../packages/bot-answer/src/widget/locales/es.js'),
      import('../../packages/bot-answer/src/widget/locales/fr.js'),
      import('../../packages/bot-answer/src/widget/locales/ja.js'),
      import('../../packages/bot-answer/src/widget/locales/pt.js'),
      import('../../packages/bot-answer/src/widget/locales/zh.js'),
    ]);
    const names: Record<string, string> = { en: 'Related pages', de: 'Verwandte Seiten', es: 'Páginas relacionadas', fr: 'Pages associées', ja: '関連ページ', pt: 'Páginas relacionadas', zh: '相关页面' };
    for (const [lang, name] of Object.entries(names)) {
      const el = await fixture<BotAnswer>(html`<bot-answer lang=${lang} bot-id=${await scripted({ ...ANSWERS.not_sure, outcome: 'not_sure' })} endpoint="/stub/answer"></bot-answer>`);
      el.ask('Q');
      await settled(el);
      expect($(el, '[part=related] .rl').textContent, lang).to.equal(name);
    }
  });
});

describe('<bot-answer> rating buttons', () => {
  it('draw their thumbs as inline SVG in currentColor, with no emoji, and keep their names', async () => {
    const { el } = await answered('answered', true, true);
    const thumbs = $$(el, '.acts button[aria-pressed]');
    expect(thumbs.map((b) => b.getAttribute('aria-label'))).to.deep.equal(['Helpful', 'Not helpful']);
    for (const button of thumbs) {
      const icon = button.querySelector('svg')!;
      expect(icon, 'an svg icon').to.not.equal(null);
      expect(icon.getAttribute('aria-hidden')).to.equal('true');
      expect(getComputedStyle(icon.querySelector('path')!).stroke).to.equal(getComputedStyle(button).color);
      expect(emoji.test(button.textContent!), 'no emoji character').to.equal(false);
      expect(icon.getBoundingClientRect().width).to.be.greaterThan(0);
    }
    await accessible(el);
  });
});
