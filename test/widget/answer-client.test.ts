import { expect } from '@open-wc/testing';
import { AnswerError, fetchAnswer } from '../../packages/bot-answer/src/widget/answer-client.js';
import type { Source } from '../../packages/bot-answer/src/protocol/types.js';
import { scripted } from './stub.js';

const ENDPOINT = '/stub/answer';
let n = 0;
/** A bot id unique to this run, so the stub's per-bot request count starts at zero. */
const bot = (scenario: string) => `${scenario}:client-${Date.now()}-${n++}`;

function collect() {
  const out = { text: '', sources: [] as Source[], deltas: 0 };
  return {
    out,
    on: {
      delta: (s: string) => ((out.text += s), out.deltas++),
      replace: (s: string) => (out.text = s),
      sources: (s: Source[]) => (out.sources = s),
    },
  };
}

async function failure(p: Promise<unknown>): Promise<AnswerError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(AnswerError);
    return e as AnswerError;
  }
  throw new Error('expected a failure');
}

const count = async (id: string) => +(await (await fetch(`/stub/count?bot=${encodeURIComponent(id)}`)).text());

describe('answer-client', () => {
  it('streams deltas and sources split at awkward boundaries, then resolves answer_found', async () => {
    const { out, on } = collect();
    const found = await fetchAnswer(ENDPOINT, { message: 'q', bot_id: bot('ok'), stream: true }, on, new AbortController());
    // The stub speaks like a proxy before the outcome field: none is reported.
    expect(found).to.deep.equal({ answer_found: true, outcome: undefined });
    expect(out.text).to.match(/^Flights under six hours.*\[\[3\]\]\(https:\/\/wiki.example.com\/other\)\.$/s);
    expect(out.deltas).to.be.greaterThan(3);
    expect(out.sources).to.have.length(3);
  });

  it('uses the JSON mode when stream is false, with the same result', async () => {
    const a = collect();
    const b = collect();
    await fetchAnswer(ENDPOINT, { message: 'q', bot_id: bot('ok'), stream: true }, a.on, new AbortController());
    expect(await fetchAnswer(ENDPOINT, { message: 'q', bot_id: bot('ok'), stream: false }, b.on, new AbortController())).to.deep.equal({ answer_found: true, outcome: undefined });
    expect(b.out.text).to.equal(a.out.text);
    expect(b.out.sources).to.deep.equal(a.out.sources);
  });

  it('reports answer_found false', async () => {
    const { on } = collect();
    expect(await fetchAnswer(ENDPOINT, { message: 'q', bot_id: bot('noanswer'), stream: true }, on, new AbortController())).to.deep.equal({ answer_found: false, outcome: undefined });
  });

  it("reports the proxy's outcome, streamed and as JSON, and ignores one it does not know", async () => {
    for (const stream of [true, false]) {
      const { on } = collect();
      const id = await scripted({ answer: 'Not sure.', answer_found: false, sources: [], outcome: 'not_sure' });
      expect(await fetchAnswer(ENDPOINT, { message: 'q', bot_id: id, stream }, on, new AbortController())).to.deep.equal({ answer_found: false, outcome: 'not_sure' });
      const odd = await scripted({ answer: 'Yes.', answer_found: true, sources: [], outcome: 'maybe' });
      expect(await fetchAnswer(ENDPOINT, { message: 'q', bot_id: odd, stream }, on, new AbortController())).to.deep.equal({ answer_found: true, outcome: undefined });
    }
  });

  it('applies replace events', async () => {
    const { out, on } = collect();
    await fetchAnswer(ENDPOINT, { message: 'q', bot_id: bot('replace'), stream: true }, on, new AbortController());
    expect(out.text).not.to.contain('Draft');
    expect(out.text).to.match(/^Flights/);
  });

  it('maps HTTP errors to codes, with the wait from Retry-After, and never retries', async () => {
    const id = bot('rate');
    const e = await failure(fetchAnswer(ENDPOINT, { message: 'q', bot_id: id }, collect().on, new AbortController()));
    expect([e.code, e.retry_after]).to.deep.equal(['rate_limited', 7]);
    expect(await count(id)).to.equal(1);
    expect((await failure(fetchAnswer(ENDPOINT, { message: 'q', bot_id: bot('unknown') }, collect().on, new AbortController()))).code).to.equal('unknown_bot');
    expect((await failure(fetchAnswer(ENDPOINT, { message: 'q', bot_id: bot('down') }, collect().on, new AbortController()))).code).to.equal('upstream_error');
    // A non-JSON error page: the status decides.
    expect((await failure(fetchAnswer(ENDPOINT, { message: 'q', bot_id: bot('gateway') }, collect().on, new AbortController()))).code).to.equal('upstream_timeout');
  });

  it('reports a terminal error event and a stream cut short', async () => {
    const { out, on } = collect();
    const e = await failure(fetchAnswer(ENDPOINT, { message: 'q', bot_id: bot('midfail'), stream: true }, on, new AbortController()));
    expect(e.code).to.equal('upstream_timeout');
    expect(out.text).not.to.equal('');
    expect((await failure(fetchAnswer(ENDPOINT, { message: 'q', bot_id: bot('cut'), stream: true }, collect().on, new AbortController()))).code).to.equal(
      'stream_interrupted',
    );
  });

  it('reads a stream of small writes in batches (a read, then a pause while more gathers), losing nothing', async () => {
    const { out, on } = collect();
    // Batches: runs of delta calls within one task (a read delivers all it holds at once).
    let batches = 0;
    let open = false;
    const delta = on.delta;
    on.delta = (s: string) => {
      if (!open) (batches++, (open = true), setTimeout(() => (open = false)));
      return delta(s);
    };
    const found = await fetchAnswer(ENDPOINT, { message: 'q', bot_id: bot('long'), stream: true }, on, new AbortController());
    expect(found.answer_found).to.equal(true);
    expect(out.text).to.match(/^## Part 1\n[^]*The end\.$/);
    // The stub writes ~90 bytes a millisecond apart: read as they come, nearly every delta would be its own batch.
    expect(out.deltas).to.be.above(100);
    expect(batches).to.be.below(out.deltas / 4);
  });

  it('gives up with timeout when nothing arrives for too long', async () => {
    const e = await failure(fetchAnswer(ENDPOINT, { message: 'q', bot_id: bot('hang'), stream: true }, collect().on, new AbortController(), { timeout: 300 }));
    expect(e.code).to.equal('timeout');
  });

  it('stops at once when aborted, keeping what arrived', async () => {
    const ctrl = new AbortController();
    const { out, on } = collect();
    const p = fetchAnswer(ENDPOINT, { message: 'q', bot_id: bot('long+slow'), stream: true }, on, ctrl);
    while (!out.text) await new Promise((r) => setTimeout(r, 10));
    const t0 = performance.now();
    ctrl.abort();
    const e = await failure(p);
    expect(e.code).to.equal('aborted');
    expect(performance.now() - t0).to.be.below(500);
    expect(out.text).not.to.equal('');
  });

  it('reports network failures', async () => {
    // Port 9 (discard) on loopback refuses the connection.
    const e = await failure(fetchAnswer('http://127.0.0.1:9/answer', { message: 'q', bot_id: 'x' }, collect().on, new AbortController()));
    expect(e.code).to.equal('network');
  });
});
