import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createProxyHandler, type ProxyConfig } from '../../packages/bot-answer-proxy/src/proxy/index.js';
import { ANSWER, FIXTURES, RAW_SOURCES, SOURCES } from './fixtures.js';
import { assertNoKeyLeak, chunk, newKey, observe, parseStream, replay } from './helpers.js';

const key = newKey();
const encoder = new TextEncoder();
after(() => assertNoKeyLeak());

/** A fake upstream behind the handler's `fetch`: the body arrives in exactly these pieces. */
function upstreamOf(pieces: Uint8Array[], options: { contentType?: string; status?: number; breakAtEnd?: boolean; gapMs?: number; stallAfter?: number } = {}): ProxyConfig['fetch'] {
  return async (_url, init) => {
    const signal = init!.signal!;
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (options.stallAfter !== undefined && i >= options.stallAfter) {
          await new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
        }
        if (options.gapMs) await new Promise((resolve) => setTimeout(resolve, options.gapMs));
        if (signal.aborted) return controller.error(new Error('aborted'));
        if (i < pieces.length) controller.enqueue(pieces[i++]!);
        else if (options.breakAtEnd) controller.error(new TypeError('terminated'));
        else controller.close();
      },
    });
    return new Response(body, { status: options.status ?? 200, headers: { 'content-type': options.contentType ?? 'text/event-stream' } });
  };
}

async function run(fetchFn: ProxyConfig['fetch'], body: object = { message: 'q', bot_id: 'demo', stream: true }, config: Partial<ProxyConfig> = {}) {
  const logs: string[] = [];
  const handler = createProxyHandler({ apiKey: key, baseUrl: 'http://upstream.test', fetch: fetchFn, rateLimitPerMinute: 0, log: (l) => (logs.push(l), observe(l)), ...config });
  const response = await handler(new Request('http://proxy.test/api/answer', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  const text = await response.text();
  observe(text);
  for (const [n, v] of response.headers) observe(`${n}: ${v}`);
  return { response, text, logs };
}

/** Cuts inside every multi-byte character and between every CR and LF. */
function awkwardCuts(bytes: Uint8Array): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < bytes.length; i++) {
    const continuation = (bytes[i]! & 0xc0) === 0x80;
    if (continuation || (bytes[i - 1] === 13 && bytes[i] === 10)) cuts.push(i);
  }
  return cuts;
}

describe('stream normalisation: every dialect, every chunking', () => {
  for (const fixture of FIXTURES) {
    const bytes = encoder.encode(fixture.wire);
    const strategies: [string, Uint8Array[]][] = [
      ['whole', chunk(bytes, 'whole')],
      ['1-byte', chunk(bytes, 'bytes')],
      ['random a', chunk(bytes, 'random', 7)],
      ['random b', chunk(bytes, 'random', 1234)],
      ['inside multi-byte characters and CRLF pairs', chunk(bytes, awkwardCuts(bytes))],
    ];
    for (const [strategy, pieces] of strategies) {
      it(`${fixture.name} (${strategy})`, async () => {
        const { response, text } = await run(upstreamOf(pieces));
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
        const { events } = parseStream(text);
        const result = replay(events);
        assert.equal(result.text, fixture.answer);
        assert.deepEqual(result.sources, fixture.sources);
        assert.deepEqual(result.end, { event: 'done', data: { answer_found: fixture.answerFound, outcome: fixture.outcome } });
        assert.ok(events.filter((e) => e.event === 'delta').length >= 2, 'the answer streams in pieces');
        assert.ok(!events.some((e) => e.event === 'replace'), 'nothing was taken back');
        // Sources come once, whole, not repeated.
        assert.ok(events.filter((e) => e.event === 'sources').length <= 1);
      });
    }
  }

  it('the same answer comes as JSON for stream:false, whatever the dialect', async () => {
    for (const fixture of FIXTURES) {
      const { response, text } = await run(upstreamOf(chunk(encoder.encode(fixture.wire), 'random', 3)), { message: 'q', bot_id: 'demo', stream: false });
      assert.equal(response.status, 200, fixture.name);
      assert.deepEqual(JSON.parse(text), { answer: fixture.answer, answer_found: fixture.answerFound, sources: fixture.sources, outcome: fixture.outcome }, fixture.name);
    }
  });
});

