import { expect, fixture, html } from '@open-wc/testing';
import type { HistoryMessage } from '../../packages/bot-answer/src/protocol/types.js';
import type { BotAnswer } from '../../packages/bot-answer/src/widget/index.js';
import { historyBefore, type Turn } from '../../packages/bot-answer/src/widget/thread.js';
import { scripted, settled } from './helpers.js';

/** The `history` of the last request the stub received for `id`. */
const sent = async (id: string): Promise<HistoryMessage[] | undefined> => (await (await fetch(`/stub/last?bot=${encodeURIComponent(id)}`)).json()).history;

async function box(attributes = '') {
  const id = await scripted({ answer: 'Answer **one** [[1]](https://wiki.example.com/a).' });
  const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${id} endpoint="/stub/answer"></bot-answer>`);
  if (attributes) el.setAttribute('history', attributes);
  const askAndWait = async (q: string) => {
    el.ask(q);
    await settled(el);
  };
  return { el, id, askAndWait };
}

describe('<bot-answer> sends the conversation so far', () => {
  it('sends nothing with the first question, then the answered turns before each question, oldest first', async () => {
    const { id, askAndWait } = await box();
    await askAndWait('First?');
    expect(await sent(id)).to.deep.equal([]);
    await askAndWait('Second?');
    expect(await sent(id)).to.deep.equal([
      { role: 'user', content: 'First?' },
      { role: 'assistant', content: 'Answer **one** [[1]](https://wiki.example.com/a).' },
    ]);
  });

  it('sends the last 3 turns at most', async () => {
    const { id, askAndWait } = await box();
    for (const q of ['One?', 'Two?', 'Three?', 'Four?', 'Five?']) await askAndWait(q);
    const history = (await sent(id))!;
    expect(history.length).to.equal(6);
    expect(history.filter((m) => m.role == 'user').map((m) => m.content)).to.deep.equal(['Two?', 'Three?', 'Four?']);
  });

  it('sends only what is on screen: nothing after Start over', async () => {
    const { el, id, askAndWait } = await box();
    await askAndWait('First?');
    el.clear();
    await askAndWait('Again?');
    expect(await sent(id)).to.deep.equal([]);
  });

  it('history="off" (attribute or property) sends each question alone', async () => {
    const { el, id, askAndWait } = await box('off');
    await askAndWait('First?');
    await askAndWait('Second?');
    expect(await sent(id)).to.deep.equal([]);
    el.history = '';
    await askAndWait('Third?');
    expect((await sent(id))!.length).to.equal(4);
    el.history = 'off';
    await askAndWait('Fourth?');
    expect(await sent(id)).to.deep.equal([]);
  });
});

describe('historyBefore', () => {
  const turn = (q: string, state: Turn['state'], a = `About ${q}`): Turn => ({ q, a, state, sources: [] });

  it('takes answered turns only (done, or no answer found), never the one asked', () => {
    const turns = [turn('A', 'done'), turn('B', 'error', ''), turn('C', 'stopped'), turn('D', 'no-answer'), turn('E', 'answering', '')];
    expect(historyBefore(turns, turns[4]!).map((m) => m.content)).to.deep.equal(['A', 'About A', 'D', 'About D']);
  });

  it('for a retried turn, takes the turns before it', () => {
    const turns = [turn('A', 'done'), turn('B', 'error', ''), turn('C', 'done')];
    expect(historyBefore(turns, turns[1]!).map((m) => m.content)).to.deep.equal(['A', 'About A']);
  });

  it('takes the last 3 of them, each message cut to 1,500 characters', () => {
    const long = 'x'.repeat(2000);
    const turns = [turn('A', 'done', long), turn('B'.repeat(1600), 'done', long), turn('C', 'done', long), turn('D', 'no-answer', 'Not found.'), turn('E', 'answering', '')];
    const history = historyBefore(turns, turns[4]!);
    expect(history.map((m) => m.content.length)).to.deep.equal([1500, 1500, 1, 1500, 1, 10]);
    expect(history.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  });
});
