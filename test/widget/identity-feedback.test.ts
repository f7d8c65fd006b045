import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { BotAnswer } from '../../packages/bot-answer/src/widget/index.js';
import { $, $$, bot, record, settled } from './helpers.js';

/** The headers of the last answer request the stub received for a bot id. */
const headersOf = async (id: string): Promise<Record<string, string>> => (await fetch(`/stub/headers?bot=${encodeURIComponent(id)}`)).json();

interface Received {
  body: { request_id: string; bot_id: string; rating: string; comment?: string };
  headers: Record<string, string>;
  url: string;
}
/** The feedback the stub received for a bot id. */
const feedbackOf = async (id: string): Promise<Received[]> => (await fetch(`/stub/feedback?bot=${encodeURIComponent(id)}`)).json();

/** Records the `credentials` of every fetch to the answer endpoint, passing each through. */
function spyFetch() {
  const seen: (RequestCredentials | undefined)[] = [];
  const real = window.fetch;
  window.fetch = (input, init) => (String(input).endsWith('/stub/answer') && seen.push(init?.credentials), real(input, init));
  return { seen, restore: () => (window.fetch = real) };
}

const thumbs = (el: BotAnswer) => $$<HTMLButtonElement>(el, '.acts button[aria-pressed]');

describe('<bot-answer> identity: credentials and host headers', () => {
  before(() => (document.cookie = 'visitor=v1; path=/'));
  after(() => (document.cookie = 'visitor=; path=/; max-age=0'));

  it('sends cookies by default (same-origin), not with credentials="omit"; the property mirrors the attribute', async () => {
    const spy = spyFetch();
    try {
      const id = bot('ok');
      const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${id} endpoint="/stub/answer"></bot-answer>`);
      expect(el.credentials).to.equal('same-origin');
      el.ask('Q');
      await settled(el);
      expect((await headersOf(id)).cookie).to.contain('visitor=v1');

      const omitted = bot('ok');
      const other = await fixture<BotAnswer>(html`<bot-answer bot-id=${omitted} endpoint="/stub/answer" credentials="omit"></bot-answer>`);
      expect(other.credentials).to.equal('omit');
      other.ask('Q');
      await settled(other);
      expect((await headersOf(omitted)).cookie).to.equal(undefined);

      const included = bot('ok');
      other.botId = included;
      other.credentials = 'include';
      other.ask('Q');
      await waitUntil(() => $$(other, '.turn.done').length == 2, 'second answer');
      expect((await headersOf(included)).cookie).to.contain('visitor=v1');
      expect(spy.seen).to.deep.equal(['same-origin', 'omit', 'include']);
    } finally {
      spy.restore();
    }
  });

  it('adds the headers getHeaders returns (or resolves to) before each request, keeping the JSON content type', async () => {
    const id = bot('ok');
    const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${id} endpoint="/stub/answer"></bot-answer>`);
    let minted = 0;
    el.getHeaders = async () => {
      await new Promise((r) => setTimeout(r, 10));
      return { Authorization: `Bearer token-${++minted}`, 'Content-Type': 'text/plain' };
    };
    el.ask('Q');
    await settled(el);
    let h = await headersOf(id);
    expect([h.authorization, h['content-type']]).to.deep.equal(['Bearer token-1', 'application/json']);
    el.getHeaders = () => new Headers([['x-site', 'shop']]);
    el.ask('Again');
    await waitUntil(() => $$(el, '.turn.done').length == 2, 'second answer');
    h = await headersOf(id);
    expect([h.authorization, h['x-site']]).to.deep.equal([undefined, 'shop']);
  });

  it('a getHeaders that fails fails the question with the code `headers` (sending nothing), and Retry asks again', async () => {
    const id = bot('ok');
    const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${id} endpoint="/stub/answer"></bot-answer>`);
    const errors = record(el, 'bot-answer-error');
    el.getHeaders = () => Promise.reject(new Error('token service down'));
    el.ask('Q');
    await settled(el);
    expect(el.state).to.equal('error');
    expect(errors[0].detail.code).to.equal('headers');
    expect(errors[0].detail.message).to.contain('token service down');
    expect(await headersOf(id)).to.equal(null);
    el.getHeaders = () => ({ authorization: 'Bearer ok' });
    $<HTMLButtonElement>(el, '.note button').click();
    await waitUntil(() => el.state == 'done', 'retried');
    expect((await headersOf(id)).authorization).to.equal('Bearer ok');
  });
});

describe('<bot-answer> feedback', () => {
  it('done and feedback events carry the request id; without the feedback attribute nothing is POSTed', async () => {
    const id = bot('ok');
    const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${id} endpoint="/stub/answer"></bot-answer>`);
    const log = record(el, 'bot-answer-done', 'bot-answer-feedback');
    el.ask('Q');
    await settled(el);
    thumbs(el)[0].click();
    await el.updateComplete;
    expect(log.map((e) => [e.type, e.detail.requestId])).to.deep.equal([
      ['bot-answer-done', `req-${id}-1`],
      ['bot-answer-feedback', `req-${id}-1`],
    ]);
    expect(log[1].detail).to.include({ value: 'up', question: 'Q' });
    await new Promise((r) => setTimeout(r, 100));
    expect(await feedbackOf(id)).to.deep.equal([]);
    expect($(el, '.acts [role=status]')).to.equal(null);
    expect($(el, '[part=comment]')).to.equal(null);
  });

  it('with feedback on: thumbs are POSTed to endpoint + /feedback with the id, credentials mode and host headers; a comment follows a thumbs-down', async () => {
    document.cookie = 'visitor=v2; path=/';
    try {
      const id = bot('ok');
      const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${id} endpoint="/stub/answer" feedback></bot-answer>`);
      expect(el.feedback).to.equal(true);
      el.getHeaders = () => ({ authorization: 'Bearer fb' });
      const events = record(el, 'bot-answer-feedback');
      el.ask('Q');
      await settled(el);
      thumbs(el)[0].click();
      await waitUntil(() => $(el, '.acts [role=status]'), 'thanks');
      expect($(el, '.acts [role=status]').textContent).to.equal('Thanks for your feedback.');
      thumbs(el)[1].click();
      await waitUntil(() => $(el, '[part=comment]'), 'comment field');
      const field = $<HTMLInputElement>(el, '[part=comment]');
      expect(field.maxLength).to.equal(1000);
      field.value = '  It missed the hotel policy.  ';
      ($(el, '.acts form button') as HTMLButtonElement).click();
      await waitUntil(() => !$(el, '[part=comment]'), 'comment sent');
      const got = await feedbackOf(id);
      expect(got.map((f) => f.body)).to.deep.equal([
        { request_id: `req-${id}-1`, bot_id: id, rating: 'up' },
        { request_id: `req-${id}-1`, bot_id: id, rating: 'down' },
        { request_id: `req-${id}-1`, bot_id: id, rating: 'down', comment: 'It missed the hotel policy.' },
      ]);
      for (const f of got) {
        expect(f.url).to.equal('/stub/answer/feedback');
        expect(f.headers.authorization).to.equal('Bearer fb');
        expect(f.headers['content-type']).to.equal('application/json');
        expect(f.headers.cookie).to.contain('visitor=v2');
      }
      expect(events.map((e) => [e.detail.value, e.detail.comment])).to.deep.equal([
        ['up', undefined],
        ['down', undefined],
        ['down', 'It missed the hotel policy.'],
      ]);
      expect($(el, '.acts [role=status]').textContent).to.equal('Thanks for your feedback.');
      await expect(el).to.be.accessible();
    } finally {
      document.cookie = 'visitor=; path=/; max-age=0';
    }
  });

  it('POSTs to feedback-endpoint when set, and with credentials="omit" sends no cookie', async () => {
    document.cookie = 'visitor=v3; path=/';
    try {
      const id = bot('ok');
      const el = await fixture<BotAnswer>(
        html`<bot-answer bot-id=${id} endpoint="/stub/answer" feedback-endpoint="/stub/answer/feedback?via=attribute" credentials="omit" feedback></bot-answer>`,
      );
      expect(el.feedbackEndpoint).to.equal('/stub/answer/feedback?via=attribute');
      el.ask('Q');
      await settled(el);
      thumbs(el)[1].click();
      await waitUntil(async () => (await feedbackOf(id)).length == 1, 'feedback received');
      const [f] = await feedbackOf(id);
      expect(f.body.rating).to.equal('down');
      expect(f.url).to.equal('/stub/answer/feedback?via=attribute');
      expect(f.headers.cookie).to.equal(undefined);
    } finally {
      document.cookie = 'visitor=; path=/; max-age=0';
    }
  });

  it('a failed feedback POST changes nothing visible: no thanks, the comment stays in its field, the thread works on', async () => {
    const id = bot('fbfail');
    const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${id} endpoint="/stub/answer" feedback></bot-answer>`);
    el.ask('Q');
    await settled(el);
    thumbs(el)[1].click();
    await waitUntil(async () => (await feedbackOf(id)).length == 1, 'feedback tried');
    await el.updateComplete;
    expect(thumbs(el)[1].getAttribute('aria-pressed')).to.equal('true');
    expect($(el, '.acts [role=status]')).to.equal(null);
    // The comment field shows only once the rating was taken: nothing to comment on yet.
    expect($(el, '[part=comment]')).to.equal(null);
    el.ask('Next');
    await waitUntil(() => $$(el, '.turn.done').length == 2, 'the thread goes on');
    expect(el.state).to.equal('done');
  });
});

describe('<bot-answer> request lifecycle', () => {
  it('leaving the page aborts the running answer, keeping what arrived as stopped', async () => {
    const el = await fixture<BotAnswer>(html`<bot-answer bot-id=${bot('long+slow')} endpoint="/stub/answer"></bot-answer>`);
    const done = record(el, 'bot-answer-done', 'bot-answer-error');
    el.ask('Q');
    await waitUntil(() => $(el, '[part~=answer]')?.textContent, 'some text arrived');
    el.remove();
    await waitUntil(() => el.state == 'stopped', 'stopped on disconnect');
    expect(done).to.deep.equal([]);
  });
});
