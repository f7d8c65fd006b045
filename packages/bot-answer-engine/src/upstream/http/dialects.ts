import type { AnswerResponse } from '../../../../bot-answer/src/protocol/types.js';
import type { StreamDialect } from '../options.js';

/**
 * How each stream dialect puts an answer on the wire. Every dialect sends the answer in
 * pieces whose texts, concatenated, are exactly the answer, then the sources, then (when the
 * end marker is on) its end marker:
 *
 * | dialect | each piece | sources (and answer_found) | end marker |
 * |---|---|---|---|
 * | `named` | `event: delta` `{"text"}` | `event: sources` `{"sources"}` | `event: done` `{"answer_found"}` |
 * | `typed` | `{"type":"answer","text"}` | `{"type":"sources","sources"}` | `{"type":"end","answer_found"}` |
 * | `openai` | `{"choices":[{"delta":{"content"}}]}` | last chunk: `finish_reason:"stop"`, top-level `sources`, `answer_found` | `[DONE]` |
 * | `cumulative` | `{"answer": whole answer so far}` | a last `{"answer","answer_found","sources"}` | `event: end` `{}` |
 * | `final` | `{"text"}` | the final complete `{"answer","answer_found","sources"}` | `event: end` `{}` |
 * | `plain` | the raw text as `data:` lines | `event: sources` with a JSON array | `event: end` `{"answer_found"}` |
 *
 * An answer that fails after it began (a written answer whose model broke off) ends instead with
 * the dialect's error event ({@link errorEvent}), in place of the sources and the end marker.
 *
 * Events without `event:` are unnamed `data:` events. `json` does not stream: it answers
 * `application/json` in one piece.
 */
export type SseDialect = Exclude<StreamDialect, 'json'>;

/** Every dialect, in the order of the notes; `json` last. */
export const STREAM_DIALECTS: readonly StreamDialect[] = ['named', 'typed', 'openai', 'cumulative', 'final', 'plain', 'json'];

/** One answer piece as an SSE event. `soFar` is the whole answer up to and including this piece. */
export function pieceEvent(dialect: SseDialect, text: string, soFar: string): string {
  switch (dialect) {
    case 'named':
      return event('delta', { text });
    case 'typed':
      return event(undefined, { type: 'answer', text });
    case 'openai':
      return event(undefined, { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
    case 'cumulative':
      return event(undefined, { answer: soFar });
    case 'final':
      return event(undefined, { text });
    case 'plain':
      return rawEvent(undefined, text);
  }
}

/** The events after the last piece: the sources, and the end marker when `endMarker` is on. */
export function closingEvents(dialect: SseDialect, response: AnswerResponse, endMarker: boolean): string[] {
  const { answer, answer_found, sources } = response;
  const [body, end] = ((): [string, string] => {
    switch (dialect) {
      case 'named':
        return [event('sources', { sources }), event('done', { answer_found })];
      case 'typed':
        return [event(undefined, { type: 'sources', sources }), event(undefined, { type: 'end', answer_found })];
      case 'openai':
        return [
          event(undefined, { object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], sources, answer_found }),
          rawEvent(undefined, '[DONE]'),
        ];
      case 'cumulative':
      case 'final':
        return [event(undefined, { answer, answer_found, sources }), event('end', {})];
      case 'plain':
        return [event('sources', sources), event('end', { answer_found })];
    }
  })();
  return endMarker ? [body, end] : [body];
}

/** The message of every error event: fixed, never a model's or a library's words. */
const FAILED = 'The answer could not be completed.';

/**
 * The terminal event of an answer that failed after it began: how each dialect's kind of
 * service reports an error inside its stream (OpenAI-style services send an `error` object in
 * a data event; services with named events, `event: error`).
 */
export function errorEvent(dialect: SseDialect): string {
  switch (dialect) {
    case 'named':
    case 'cumulative':
    case 'final':
      return event('error', { detail: FAILED });
    case 'typed':
      return event(undefined, { type: 'error', detail: FAILED });
    case 'openai':
      return event(undefined, { error: { message: FAILED, type: 'server_error' } });
    case 'plain':
      return rawEvent('error', FAILED);
  }
}

/** An event whose data claims to be JSON but is cut short (for the `malformedEvent` fault). */
export function malformedEvent(dialect: SseDialect): string {
  const broken = '{"text": "this event is cut sh';
  return dialect === 'named' ? rawEvent('delta', broken) : rawEvent(undefined, broken);
}

/**
 * A well-formed piece event carrying `bytes` bytes of data (for the `oversizedEventBytes`
 * fault): its text is that many `x`, less the JSON around it.
 */
export function oversizedEvent(dialect: SseDialect, bytes: number): string {
  const wrapper = Buffer.byteLength(dataOf(pieceEvent(dialect, '', '')));
  const text = 'x'.repeat(Math.max(1, bytes - wrapper));
  return pieceEvent(dialect, text, text);
}

/** An SSE comment: ignored by parsers, keeps idle connections alive. */
export const HEARTBEAT_COMMENT = ': keep-alive\n\n';

function event(name: string | undefined, data: unknown): string {
  // JSON.stringify never emits a raw line break, so one data line always suffices.
  return rawEvent(name, JSON.stringify(data));
}

function rawEvent(name: string | undefined, data: string): string {
  const lines = data.split('\n').map((line) => `data: ${line}\n`).join('');
  return `${name ? `event: ${name}\n` : ''}${lines}\n`;
}

function dataOf(wire: string): string {
  return wire
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6))
    .join('\n');
}
