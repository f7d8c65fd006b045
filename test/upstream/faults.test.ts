import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnswerResponse } from '../../packages/bot-answer/src/protocol/types.js';
import { STREAM_DIALECTS, type AnswerApiOptions, type RunningAnswerApi, type StreamDialect } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { ask, KEY, readEvents, readLive, startFixtureApi } from './helpers.js';
import { reassemble } from './reassemble.js';

const QUESTION = 'How do I roll back a release or book a flight?';
const SSE_DIALECTS = STREAM_DIALECTS.filter((d): d is Exclude<StreamDialect, 'json'> => d !== 'json');

async function withApi(options: AnswerApiOptions, body: (api: RunningAnswerApi) => Promise<void>): Promise<void> {
  const api = await startFixtureApi(options);
  try {
    await body(api);
  } finally {
    await api.close();
  }
}

/** The JSON answer, from a fault-free server over the same knowledge base. */
async function expectedAnswer(message: string, inlineSources = true): Promise<AnswerResponse> {
  let answer: AnswerResponse | undefined;
  await withApi({}, async (api) => {
    answer = (await (await ask(api, { message, bot_id: 'demo', inline_sources: inlineSources })).json()) as AnswerResponse;
  });
  return answer!;
}

const streamBody = (message = QUESTION): Record<string, unknown> => ({ message, bot_id: 'demo', stream: true });

