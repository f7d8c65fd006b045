import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AnswerResponse } from '../../packages/bot-answer/src/protocol/types.js';
import { NO_ANSWER_TEXT, STREAM_DIALECTS, type RunningAnswerApi, type StreamDialect } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { splitIntoPieces } from '../../packages/bot-answer-engine/src/upstream/http/stream-answer.js';
import { ask, readEvents, startFixtureApi } from './helpers.js';
import { reassemble } from './reassemble.js';

const QUESTION = 'How do I roll back a release or book a flight?';
const SSE_DIALECTS = STREAM_DIALECTS.filter((d): d is Exclude<StreamDialect, 'json'> => d !== 'json');

async function jsonAnswer(api: RunningAnswerApi, body: Record<string, unknown>): Promise<AnswerResponse> {
  const response = await ask(api, { bot_id: 'demo', ...body, stream: false });
  return (await response.json()) as AnswerResponse;
}

describe('streaming (stream: true)', () => {
  for (const dialect of SSE_DIALECTS) {
    describe(`dialect ${dialect}`, () => {
      let api: RunningAnswerApi;
      before(async () => {
        api = await startFixtureApi({ dialect });
      });
      after(() => api.close());

      it('streams the same answer as JSON, in pieces, then sources and the end marker', async () => {
        const expected = await jsonAnswer(api, { message: QUESTION });
        assert.equal(expected.answer_found, true);
        assert.equal(expected.sources.length, 2);
        const response = await ask(api, { message: QUESTION, bot_id: 'demo', stream: true });
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
        assert.equal(response.headers.get('cache-control'), 'no-cache');
        const { events } = await readEvents(response);
        const result = reassemble(dialect, events);
        assert.equal(result.text, expected.answer);
        assert.deepEqual(result.pieces, splitIntoPieces(expected.answer, 3));
        assert.ok(result.pieces.length > 10);
        assert.deepEqual(result.sources, expected.sources);
        assert.equal(result.answerFound, true);
        assert.equal(result.ended, true);
      });

      it('streams "no answer" with no sources for an uncovered question', async () => {
        const { events } = await readEvents(await ask(api, { message: 'How many moons does Jupiter have?', bot_id: 'demo', stream: true }));
        const result = reassemble(dialect, events);
        assert.equal(result.text, NO_ANSWER_TEXT);
        assert.deepEqual(result.sources, []);
        assert.equal(result.answerFound, false);
        assert.equal(result.ended, true);
      });

      it('has no inline citations when inline_sources is false', async () => {
        const expected = await jsonAnswer(api, { message: QUESTION, inline_sources: false });
        const { events } = await readEvents(await ask(api, { message: QUESTION, bot_id: 'demo', stream: true, inline_sources: false }));
        const result = reassemble(dialect, events);
        assert.equal(result.text, expected.answer);
        assert.doesNotMatch(result.text, /\[\[\d+\]\]\(/);
        assert.equal(result.sources?.length, 2);
      });
    });
  }

  it('without the end marker, every dialect ends by closing the body after the sources', async () => {
    for (const dialect of SSE_DIALECTS) {
      const api = await startFixtureApi({ dialect, endMarker: false });
      try {
        const expected = await jsonAnswer(api, { message: QUESTION });
        const { events } = await readEvents(await ask(api, { message: QUESTION, bot_id: 'demo', stream: true }));
        const result = reassemble(dialect, events);
        assert.equal(result.ended, false, dialect);
        assert.equal(result.text, expected.answer, dialect);
        assert.deepEqual(result.sources, expected.sources, dialect);
      } finally {
        await api.close();
      }
    }
  });

  it('dialect json answers stream: true with one application/json answer', async () => {
    const api = await startFixtureApi({ dialect: 'json' });
    try {
      const expected = await jsonAnswer(api, { message: QUESTION });
      const response = await ask(api, { message: QUESTION, bot_id: 'demo', stream: true });
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await response.json(), expected);
    } finally {
      await api.close();
    }
  });

  it('paces pieces of wordsPerChunk words, each arriving on its own', async () => {
    const api = await startFixtureApi({ paceMs: 15, wordsPerChunk: 1 });
    try {
      const expected = await jsonAnswer(api, { message: 'How do I book a flight?' });
      const started = Date.now();
      const { events, chunks } = await readEvents(await ask(api, { message: 'How do I book a flight?', bot_id: 'demo', stream: true }));
      const elapsed = Date.now() - started;
      const result = reassemble('named', events);
      assert.equal(result.text, expected.answer);
      for (const piece of result.pieces) assert.match(piece, /^\S+\s*$/, 'one word per piece');
      assert.equal(result.pieces.length, expected.answer.split(/\s+/).filter(Boolean).length);
      // Pacing is a floor, not a speed claim: n pieces and the sources take at least n gaps.
      assert.ok(elapsed >= result.pieces.length * 15 * 0.9, `${elapsed} ms for ${result.pieces.length} pieces`);
      assert.ok(chunks.length >= result.pieces.length / 2, 'pieces are written apart, not buffered');
    } finally {
      await api.close();
    }
  });

  it('sends heartbeat comments while quiet for heartbeatMs, and none otherwise', async () => {
    const slow = await startFixtureApi({ paceMs: 120, wordsPerChunk: 20, heartbeatMs: 25 });
    const fast = await startFixtureApi();
    try {
      const quiet = await readEvents(await ask(slow, { message: 'How do I book a flight?', bot_id: 'demo', stream: true }));
      assert.ok(quiet.comments.length >= 2, `${quiet.comments.length} heartbeats`);
      assert.ok(quiet.comments.every((c) => c.trim() === 'keep-alive'));
      assert.equal(reassemble('named', quiet.events).ended, true);
      const busy = await readEvents(await ask(fast, { message: 'How do I book a flight?', bot_id: 'demo', stream: true }));
      assert.equal(busy.comments.length, 0);
    } finally {
      await Promise.all([slow.close(), fast.close()]);
    }
  });

  it('splits text into pieces that concatenate back exactly', () => {
    for (const text of ['', 'one', '  leading space', 'a b\n\nc\td  ', '| a | b |\n|---|---|\n```sh\nx y\n```', 'é — 😀 ok']) {
      for (const size of [1, 2, 3, 7]) {
        const pieces = splitIntoPieces(text, size);
        assert.equal(pieces.join(''), text);
        assert.ok(pieces.every((p) => p.trim() !== '' || text.trim() === ''));
      }
    }
  });
});
