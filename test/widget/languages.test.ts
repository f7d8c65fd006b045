import { expect, fixture, html } from '@open-wc/testing';
import type { BotAnswer } from '../../packages/bot-answer/src/widget/index.js';
import { STRINGS } from '../../packages/bot-answer/src/widget/strings.js';
import { $, bot, settled } from './helpers.js';

const heading = (el: BotAnswer) => $(el, 'h2').textContent;
const placeholder = (el: BotAnswer) => $<HTMLTextAreaElement>(el, 'textarea').placeholder;

describe('<bot-answer> strings from HTML', () => {
  it('takes strings from a JSON attribute, over the defaults, and follows changes to it', async () => {
    const el = await fixture<BotAnswer>(html`<bot-answer bot-id="b" strings='{"heading":"Help desk","send":"Go"}'></bot-answer>`);
    expect([heading(el), $(el, '[part=send]').textContent, placeholder(el)]).to.deep.equal(['Help desk', 'Go', STRINGS.placeholder]);
    el.setAttribute('strings', '{"placeholder":"Your question here"}');
    await el.updateComplete;
    expect([heading(el), placeholder(el)]).to.deep.equal([STRINGS.heading, 'Your question here']);
  });

  it('warns in the console about an attribute that is not a JSON object, and keeps every default', async () => {
    const warn = console.warn;
    const warned: unknown[][] = [];
    console.warn = (...args: unknown[]) => warned.push(args);
    try {
      for (const bad of ['{"heading": "oops"', '["heading"]', '"Help"']) {
        const el = await fixture<BotAnswer>(html`<bot-answer bot-id="b" strings=${bad}></bot-answer>`);
        expect(heading(el), bad).to.equal(STRINGS.heading);
        expect(el.strings).to.deep.equal({});
      }
    } finally {
      console.warn = warn;
    }
    expect(warned).to.have.length(3);
    expect(String(warned[0][0])).to.match(/^bot-answer: /);
  });
});

describe('<bot-answer> translations', () => {
  it('switches to a translation once its module loads, chosen by lang or the nearest ancestor lang, and strings still win', async () => {
    const wrap = await fixture<HTMLDivElement>(html`<div>
      <bot-answer id="de" bot-id="b" lang="de"></bot-answer>
      <div lang="fr-CA"><bot-answer id="fr" bot-id="b"></bot-answer></div>
      <bot-answer id="own" bot-id="b" lang="de-AT" strings='{"heading":"Hilfe"}'></bot-answer>
      <bot-answer id="ja" bot-id="b" lang="ja"></bot-answer>
    </div>`);
    const box = (id: string) => wrap.querySelector<BotAnswer>(`#${id}`)!;
    // Nothing loaded yet: English.
    expect(['de', 'fr', 'ja'].map((id) => heading(box(id)))).to.deep.equal([STRINGS.heading, STRINGS.heading, STRINGS.heading]);
    await import('../../packages/bot-answer/src/widget/locales/de.js');
    await import('../../packages/bot-answer/src/widget/locales/fr.js');
    await Promise.all(['de', 'fr', 'own', 'ja'].map((id) => box(id).updateComplete));
    expect([heading(box('de')), placeholder(box('de'))]).to.deep.equal(['Stellen Sie eine Frage', 'Stellen Sie eine Frage…']);
    expect(heading(box('fr'))).to.equal('Posez une question');
    // de-AT falls back to de; its own strings attribute wins over the translation.
    expect([heading(box('own')), $(box('own'), '[part=send]').textContent]).to.deep.equal(['Hilfe', 'Senden']);
    // A language not loaded stays in English.
    expect(heading(box('ja'))).to.equal(STRINGS.heading);
    box('ja').lang = 'de';
    await box('ja').updateComplete;
    expect(heading(box('ja'))).to.equal('Stellen Sie eine Frage');
  });

  it('every translation module defines every string, each in its own language', async () => {
    await Promise.all([
      import('../../packages/bot-answer/src/widget/locales/de.js'),
      import('../../packages/bot-answer/src/widget/locales/fr.js'),
      import('../../packages/bot-answer/src/widget/locales/es.js'),
      import('../../packages/bot-answer/src/widget/locales/pt.js'),
      import('../../packages/bot-answer/src/widget/locales/ja.js'),
      import('../../packages/bot-answer/src/widget/locales/zh.js'),
    ]);
    const all = globalThis.botAnswerLocales!;
    for (const lang of ['de', 'fr', 'es', 'pt', 'ja', 'zh']) {
      expect(Object.keys(all[lang]).sort(), lang).to.deep.equal(Object.keys(STRINGS).sort());
      // Placeholders survive translation.
      expect(all[lang].sources, lang).to.contain('{n}');
      expect(all[lang].rate_limited, lang).to.contain('{n}');
      expect(all[lang].followUps, lang).to.contain('{n}');
      expect(all[lang].heading, lang).not.to.equal(STRINGS.heading);
    }
  });
});

describe('<bot-answer> says what of the conversation is sent', () => {
  it('shows the hint near the input once the thread has a turn, and not before', async () => {
    const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${bot('ok')} endpoint="/stub/answer" suggestions="A?|B?"></bot-answer>`);
    expect($(el, '[part=hint]')).to.equal(null);
    el.ask('Q');
    await settled(el);
    expect($(el, '[part=hint]').textContent).to.equal('Your last 3 questions and answers in this thread are sent with each new question.');
    el.history = 'off';
    await el.updateComplete;
    expect($(el, '[part=hint]').textContent).to.equal(STRINGS.independent);
    // Between the conversation and the question field, where the next question is typed.
    expect($(el, '[part=hint]').nextElementSibling!.tagName).to.equal('FORM');
    el.clear();
    await el.updateComplete;
    expect($(el, '[part=hint]')).to.equal(null);
  });
});