describe('fault modes', { timeout: 30_000 }, () => {
  it('headerDelayMs: holds the response headers back', async () => {
    await withApi({ faults: { headerDelayMs: 150 } }, async (api) => {
      const started = Date.now();
      const response = await ask(api, streamBody());
      assert.ok(Date.now() - started >= 140, 'headers came after the delay');
      assert.equal(reassemble('named', (await readEvents(response)).events).ended, true);
    });
  });

  it('headerDelayMs: a client giving up during the delay is recorded as an abort', async () => {
    await withApi({ faults: { headerDelayMs: 60_000 } }, async (api) => {
      const controller = new AbortController();
      const pending = ask(api, streamBody(), {}, { signal: controller.signal });
      while (api.requests[0]?.body === undefined) await new Promise((r) => setTimeout(r, 5));
      const abortedAt = Date.now();
      controller.abort();
      await assert.rejects(pending);
      const record = await api.waitForAbort();
      assert.equal(record.id, 1);
      // Seen while the headers were still held back (the delay outlasts the test's timeout), not once it ran out.
      assert.ok(record.abortedAt! >= abortedAt, 'the abort was recorded after the client left');
      assert.equal(record.finishedAt, undefined);
    });
  });

  it('stallAfterChunks + stallMs: stops writing (silently) for a while, then goes on', async () => {
    const expected = await expectedAnswer(QUESTION);
    await withApi({ heartbeatMs: 30, faults: { stallAfterChunks: 2, stallMs: 600 } }, async (api) => {
      const { events, comments } = await readLive(await ask(api, streamBody()));
      const result = reassemble('named', events);
      assert.equal(result.text, expected.answer);
      assert.equal(result.ended, true);
      // Half the stall: on a loaded machine the second piece itself can reach the client late, which shortens the gap seen.
      assert.ok(events[2]!.at - events[1]!.at >= 300, `gap ${events[2]!.at - events[1]!.at} ms after the second piece`);
      assert.equal(comments.length, 0, 'the stall is silent');
    });
  });

  it('stallAfterChunks + heartbeatDuringStall: stays alive with heartbeat comments', async () => {
    await withApi({ heartbeatMs: 30, faults: { stallAfterChunks: 1, stallMs: 250, heartbeatDuringStall: true } }, async (api) => {
      const { events, comments } = await readLive(await ask(api, streamBody()));
      assert.equal(reassemble('named', events).ended, true);
      const during = comments.filter((c) => c.at >= events[0]!.at && c.at <= events[1]!.at);
      assert.ok(during.length >= 3, `${during.length} heartbeats during the stall`);
    });
  });

  it('stallAfterChunks without stallMs: stalls until the client gives up, and the abort is seen at once', async () => {
    await withApi({ faults: { stallAfterChunks: 2 } }, async (api) => {
      const controller = new AbortController();
      const response = await ask(api, streamBody(), {}, { signal: controller.signal });
      const { events, abortedAt } = await readLive(response, { stopAfter: 2, controller });
      assert.equal(events.length, 2);
      // The stall has no end: the abort can only have been seen while it lasted.
      const record = await api.waitForAbort(1);
      assert.ok(record.abortedAt! >= abortedAt!, 'the abort was recorded after the client left');
      assert.equal(record.finishedAt, undefined);
    });
  });

  it('closeAfterChunks: destroys the connection after N pieces, without sources or end', async () => {
    for (const dialect of SSE_DIALECTS) {
      await withApi({ dialect, faults: { closeAfterChunks: 3 } }, async (api) => {
        const { events, error } = await readLive(await ask(api, streamBody()));
        assert.ok(error, `${dialect}: the body breaks`);
        const result = reassemble(dialect, events);
        assert.equal(result.pieces.length, 3, dialect);
        assert.equal(result.sources, undefined, dialect);
        assert.equal(result.ended, false, dialect);
        await new Promise((r) => setTimeout(r, 20));
        assert.equal(api.requests[0]!.abortedAt, undefined, 'a cut by the server is not a client abort');
        assert.ok(api.requests[0]!.finishedAt);
      });
    }
  });

  it('closeAfterChunks beyond the answer: cuts after the last piece, before the sources', async () => {
    const expected = await expectedAnswer(QUESTION);
    await withApi({ faults: { closeAfterChunks: 100_000 } }, async (api) => {
      const { events, error } = await readLive(await ask(api, streamBody()));
      assert.ok(error);
      const result = reassemble('named', events);
      assert.equal(result.text, expected.answer);
      assert.equal(result.sources, undefined);
    });
  });

  it('malformedEvent: one event of broken JSON after the first piece, in every dialect', async () => {
    const expected = await expectedAnswer(QUESTION);
    for (const dialect of SSE_DIALECTS) {
      await withApi({ dialect, faults: { malformedEvent: true } }, async (api) => {
        const { events } = await readEvents(await ask(api, streamBody()));
        const broken = events[1]!;
        assert.throws(() => JSON.parse(broken.data), SyntaxError, dialect);
        const rest = events.filter((e) => e !== broken);
        assert.equal(reassemble(dialect, rest).text, expected.answer, dialect);
      });
    }
  });

  it('oversizedEventBytes: one piece event carrying exactly that many bytes of data, in every dialect', async () => {
    for (const dialect of SSE_DIALECTS) {
      await withApi({ dialect, faults: { oversizedEventBytes: 200_000 } }, async (api) => {
        const { events } = await readEvents(await ask(api, streamBody()));
        const sizes = events.map((e) => Buffer.byteLength(e.data));
        assert.equal(sizes[1], 200_000, dialect);
        assert.ok(sizes.filter((s) => s > 10_000).length === 1, dialect);
      });
    }
  });

  it('splitMultibyte: characters arrive torn across reads, and decode back exactly', async () => {
    const message = 'What is the guest wifi password?';
    const expected = await expectedAnswer(message);
    assert.match(expected.answer, /[^\x00-\x7f]/, 'the answer has multi-byte characters');
    await withApi({ faults: { splitMultibyte: true } }, async (api) => {
      const { events, chunks } = await readEvents(await ask(api, streamBody(message)));
      assert.equal(reassemble('named', events).text, expected.answer);
      const torn = chunks.filter((chunk) => chunk.length > 0 && ((chunk.at(-1)! & 0xc0) === 0xc0 || (chunk[0]! & 0xc0) === 0x80));
      assert.ok(torn.length >= 2, `${torn.length} reads began or ended inside a character`);
    });
  });

  for (const status of [500, 502, 503]) {
    it(`status ${status}: every answer request gets it with a JSON body, whatever the request`, async () => {
      await withApi({ faults: { status } }, async (api) => {
        for (const [body, headers] of [
          [streamBody(), {}],
          [{ message: 'How do I book a flight?', bot_id: 'demo' }, {}],
          [{ message: 'x', bot_id: 'demo' }, { authorization: 'Bearer wrong' }],
        ] as const) {
          const response = await ask(api, body, headers);
          assert.equal(response.status, status);
          assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
          const json = (await response.json()) as { detail: string };
          assert.equal(typeof json.detail, 'string');
          assert.ok(!JSON.stringify(json).includes(KEY));
        }
      });
    });
  }
});
