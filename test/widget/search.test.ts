import { expect, fixture, waitUntil } from '@open-wc/testing';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
import type { BotAnswer } from '../../packages/bot-answer/src/widget/index.js';
import { $, $$, bot, count, record } from './helpers.js';

/** What the stub's search received for a bot id. */
type Search = { q: string; limit: string; headers: Record<string, string>; aborted: boolean };
const searches = async (id: string): Promise<Search[]> => (await fetch(`/stub/searches?bot=${encodeURIComponent(id)}`)).json();

/** An inline box of bot `id` talking to the stubs, with more attributes. */
const make = (id: string, attrs = 'endpoint="/stub/answer"') => fixture<BotAnswer>(`<bot-answer bot-id="${id}" ${attrs}></bot-answer>`);
const field = (el: BotAnswer) => $<HTMLTextAreaElement>(el, 'textarea');
const list = (el: BotAnswer) => $(el, '[part=search-results]');
const options = (el: BotAnswer) => $$<HTMLAnchorElement>(el, '[part=search-result]');
const shown = (el: BotAnswer) => !!list(el) && !list(el).hidden;

/** Focuses the question field and types `text` with the keyboard. */
async function type(el: BotAnswer, text: string) {
  field(el).focus();
  await sendKeys({ type: text });
}

/** Waits until the list shows the hits found for `q`. */
async function hitsFor(el: BotAnswer, q: string) {
  await waitUntil(() => shown(el) && options(el)[0]?.textContent?.includes(`› ${q}`), `hits for "${q}"`, { timeout: 5000 });
  await el.updateComplete;
}

/** The combobox's state as a screen reader reads it. */
function combobox(el: BotAnswer) {
  const input = field(el);
  return {
    expanded: input.getAttribute('aria-expanded'),
    active: input.getAttribute('aria-activedescendant'),
    selected: options(el).findIndex((o) => o.getAttribute('aria-selected') == 'true'),
  };
}

/**
 * axe, less one best-practice rule while the list is there: ARIA in HTML allows no role on a `<textarea>`, and
 * the question field is one (questions may run to several lines), while the APG combobox pattern puts
 * `role=combobox` on the field. Chromium exposes the role as set; every other rule applies.
 */
const axe = { ignoredRules: ['aria-allowed-role'] };

/** Presses `key` and waits for the render. */
async function press(el: BotAnswer, key: string) {
  await sendKeys({ press: key });
  await el.updateComplete;
}

