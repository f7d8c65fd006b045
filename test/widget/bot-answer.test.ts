import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import type { BotAnswer } from '../../packages/bot-answer/src/widget/index.js';
import { $, $$, bot, count, make, record, scripted, settled } from './helpers.js';
// @ts-expect-error plain JS test fixture
import { ANSWER, SOURCES } from './stub-endpoint.mjs';

const EVENTS = ['bot-answer-submit', 'bot-answer-start', 'bot-answer-done', 'bot-answer-error'];

/** axe in the light and the dark theme. */
async function accessible(el: BotAnswer) {
  const theme = el.theme;
  for (const t of ['light', 'dark'] as const) {
    el.theme = t;
    await el.updateComplete;
    await expect(el).to.be.accessible();
  }
  el.theme = theme;
  await el.updateComplete;
}

const status = (el: BotAnswer) => $(el, '[part=status]').textContent!.trim();

describe('<bot-answer>', () => {
  afterEach(() => emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' }));

  it('mirrors its attributes as properties', async () => {
    const el = await fixture<BotAnswer>(html`<bot-answer
      bot-id="b"
      endpoint="/x"
      inline-sources="false"
      stream="false"
      mode="floating"
      theme="dark"
      placeholder="Type"
      heading="Help"
      suggestions='["One?","Two?"]'
      persist
      lang="fr"
    ></bot-answer>`);
    expect([el.botId, el.endpoint, el.inlineSources, el.stream, el.mode, el.theme, el.placeholder, el.heading, el.persist, el.lang]).to.deep.equal(
      ['b', '/x', false, false, 'floating', 'dark', 'Type', 'Help', true, 'fr'],
    );
    expect(el.suggestions).to.deep.equal(['One?', 'Two?']);
    el.setAttribute('suggestions', ' A? | B? |');
    el.setAttribute('inline-sources', '');
    el.setAttribute('persist', 'false');
    expect([el.suggestions, el.inlineSources, el.persist]).to.deep.equal([['A?', 'B?'], true, false]);
    // JSON after white space is still JSON; text that is not JSON is never parsed as such.
    el.setAttribute('suggestions', '\n  ["C?", "D|E?"]');
    expect(el.suggestions).to.deep.equal(['C?', 'D|E?']);
    const d = await fixture<BotAnswer>(html`<bot-answer bot-id="b"></bot-answer>`);
    expect([d.endpoint, d.inlineSources, d.stream, d.mode, d.persist]).to.deep.equal(['/api/answer', true, true, 'inline', false]);
  });

  it('sends the request the attributes ask for', async () => {
    const id = bot('ok');
    const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${id} endpoint="/stub/answer" inline-sources="false" stream="false"></bot-answer>`);
    el.ask('  Hello?  ');
    await settled(el);
    expect(await (await fetch(`/stub/last?bot=${id}`)).json()).to.deep.equal({ message: 'Hello?', bot_id: id, inline_sources: false, stream: false, history: [] });
    el.removeAttribute('stream');
    el.inlineSources = true;
    el.ask('Again');
    await waitUntil(() => $$(el, '.turn.done').length == 2);
    expect(await (await fetch(`/stub/last?bot=${id}`)).json()).to.deep.include({ inline_sources: true, stream: true });
  });

  it('shows images from answers only with the images attribute', async () => {
    const answer = 'Look: ![chart](https://127.0.0.1:9/chart.png)';
    const plain = await fixture<BotAnswer>(html`<bot-answer bot-id=${await scripted({ answer })} endpoint="/stub/answer"></bot-answer>`);
    plain.ask('Q');
    await settled(plain);
    expect($(plain, '[part~=answer] img')).to.equal(null);
    expect($(plain, '[part~=answer] a')!.getAttribute('href')).to.equal('https://127.0.0.1:9/chart.png');
    const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${await scripted({ answer })} endpoint="/stub/answer" images></bot-answer>`);
    el.ask('Q');
    await settled(el);
    const img = $<HTMLImageElement>(el, '[part~=answer] img');
    expect([img.alt, img.loading, img.getAttribute('referrerpolicy')]).to.deep.equal(['chart', 'lazy', 'no-referrer']);
  });

  it('shows suggestions while idle and asks one when clicked', async () => {
    const el = await make('ok');
    el.suggestions = ['How do I travel?'];
    await el.updateComplete;
    expect(el.state).to.equal('idle');
    expect($(el, '[part=thread]').getAttribute('role')).to.equal('log');
    await accessible(el);
    const log = record(el, ...EVENTS);
    $(el, '[part=suggestion]').click();
    await settled(el);
    expect(log.map((e) => e.type)).to.deep.equal(EVENTS.slice(0, 3));
    expect(log[0].detail).to.deep.equal({ message: 'How do I travel?' });
    expect($(el, 'ul.sg')).to.equal(null);
  });

  it('sends on Enter, adds a line on Shift+Enter, and streams the answer with citations and sources', async () => {
    // Paced slowly: at full pace the whole stream can land in one read on a busy machine, and the
    // `answering` state this test reads would come and go between two polls.
    const el = await make('ok+slow');
    const log = record(el, ...EVENTS);
    const input = $<HTMLTextAreaElement>(el, 'textarea');
    input.focus();
    await sendKeys({ type: 'Where' });
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: 'Enter' });
    await sendKeys({ up: 'Shift' });
    await sendKeys({ type: 'to?' });
    expect(input.value).to.equal('Where\nto?');
    expect(log).to.have.length(0);
    await sendKeys({ press: 'Enter' });
    expect(input.value).to.equal('');
    await waitUntil(() => el.state == 'answering');
    await el.updateComplete;
    expect(status(el)).to.equal('Answering…');
    await settled(el);
    expect(el.state).to.equal('done');
    expect(status(el)).to.equal('Answer ready');
    expect(log.map((e) => [e.type, e.bubbles, e.composed])).to.deep.equal(EVENTS.slice(0, 3).map((t) => [t, true, true]));
    expect(log[0].cancelable).to.equal(true);
    expect(log[2].detail.answer).to.equal(ANSWER);
    expect(log[2].detail.answer_found).to.equal(true);
    expect(log[2].detail.sources).to.have.length(3);
    expect($(el, '[part~=question]').textContent).to.equal('Where\nto?');
    const answer = $(el, '[part~=answer]');
    expect(answer.querySelector('strong')!.textContent).to.equal('economy');
    expect(answer.querySelectorAll('a.citation')).to.have.length(3);
    expect(answer.querySelector('table')).to.exist;
    await accessible(el);
  });

  it('does nothing when bot-answer-submit is cancelled', async () => {
    const el = await make('ok');
    el.addEventListener('bot-answer-submit', (e) => e.preventDefault());
    expect(el.ask('Hello?')).to.equal(false);
    const input = $<HTMLTextAreaElement>(el, 'textarea');
    input.value = 'Kept';
    $(el, '[part=send]').click();
    expect(input.value).to.equal('Kept');
    await aTimeout(100);
    expect(el.state).to.equal('idle');
    expect(await count(el.botId)).to.equal(0);
  });

  it('is accessible while answering, and Stop keeps what arrived, marked as stopped', async () => {
    const el = await make('long+slow');
    const log = record(el, ...EVENTS);
    el.ask('Q');
    await waitUntil(() => $(el, '[part~=answer]')?.textContent);
    await el.updateComplete;
    expect($(el, '[part=sources-toggle]').getAttribute('aria-expanded')).to.equal('false');
    await accessible(el);
    $(el, '[part=stop]').click();
    await settled(el);
    expect(el.state).to.equal('stopped');
    expect(status(el)).to.equal('Stopped');
    expect($(el, '.turn.stopped .note').textContent).to.contain('Stopped');
    const kept = $(el, '[part~=answer]').textContent!;
    expect(kept).not.to.equal('');
    expect(kept).to.contain('Part 1');
    expect($(el, '[part=stop]')).to.equal(null);
    expect(log.map((e) => e.type)).to.deep.equal(EVENTS.slice(0, 2));
    await accessible(el);
  });

  it('a new question aborts the running one', async () => {
    const el = await make('long+slow');
    el.ask('First');
    await waitUntil(() => $(el, '[part~=answer]')?.textContent);
    el.stream = false;
    el.ask('Second');
    await waitUntil(() => el.state == 'done', 'second answer', { timeout: 8000 });
    await el.updateComplete;
    const turns = $$(el, '.turn');
    expect(turns.map((t) => t.className.replace('turn ', ''))).to.deep.equal(['stopped', 'done']);
  });

  it('shows no answer found', async () => {
    const el = await make('noanswer');
    const log = record(el, 'bot-answer-done');
    el.ask('Q');
    await settled(el);
    expect(el.state).to.equal('no-answer');
    expect(log[0].detail.answer_found).to.equal(false);
    expect(status(el)).to.contain('No answer found');
    await accessible(el);
  });

  const failures: [string, string, RegExp][] = [
    ['rate', 'rate_limited', /Try again in 7 seconds/],
    ['unknown', 'unknown_bot', /not available/],
    ['down', 'upstream_error', /unavailable/],
    ['midfail', 'upstream_timeout', /took too long/],
    ['cut', 'stream_interrupted', /interrupted/],
  ];
  for (const [scenario, code, message] of failures) {
    it(`explains ${code} to the visitor and offers Retry`, async () => {
      const el = await make(scenario);
      const log = record(el, 'bot-answer-error');
      el.ask('Q');
      await settled(el);
      expect(el.state).to.equal('error');
      expect(log[0].detail.code).to.equal(code);
      expect(log[0].detail.message).to.be.a('string');
      expect($(el, '[part=error]').textContent).to.match(message);
      expect(status(el)).to.match(message);
      expect($(el, '[part=error] button').textContent).to.equal('Retry');
      await accessible(el);
    });
  }

  it('explains network failures and timeouts', async () => {
    const el = await make('hang');
    el.timeout = 300;
    el.ask('Q');
    await settled(el);
    expect(status(el)).to.match(/took too long/);
    el.endpoint = 'http://127.0.0.1:9/answer';
    $(el, '[part=error] button').click();
    await waitUntil(() => el.state == 'error' && /connection/.test(status(el)), 'network message');
  });

  it('never retries by itself; Retry asks again in the same turn', async () => {
    const el = await make('flaky');
    el.ask('Q');
    await settled(el);
    expect(el.state).to.equal('error');
    await aTimeout(200);
    expect(await count(el.botId)).to.equal(1);
    const log = record(el, ...EVENTS);
    $(el, '[part=error] button').click();
    await waitUntil(() => el.state == 'done', 'retried answer', { timeout: 8000 });
    expect(await count(el.botId)).to.equal(2);
    expect(log.map((e) => e.type)).to.deep.equal(['bot-answer-start', 'bot-answer-done']);
    expect($$(el, '.turn')).to.have.length(1);
    expect($(el, '[part=error]')).to.equal(null);
  });

  it('renders the JSON mode exactly like the stream, for a long answer in random chunks', async () => {
    const a = await make('long');
    const b = await make('long');
    b.setAttribute('stream', 'false');
    // The status is announced per state, never per token.
    const seen: string[] = [];
    let mutations = 0;
    const mo = new MutationObserver(() => (mutations++, seen.push(status(a))));
    mo.observe($(a, '[part=status]'), { childList: true, characterData: true, subtree: true });
    a.ask('Q');
    b.ask('Q');
    await settled(a);
    await settled(b);
    await aTimeout(50);
    mo.disconnect();
    expect([...new Set(seen)]).to.deep.equal(['Answering…', 'Answer ready']);
    expect(mutations).to.be.below(5);
    const html = (el: BotAnswer) => $(el, '[part~=answer]').innerHTML;
    expect(html(a).length).to.be.greaterThan(2000);
    expect(html(a)).to.equal(html(b));
  });

  it('lists sources safely: collapsible, http(s) links only, author names without photos, dates, text only', async () => {
    const el = await make('ok');
    const clicks = record(el, 'bot-answer-source-click');
    el.ask('Q');
    await settled(el);
    const toggle = $(el, '[part=sources-toggle]');
    const list = $(el, `#${toggle.getAttribute('aria-controls')}`);
    expect(list.getAttribute('part')).to.equal('sources');
    expect(toggle.getAttribute('aria-expanded')).to.equal('false');
    expect(list.hidden).to.equal(true);
    expect(getComputedStyle(list).display).to.equal('none');
    toggle.click();
    await el.updateComplete;
    expect(toggle.getAttribute('aria-expanded')).to.equal('true');
    expect(list.hidden).to.equal(false);
    const [s1, s2, s3] = $$(el, '[part=source]');
    const a = s1.querySelector('a')!;
    expect([a.href, a.target, a.rel]).to.deep.equal(['https://wiki.example.com/travel', '_blank', 'noopener noreferrer']);
    // The author is a name in the meta line; no photo is ever loaded (a third-party request telling its host who read what).
    expect([...s1.querySelectorAll('.meta bdi')].map((b) => b.textContent)).to.deep.equal(['Confluence', 'Dana Reyes']);
    expect(s2.querySelector('.meta')!.textContent).to.contain('Lee Wu');
    expect($$(el, '[part=sources] img')).to.have.length(0);
    expect(list.innerHTML).not.to.contain('.png');
    // javascript: title link is dropped; the HTML in fields is text.
    expect(s2.querySelector('a')).to.equal(null);
    expect(s2.querySelector('bdi')!.textContent).to.equal('مستند <b>عربي</b>');
    expect(s2.querySelector('p')!.textContent).to.equal('<img src=x onerror=alert(1)>');
    expect(s2.querySelector('p')!.getAttribute('dir')).to.equal('auto');
    // Seconds and milliseconds give the same date; a bad value gives none.
    expect(s1.querySelector('time')!.dateTime).to.equal('2024-10-29T23:11:22.000Z');
    expect(s2.querySelector('time')!.dateTime).to.equal('2024-10-29T23:11:22.000Z');
    expect(s3.querySelector('time')).to.equal(null);
    // The date is written in the box's language, which can change; an invalid tag falls back to the browser's.
    const when = new Date('2024-10-29T23:11:22.000Z');
    const medium = (l?: string) => new Intl.DateTimeFormat(l, { dateStyle: 'medium' }).format(when);
    const shown = () => $$(el, '[part=source] time')[0].textContent;
    expect(shown()).to.equal(medium());
    for (const [lang, expected] of [['de', medium('de')], ['fr', medium('fr')], ['not a tag!', medium()]]) {
      el.lang = lang;
      await el.updateComplete;
      expect(shown(), lang).to.equal(expected);
    }
    expect(medium('de')).not.to.equal(medium());
    el.lang = '';
    await el.updateComplete;
    expect(s3.textContent).to.contain('No link');
    a.addEventListener('click', (e) => e.preventDefault());
    a.click();
    expect(clicks[0].detail).to.deep.equal({ source: SOURCES[0], index: 0, question: 'Q' });
    await accessible(el);
  });

  it('opens the sources panel at the cited entry when a citation is clicked', async () => {
    const el = await make('ok');
    el.ask('Q');
    await settled(el);
    const cite = $(el, '[part~=answer] a.citation[data-citation="2"]');
    const ev = new MouseEvent('click', { bubbles: true, composed: true, cancelable: true });
    cite.dispatchEvent(ev);
    expect(ev.defaultPrevented).to.equal(true);
    await waitUntil(() => el.shadowRoot!.activeElement?.getAttribute('part') == 'source');
    expect($(el, '[part=sources-toggle]').getAttribute('aria-expanded')).to.equal('true');
    expect(el.shadowRoot!.activeElement!.textContent).to.contain('مستند');
  });

  it('copies the answer and code blocks, and emits feedback', async () => {
    let copied = '';
    const clip = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard')!;
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (s: string) => void (copied = s) } });
    try {
      const el = await make('ok');
      const fb = record(el, 'bot-answer-feedback');
      el.ask('Q');
      await settled(el);
      const copy = $$(el, '.acts button')[0];
      copy.click();
      await waitUntil(() => copy.textContent!.trim() == 'Copied');
      expect(copied).to.equal(ANSWER);
      // Each code block has its copy button.
      const pre = $(el, '[part~=answer] pre');
      const cc = pre.querySelector('button')!;
      expect($$(el, '.cc')).to.deep.equal([cc]);
      expect([cc.className, cc.textContent]).to.deep.equal(['cc', 'Copy code']);
      expect(cc.checkVisibility({ opacityProperty: true, visibilityProperty: true })).to.equal(true);
      // Keyboard: the code block is focusable (it may scroll), then its button, which Enter presses.
      pre.focus();
      await sendKeys({ press: 'Tab' });
      expect(el.shadowRoot!.activeElement).to.equal(cc);
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => copied == 'const limit = 6;\n', 'copied ' + JSON.stringify(copied));
      await waitUntil(() => cc.textContent == 'Copied');
      // The language changes: the button follows, as the other controls do.
      el.strings = { copied: 'Kopiert' };
      await el.updateComplete;
      expect(cc.textContent).to.equal('Kopiert');
      // The button sits in the block's top corner, on a line of its own: it hides none of the code.
      const [b, p, c] = [cc.getBoundingClientRect(), pre.getBoundingClientRect(), pre.querySelector('code')!.getBoundingClientRect()];
      expect(b.top).to.be.within(p.top, p.top + 20);
      expect(b.right).to.be.within(p.right - 20, p.right);
      expect(c.top).to.be.at.least(b.bottom);
      const [up, down] = $$(el, '.acts button').slice(1);
      up.click();
      await el.updateComplete;
      expect(up.getAttribute('aria-pressed')).to.equal('true');
      down.click();
      await el.updateComplete;
      expect([up.getAttribute('aria-pressed'), down.getAttribute('aria-pressed')]).to.deep.equal(['false', 'true']);
      expect(fb.map((e) => e.detail.value)).to.deep.equal(['up', 'down']);
      expect(fb[0].detail).to.deep.include({ question: 'Q', answer: ANSWER });
    } finally {
      Object.defineProperty(navigator, 'clipboard', clip);
      delete (navigator as any).clipboard;
    }
  });

  it('gives a code block its copy button once it can no longer change, and it copies that block', async () => {
    let copied = '';
    const clip = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard')!;
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (s: string) => void (copied = s) } });
    try {
      const answer = 'Intro\n\n```\none\n```\n\n> Quoted:\n>\n> ```sh\n> two\n> more\n> ```\n\n' + 'Words follow. '.repeat(8);
      const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${await scripted({ answer }, true)} endpoint="/stub/answer"></bot-answer>`);
      el.ask('Q');
      // While streaming, a committed block has its button and a live one (replaced at every update) has none.
      const buttons = () => $$(el, '[part~=answer] pre').map((p) => p.querySelectorAll('.cc').length);
      await waitUntil(() => buttons().length == 2 && buttons()[0] == 1, 'first block committed', { timeout: 8000 });
      expect(el.state).to.equal('answering');
      expect(buttons()).to.deep.equal([1, 0]);
      const first = $(el, '[part~=answer] pre .cc');
      await settled(el);
      const [one, two] = $$(el, '[part~=answer] pre');
      expect(one.querySelector('.cc')).to.equal(first);
      expect(two.querySelectorAll('.cc')).to.have.length(1);
      two.querySelector<HTMLElement>('.cc')!.click();
      await waitUntil(() => copied == 'two\nmore\n', 'copied ' + JSON.stringify(copied));
      first.click();
      await waitUntil(() => copied == 'one\n', 'copied ' + JSON.stringify(copied));
      // Only the button used says so.
      expect($$(el, '.cc').map((b) => b.textContent)).to.deep.equal(['Copied', 'Copy code']);
      expect(el.state).to.equal('done');
    } finally {
      Object.defineProperty(navigator, 'clipboard', clip);
      delete (navigator as any).clipboard;
    }
  });

  it('starts over with the visible control or clear()', async () => {
    const el = await make('ok');
    el.suggestions = ['S?'];
    el.ask('Q');
    await settled(el);
    const over = $$(el, '.hd button').find((b) => b.textContent == 'Start over')!;
    over.click();
    await el.updateComplete;
    expect(el.state).to.equal('idle');
    expect($$(el, '.turn')).to.have.length(0);
    expect($(el, 'ul.sg')).to.exist;
    el.ask('Again');
    await settled(el);
    el.clear();
    await el.updateComplete;
    expect($$(el, '.turn')).to.have.length(0);
  });

  it('keeps the thread for the session with persist', async () => {
    const id = bot('ok');
    const first = await fixture<BotAnswer>(html`<bot-answer bot-id=${id} endpoint="/stub/answer" persist></bot-answer>`);
    first.ask('Kept?');
    await settled(first);
    first.remove();
    const again = await fixture<BotAnswer>(html`<bot-answer bot-id=${id} endpoint="/stub/answer" persist></bot-answer>`);
    await waitUntil(() => $(again, '[part~=answer] a.citation'));
    expect($(again, '[part~=question]').textContent).to.equal('Kept?');
    expect(again.state).to.equal('done');
    const other = await fixture<BotAnswer>(html`<bot-answer bot-id=${id} endpoint="/stub/answer"></bot-answer>`);
    expect(other.state).to.equal('idle');
    again.clear();
    expect(sessionStorage.getItem('bot-answer:' + id)).to.equal(null);
  });

  it('adds no landmark of its own to the page: an open floating box beside the page\'s banner passes axe', async () => {
    const wrap = await fixture<HTMLElement>(html`<div>
      <header><p>Site</p></header>
      <main><p>Page</p></main>
      <bot-answer bot-id=${bot('ok')} endpoint="/stub/answer" mode="floating"></bot-answer>
    </div>`);
    const el = wrap.querySelector('bot-answer')!;
    await el.show();
    await expect(wrap).to.be.accessible();
    el.hide();
  });

  it('floating: the launcher opens a modal dialog, focus moves in and stays, Escape closes and returns focus', async () => {
    const wrap = await fixture<HTMLElement>(html`<div>
      <button id="before">before</button>
      <bot-answer bot-id=${bot('ok')} endpoint="/stub/answer" mode="floating"></bot-answer>
    </div>`);
    const el = wrap.querySelector('bot-answer')!;
    await el.updateComplete;
    const dialog = $<HTMLDialogElement>(el, 'dialog');
    expect(dialog.open).to.equal(false);
    await accessible(el);
    const launcher = $(el, '[part=launcher]');
    launcher.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => dialog.open);
    await el.updateComplete;
    expect(el.open).to.equal(true);
    expect(el.shadowRoot!.activeElement).to.equal($(el, 'textarea'));
    expect(dialog.matches(':modal')).to.equal(true);
    for (let i = 0; i < 6; i++) {
      await sendKeys({ press: 'Tab' });
      expect(document.activeElement).not.to.equal(wrap.querySelector('#before'));
    }
    await accessible(el);
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => !dialog.open);
    expect(el.open).to.equal(false);
    expect(el.shadowRoot!.activeElement).to.equal(launcher);
    // The element binds no global key (a site's own Ctrl+K search keeps working): the page binds one to show().
    const keys: KeyboardEvent[] = [];
    const onKey = (e: KeyboardEvent) => keys.push(e);
    document.addEventListener('keydown', onKey);
    document.body.focus();
    await sendKeys({ down: 'Control' });
    await sendKeys({ press: 'k' });
    await sendKeys({ up: 'Control' });
    document.removeEventListener('keydown', onKey);
    const ctrlK = keys.find((e) => e.key == 'k')!;
    expect([ctrlK.ctrlKey, ctrlK.defaultPrevented]).to.deep.equal([true, false]);
    await el.updateComplete;
    expect(dialog.open).to.equal(false);
    await el.show();
    expect(dialog.open).to.equal(true);
    el.hide();
    await waitUntil(() => !dialog.open);
  });

  it('floating: ask() works while closed', async () => {
    const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${bot('ok')} endpoint="/stub/answer" mode="floating"></bot-answer>`);
    el.ask('Closed?');
    await settled(el);
    expect(el.state).to.equal('done');
    expect($<HTMLDialogElement>(el, 'dialog').open).to.equal(false);
  });

  it('follows the streaming answer unless the visitor scrolled up', async () => {
    const el = await make('long+slow');
    el.style.setProperty('--bot-answer-max-height', '150px');
    el.ask('Q');
    const th = $(el, '[part=thread]');
    await waitUntil(() => th.scrollHeight > th.clientHeight + 200, 'thread overflows', { timeout: 8000 });
    await aTimeout(100);
    expect(th.scrollHeight - th.scrollTop - th.clientHeight).to.be.below(40);
    th.scrollTop = 0;
    th.dispatchEvent(new Event('scroll'));
    const h = th.scrollHeight;
    await waitUntil(() => th.scrollHeight > h + 100, 'more text', { timeout: 8000 });
    expect(th.scrollTop).to.equal(0);
    el.stop();
  });

  it('themes: dark and auto differ from light, custom properties apply, parts are exposed', async () => {
    const el = await make('ok');
    const panel = $(el, '[part=panel]');
    const bg = () => getComputedStyle(panel).backgroundColor;
    const light = bg();
    el.theme = 'dark';
    await el.updateComplete;
    const dark = bg();
    expect(dark).not.to.equal(light);
    el.theme = 'auto';
    await el.updateComplete;
    expect(bg()).to.equal(light);
    await emulateMedia({ colorScheme: 'dark' });
    expect(bg()).to.equal(dark);
    el.style.setProperty('--bot-answer-bg', 'rgb(1, 2, 3)');
    expect(bg()).to.equal('rgb(1, 2, 3)');
    el.style.removeProperty('--bot-answer-bg');
    for (const part of ['panel', 'thread', 'input', 'send', 'status']) expect($(el, `[part~=${part}]`), part).to.exist;
    await accessible(el);
  });

  it('honours reduced motion, keeps inputs at 16px or more, and lays out right to left', async () => {
    await emulateMedia({ reducedMotion: 'reduce' });
    const wrap = await fixture<HTMLElement>(html`<div dir="rtl" style="font-size:12px">
      <bot-answer bot-id=${bot('long+slow')} endpoint="/stub/answer" mode="floating"></bot-answer>
    </div>`);
    const el = wrap.querySelector('bot-answer')!;
    await el.updateComplete;
    expect(parseFloat(getComputedStyle($(el, 'textarea')).fontSize)).to.be.at.least(16);
    const launcher = $(el, '[part=launcher]').getBoundingClientRect();
    expect(launcher.left).to.be.below(window.innerWidth / 2);
    el.ask('Q');
    await waitUntil(() => el.state == 'answering');
    await el.updateComplete;
    expect(getComputedStyle($(el, '[part~=answer]'), '::after').animationName).to.equal('none');
    el.stop();
  });

  it('takes overridden strings and shows them', async () => {
    const el = await make('rate');
    el.strings = { send: 'Envoyer', rate_limited: 'Attendez {n} s.' };
    el.ask('Q');
    await settled(el);
    expect($(el, '[part=send]').textContent).to.equal('Envoyer');
    expect(status(el)).to.equal('Attendez 7 s.');
  });
});