describe('stream normalisation: special cases', () => {
  const wire = (s: string) => [encoder.encode(s)];

  it('a JSON answer to stream:true becomes one delta, the sources and done', async () => {
    const json = JSON.stringify({ answer: ANSWER, answer_found: false, sources: RAW_SOURCES });
    const { response, text } = await run(upstreamOf(chunk(encoder.encode(json), 'bytes'), { contentType: 'application/json' }));
    assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const { events } = parseStream(text);
    assert.deepEqual(events, [
      { event: 'delta', data: { text: ANSWER } },
      { event: 'sources', data: { sources: SOURCES } },
      { event: 'done', data: { answer_found: false, outcome: 'not_sure' } },
    ]);
  });

  it('a final object that differs from the pieces replaces the answer', async () => {
    const { text } = await run(upstreamOf(wire('data: {"text":"Draft answ"}\n\ndata: {"text":"er"}\n\ndata: {"answer":"The real answer.","answer_found":true,"sources":[]}\n\n')));
    const { events } = parseStream(text);
    assert.deepEqual(events.map((e) => e.event), ['delta', 'delta', 'replace', 'done']);
    assert.equal(replay(events).text, 'The real answer.');
  });

  it('a cumulative stream that rewrites itself emits replace, then deltas again', async () => {
    const { text } = await run(upstreamOf(wire('data: {"answer":"Paris is"}\n\ndata: {"answer":"Paris is the"}\n\ndata: {"answer":"Lyon is"}\n\ndata: {"answer":"Lyon is big"}\n\n')));
    const { events } = parseStream(text);
    assert.deepEqual(events, [
      { event: 'delta', data: { text: 'Paris is' } },
      { event: 'delta', data: { text: ' the' } },
      { event: 'replace', data: { text: 'Lyon is' } },
      { event: 'delta', data: { text: ' big' } },
      { event: 'done', data: { answer_found: true, outcome: 'answered' } },
    ]);
  });

  it('a connection broken mid-stream ends with a stream_interrupted error event', async () => {
    const { text, logs } = await run(upstreamOf(wire('event: delta\ndata: {"text":"Half an"}\n\nevent: delta\ndata: {"text":" ans'), { breakAtEnd: true }));
    const { events } = parseStream(text);
    const result = replay(events);
    assert.equal(result.text, 'Half an');
    assert.equal(result.end?.event, 'error');
    assert.equal(result.end?.data.code, 'stream_interrupted');
    assert.equal(JSON.parse(logs.at(-1)!).outcome, 'interrupted');
  });

  it('a clean end without an end marker is a normal end, even mid-event', async () => {
    const { text } = await run(upstreamOf(wire('data: {"type":"answer","text":"Complete"}\n\ndata: {"type":"answer","text":" answer"}')));
    const result = replay(parseStream(text).events);
    assert.equal(result.text, 'Complete answer');
    assert.deepEqual(result.end, { event: 'done', data: { answer_found: true, outcome: 'answered' } });
  });

  it('an empty stream ends with done, answer_found false and outcome refused', async () => {
    const { text } = await run(upstreamOf([]));
    assert.deepEqual(parseStream(text).events, [{ event: 'done', data: { answer_found: false, outcome: 'refused' } }]);
  });

  it('an upstream error event becomes a terminal upstream_error without its text', async () => {
    for (const errorWire of [
      `event: error\ndata: {"message":"db down at /srv/x.py ${key}"}\n\n`,
      `data: {"type":"error","error":"db down at /srv/x.py"}\n\n`,
      `data: {"error":{"message":"db down at /srv/x.py"}}\n\n`,
      `data: {"detail":[{"msg":"db down at /srv/x.py"}]}\n\n`,
      'event: error\ndata: db down at /srv/x.py\n\n',
    ]) {
      const { text, logs } = await run(upstreamOf(wire(`event: delta\ndata: {"text":"Hi"}\n\n${errorWire}event: delta\ndata: {"text":"ignored"}\n\n`)));
      const result = replay(parseStream(text).events);
      assert.equal(result.text, 'Hi');
      assert.deepEqual(result.end?.data, { code: 'upstream_error', message: result.end?.data.message });
      assert.ok(!text.includes('/srv/x.py'), text);
      assert.ok(!logs.join('').includes('/srv/x.py'), 'upstream error text is logged only in debug');
    }
  });

  it('in debug mode the upstream error text is logged (never the key)', async () => {
    const { logs } = await run(upstreamOf(wire(`event: error\ndata: {"message":"db down ${key}"}\n\n`)), undefined, { debug: true });
    const line = JSON.parse(logs.at(-1)!);
    assert.match(line.upstream_note, /db down/);
  });

  it('a malformed JSON event in a JSON dialect is skipped and counted, the rest arrives', async () => {
    const { text, logs } = await run(upstreamOf(wire('event: delta\ndata: {"text":"One"}\n\nevent: delta\ndata: {"text": "this event is cut sh\n\nevent: delta\ndata: {"text":" two"}\n\nevent: done\ndata: {}\n\n')));
    assert.equal(replay(parseStream(text).events).text, 'One two');
    assert.equal(JSON.parse(logs.at(-1)!).malformed_events, 1);
  });

  it('an event larger than maxEventChars ends the stream with an error instead of buffering it', async () => {
    const big = 'x'.repeat(5000);
    const { text } = await run(upstreamOf(chunk(encoder.encode(`event: delta\ndata: {"text":"ok"}\n\nevent: delta\ndata: {"text":"${big}"}\n\n`), 'random', 9)), undefined, { maxEventChars: 1000 });
    const result = replay(parseStream(text).events);
    assert.equal(result.text, 'ok');
    assert.equal(result.end?.data.code, 'upstream_error');
  });

  it('normalises sources to the spec shape: strings only, http(s) URLs, finite modified_time', async () => {
    const messy = [
      { url: 'javascript:alert(1)', title: 'bad url', modified_time: 'not a time' },
      { url: 'https://ok.example/', title: 42, app_name: ['x'], snippet: { a: 1 }, author: { name: 7, email: 'e@x', photo: 'data:image/png;base64,AAA' }, modified_time: '1730243482' },
      { link: 'http://link.example/', name: 'By name', modified_time: Number.MAX_VALUE * 10 },
      { url: 'https://iso.example/', modified_time: '2024-10-29T23:11:22Z', author: 'Sam' },
      'https://string.example/',
      null,
      7,
      { unrelated: true },
    ];
    const { text } = await run(upstreamOf(wire(`event: sources\ndata: ${JSON.stringify({ sources: messy }).replace('1e309', '1e309')}\n\nevent: done\ndata: {}\n\n`)));
    const result = replay(parseStream(text).events);
    assert.deepEqual(result.sources, [
      { title: 'bad url' },
      { url: 'https://ok.example/', author: { email: 'e@x' }, modified_time: 1730243482 },
      { url: 'http://link.example/', title: 'By name' },
      { url: 'https://iso.example/', author: { name: 'Sam' }, modified_time: 1730243482 },
      { url: 'https://string.example/' },
    ]);
  });

  it('sends heartbeats while the upstream is quiet', async () => {
    const { text } = await run(upstreamOf(wire('event: delta\ndata: {"text":"slow"}\n\n').concat(wire('event: done\ndata: {}\n\n')), { gapMs: 120 }), undefined, { heartbeatMs: 40 });
    const { events, heartbeats } = parseStream(text);
    assert.ok(heartbeats >= 1, `heartbeats: ${heartbeats}`);
    assert.equal(replay(events).text, 'slow');
  });

  it('an upstream quiet for longer than the idle timeout ends the stream with upstream_timeout', async () => {
    const { text, logs } = await run(upstreamOf(wire('event: delta\ndata: {"text":"stuck"}\n\n'), { stallAfter: 1 }), undefined, { idleTimeoutMs: 150, heartbeatMs: 50 });
    const result = replay(parseStream(text).events);
    assert.equal(result.text, 'stuck');
    assert.equal(result.end?.data.code, 'upstream_timeout');
    assert.equal(JSON.parse(logs.at(-1)!).outcome, 'timeout');
  });

  it('a stream longer than the total timeout ends with upstream_timeout even while data flows', async () => {
    const many = Array.from({ length: 100 }, () => encoder.encode('event: delta\ndata: {"text":"."}\n\n'));
    const { text } = await run(upstreamOf(many, { gapMs: 10 }), undefined, { totalTimeoutMs: 200, idleTimeoutMs: 1000 });
    const result = replay(parseStream(text).events);
    assert.ok(result.text.length > 0 && result.text.length < 100);
    assert.equal(result.end?.data.code, 'upstream_timeout');
  });

  it('streaming responses carry the headers intermediaries need and no compression', async () => {
    const { response } = await run(upstreamOf(wire('data: hi\n\n')));
    assert.equal(response.headers.get('cache-control'), 'no-cache, no-transform');
    assert.equal(response.headers.get('x-accel-buffering'), 'no');
    assert.equal(response.headers.get('content-encoding'), null);
    assert.ok(response.headers.get('x-request-id'));
  });
});