describe('<bot-answer> search as you type', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('makes the field a combobox from the second character, whose list holds up to six hits, checked by axe', async () => {
    const id = bot('search');
    const el = await make(id);
    await el.load();
    const input = field(el);
    const role = () => ['role', 'aria-autocomplete', 'aria-controls'].map((a) => input.getAttribute(a));
    // A plain text field until there is something to list.
    await type(el, 't');
    await el.updateComplete;
    expect([...role(), input.getAttribute('aria-expanded')]).to.deep.equal([null, null, null, null]);
    await type(el, 'ra');
    await el.updateComplete;
    expect(role()).to.deep.equal(['combobox', 'list', 'sr']);
    await hitsFor(el, 'tra');
    // The stub found eight: six are shown; no search was sent for a single character.
    expect(options(el)).to.have.length(6);
    expect((await searches(id)).map((s) => [s.q.length >= 2, s.limit])).to.deep.include.members([[true, '6']]);
    expect((await searches(id)).every((s) => s.q.length >= 2)).to.equal(true);
    expect(list(el).id).to.equal('sr');
    expect([list(el).getAttribute('role'), list(el).getAttribute('aria-label')]).to.deep.equal(['listbox', 'Matching pages']);
    expect($(el, '.search [role=status]').textContent).to.equal('6 pages found');
    const first = options(el)[0]!;
    expect([first.localName, first.getAttribute('role'), first.id, first.getAttribute('href')]).to.deep.equal(['a', 'option', 'sr0', location.href.split('#')[0] + '#hit-1']);
    expect(first.querySelector('.rt')!.textContent).to.equal('Guide 1 › tra');
    expect([...first.querySelectorAll('mark')].map((m) => m.textContent)).to.deep.equal(['tra', 'tra']);
    expect(first.querySelector('a, button')).to.equal(null);
    expect(combobox(el)).to.deep.equal({ expanded: 'true', active: null, selected: -1 });
    await expect(el).to.be.accessible(axe);
    await press(el, 'ArrowDown');
    expect(combobox(el)).to.deep.equal({ expanded: 'true', active: 'sr0', selected: 0 });
    await expect(el).to.be.accessible(axe);
  });

  it('moves the active option with ↓/↑ (wrapping), closes with Esc, reopens with ↓, and asks the question on Enter with none active', async () => {
    const id = bot('search');
    const el = await make(id);
    await el.load();
    await type(el, 'pol');
    await hitsFor(el, 'pol');
    await press(el, 'ArrowDown');
    await press(el, 'ArrowDown');
    expect(combobox(el)).to.deep.equal({ expanded: 'true', active: 'sr1', selected: 1 });
    await press(el, 'ArrowUp');
    await press(el, 'ArrowUp');
    expect(combobox(el)).to.deep.equal({ expanded: 'true', active: 'sr5', selected: 5 });
    await press(el, 'ArrowDown');
    expect(combobox(el).active).to.equal('sr0');
    await press(el, 'Escape');
    expect(combobox(el)).to.deep.equal({ expanded: 'false', active: null, selected: -1 });
    expect(shown(el)).to.equal(false);
    expect(field(el).value).to.equal('pol');
    await press(el, 'ArrowDown');
    expect(combobox(el)).to.deep.equal({ expanded: 'true', active: null, selected: -1 });
    const events = record(el, 'bot-answer-submit', 'bot-answer-search-result-click');
    await press(el, 'Enter');
    expect(events.map((e) => e.type)).to.deep.equal(['bot-answer-submit']);
    expect(events[0]!.detail).to.deep.equal({ message: 'pol' });
    await waitUntil(async () => (await count(id)) == 1, 'the question was asked');
    expect([field(el).value, field(el).getAttribute('role'), shown(el)]).to.deep.equal(['', null, false]);
  });

  it('opens the active hit on Enter (Ctrl+Enter: in a new tab), with the event; a cancelled event opens nothing', async () => {
    const id = bot('search');
    const el = await make(id);
    await el.load();
    await type(el, 'exp');
    await hitsFor(el, 'exp');
    const events = record(el, 'bot-answer-search-result-click', 'bot-answer-submit');
    await press(el, 'ArrowDown');
    await press(el, 'ArrowDown');
    await press(el, 'Enter');
    expect(location.hash).to.equal('#hit-2');
    expect(events).to.have.length(1);
    const e = events[0]!;
    expect([e.bubbles, e.composed, e.cancelable]).to.deep.equal([true, true, true]);
    expect(e.detail.index).to.equal(1);
    expect(e.detail.query).to.equal('exp');
    expect(e.detail.result).to.deep.equal({
      title: 'Guide 2 › exp',
      url: location.href.split('#')[0] + '#hit-2',
      snippet: 'Page 2 explains exp in detail; see exp below.',
      highlights: [
        [7, 10],
        [16, 19],
        [35, 38],
      ],
    });
    const opened: unknown[][] = [];
    const open = window.open;
    window.open = (...args: unknown[]) => (opened.push(args), null);
    try {
      await press(el, 'ArrowDown');
      await sendKeys({ down: 'Control' });
      await press(el, 'Enter');
      await sendKeys({ up: 'Control' });
    } finally {
      window.open = open;
    }
    expect(opened).to.deep.equal([[location.href.split('#')[0] + '#hit-3', '_blank', 'noopener']]);
    expect(location.hash).to.equal('#hit-2');
    el.addEventListener('bot-answer-search-result-click', (ev) => ev.preventDefault(), { once: true });
    await press(el, 'ArrowDown');
    await press(el, 'Enter');
    expect(location.hash).to.equal('#hit-2');
    expect(events.map((ev) => ev.detail.index)).to.deep.equal([1, 2, 3]);
    expect(events.every((ev) => ev.type == 'bot-answer-search-result-click')).to.equal(true);
    expect(await count(id)).to.equal(0);
  });

  it('in the floating dialog, the first Escape closes the list and the second the dialog', async () => {
    const el = await make(bot('search'), 'endpoint="/stub/answer" mode="floating"');
    await el.show();
    await type(el, 'esc');
    await hitsFor(el, 'esc');
    await press(el, 'Escape');
    expect([shown(el), el.open, $<HTMLDialogElement>(el, 'dialog').open]).to.deep.equal([false, true, true]);
    await press(el, 'Escape');
    expect([el.open, $<HTMLDialogElement>(el, 'dialog').open]).to.deep.equal([false, false]);
  });

  it('follows a clicked hit, with the event', async () => {
    const el = await make(bot('search'));
    await el.load();
    await type(el, 'sab');
    await hitsFor(el, 'sab');
    const events = record(el, 'bot-answer-search-result-click');
    const r = options(el)[3]!.getBoundingClientRect();
    await sendMouse({ type: 'click', position: [Math.round(r.x + 10), Math.round(r.y + r.height / 2)] });
    await waitUntil(() => location.hash == '#hit-4', 'the page followed');
    expect(events.map((e) => [e.detail.index, e.detail.query])).to.deep.equal([[3, 'sab']]);
  });

  it('shows hostile titles and snippets as text, drops unsafe links and broken ranges', async () => {
    (window as { pwned?: number }).pwned = undefined;
    const el = await make(bot('hostile'));
    await el.load();
    await type(el, 'xx');
    await waitUntil(() => shown(el), 'hits shown');
    await el.updateComplete;
    const [a, b] = options(el);
    expect(options(el)).to.have.length(2);
    expect(a!.querySelector('.rt')!.textContent).to.equal('<img src=x onerror="window.pwned=1">Title');
    expect(a!.querySelector('.rs')!.textContent).to.equal('<script>window.pwned=1</script> <b>bold</b> 😀 end');
    // Valid ranges, in order, not overlapping: [1,7) and [33,37); the rest are dropped.
    expect([...a!.querySelectorAll('mark')].map((m) => m.textContent)).to.deep.equal(['script', 'b>bo']);
    expect(b!.getAttribute('href')).to.match(/#untitled$/);
    expect(b!.querySelector('.rt')!.textContent).to.equal(b!.getAttribute('href'));
    expect(b!.querySelector('.rs')).to.equal(null);
    expect($$(el, '.search img, .search script, .search b, [part=search-result] [href^=javascript]')).to.have.length(0);
    expect((window as { pwned?: number }).pwned).to.equal(undefined);
    await expect(el).to.be.accessible(axe);
  });

  it('aborts a search overtaken by the text, and shows only the hits of the current text', async () => {
    const id = bot('lag');
    const el = await make(id);
    await el.load();
    await type(el, 'ab');
    // The first search hangs at the stub; the next text overtakes it.
    await waitUntil(async () => (await searches(id)).length == 1, 'the first search sent');
    await type(el, 'c');
    await hitsFor(el, 'abc');
    await waitUntil(async () => (await searches(id))[0]!.aborted, 'the first search aborted');
    expect((await searches(id)).map((s) => s.q)).to.deep.equal(['ab', 'abc']);
    expect(options(el)[0]!.textContent).to.contain('› abc');
  });

  it('sends the host headers with searches, to search-endpoint when set', async () => {
    const id = bot('search');
    const el = await make(id, 'endpoint="/stub/nowhere/answer" search-endpoint="/stub/elsewhere/search"');
    el.getHeaders = async () => ({ Authorization: 'Bearer tok' });
    await el.load();
    await type(el, 'hdr');
    await hitsFor(el, 'hdr');
    const last = (await searches(id)).at(-1)!;
    expect(last.headers.authorization).to.equal('Bearer tok');
  });

  it('sends no search with search="off", and the field stays a plain text field', async () => {
    const off = bot('search');
    const on = bot('search');
    const el = await make(off, 'endpoint="/stub/answer" search="off"');
    const other = await make(on);
    await el.load();
    await type(el, 'abc');
    // The other box's search, sent after this typing, has come back: this one would have been sent by then.
    await type(other, 'abc');
    await hitsFor(other, 'abc');
    expect(await searches(off)).to.deep.equal([]);
    expect(['role', 'aria-expanded', 'aria-controls', 'aria-autocomplete'].map((a) => field(el).getAttribute(a))).to.deep.equal([null, null, null, null]);
    expect(list(el)).to.equal(null);
    el.search = undefined;
    await el.updateComplete;
    expect(field(el).getAttribute('role')).to.equal('combobox');
  });

  for (const [scenario, what] of [
    ['unavailable', 'search_unavailable'],
    ['notfound', "a proxy's 404 without search"],
  ])
    it(`hides search for the endpoint after ${what}`, async () => {
      const first = bot(scenario);
      const second = bot(scenario);
      const el = await make(first, `endpoint="/stub/${scenario}/answer"`);
      const other = await make(second, `endpoint="/stub/${scenario}/answer"`);
      await el.load();
      await type(el, 'abc');
      await waitUntil(() => !field(el).hasAttribute('role'), 'search hidden');
      // One search, whichever text it was for ('ab' when the typing paused): none after the 404.
      expect(await searches(first)).to.have.length(1);
      expect(list(el)).to.equal(null);
      await type(other, 'abc');
      await other.updateComplete;
      expect(field(other).hasAttribute('role')).to.equal(false);
      // A search sent after that typing has come back: this one's would have been sent by then.
      const control = await make(bot('search'));
      await type(control, 'abc');
      await hitsFor(control, 'abc');
      expect(await searches(second)).to.deep.equal([]);
    });

  it('hides the hits of a failed search, and keeps searching', async () => {
    const id = bot('down');
    const el = await make(id);
    await el.load();
    await type(el, 'abc');
    await waitUntil(async () => (await searches(id)).length == 1, 'searched');
    await el.updateComplete;
    expect([shown(el), field(el).getAttribute('role')]).to.deep.equal([false, 'combobox']);
  });
});
