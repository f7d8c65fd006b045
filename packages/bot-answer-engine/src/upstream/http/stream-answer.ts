import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AnswerResponse, Source } from '../../../../bot-answer/src/protocol/types.js';
import { closingEvents, errorEvent, HEARTBEAT_COMMENT, malformedEvent, oversizedEvent, pieceEvent, type SseDialect } from './dialects.js';
import { splitInsideCharacters, triggerAfter } from './faults.js';
import type { FaultOptions } from '../options.js';

/**
 * An answer as it becomes available: its text in pieces, then how it ended. The extractive
 * answer is complete at once ({@link answerSource}); a written answer arrives as the model writes it.
 */
export interface AnswerSource {
  /** Milliseconds to wait between the events written for this answer; 0 writes each piece as it comes. */
  readonly paceMs: number;
  /** The answer's text in non-empty pieces, in order. Throws when the answer fails after it began. */
  readonly pieces: AsyncIterable<string>;
  /** Once `pieces` is done: whether an answer was found, and its sources. */
  end(): { answer_found: boolean; sources: Source[] };
}

/** How an answer is streamed. */
export interface StreamSettings {
  dialect: SseDialect;
  endMarker: boolean;
  heartbeatMs: number;
  faults: FaultOptions;
}

/**
 * How a stream ended: `ended` cleanly; `cut`: the `closeAfterChunks` fault fired, and the
 * caller must now destroy the connection; `failed`: the answer broke off after it began and the
 * stream ended with the dialect's error event; `aborted` by the client (or server shutdown).
 */
export type StreamOutcome = 'ended' | 'cut' | 'failed' | 'aborted';

/** A finished answer as a source: its text in pieces of `wordsPerChunk` words, `paceMs` apart. */
export function answerSource(response: AnswerResponse, { paceMs, wordsPerChunk }: { paceMs: number; wordsPerChunk: number }): AnswerSource {
  const pieces = splitIntoPieces(response.answer, wordsPerChunk);
  return {
    paceMs,
    pieces: (async function* () {
      yield* pieces;
    })(),
    end: () => ({ answer_found: response.answer_found, sources: response.sources }),
  };
}

/** Reads a whole source into one answer; throws as its pieces do. */
export async function collectAnswer(source: AnswerSource): Promise<AnswerResponse> {
  let answer = '';
  for await (const piece of source.pieces) answer += piece;
  return { answer, ...source.end() };
}

/**
 * Streams an answer as Server-Sent Events in the chosen dialect: the headers at once, then
 * each piece as the source gives it (paced as the source asks), then the sources and the end
 * marker; heartbeat comments whenever the stream is quiet for `heartbeatMs` (also while the
 * source is still starting); the stream faults applied. An answer that fails after it began
 * ends with the dialect's error event. Stops at once, leaving no timer behind, when `signal`
 * aborts (the client went away).
 */
export async function streamAnswer(
  res: ServerResponse,
  answer: AnswerSource | Promise<AnswerSource>,
  settings: StreamSettings,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  const { dialect, faults } = settings;
  const heartbeat = new Heartbeat(res, settings.heartbeatMs);

  const write = async (chunk: string): Promise<void> => {
    const parts = faults.splitMultibyte ? splitInsideCharacters(chunk) : [Buffer.from(chunk, 'utf8')];
    for (const [i, part] of parts.entries()) {
      // A short gap puts the halves of a character into separate TCP segments.
      if (i > 0) await sleep(2, undefined, { signal });
      if (signal.aborted) throw signal.reason;
      if (!res.write(part)) await once(res, 'drain', { signal });
    }
    heartbeat.restart();
  };

  try {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    heartbeat.restart();
    const source = await untilAborted(answer, signal);
    const pace = async (): Promise<void> => {
      if (source.paceMs > 0) await sleep(source.paceMs, undefined, { signal });
    };
    const pieces = source.pieces[Symbol.asyncIterator]();
    const stallAt = triggerAfter(faults.stallAfterChunks);
    const closeAt = triggerAfter(faults.closeAfterChunks);
    let soFar = '';
    for (let sent = 0; ; ) {
      if (sent === stallAt) await stall(faults, heartbeat, signal);
      if (sent === closeAt) return await cut(res, heartbeat);
      let next: IteratorResult<string>;
      try {
        next = await pieces.next();
      } catch (error) {
        if (signal.aborted) throw error;
        await write(errorEvent(dialect));
        heartbeat.stop();
        res.end();
        return 'failed';
      }
      if (next.done) {
        if (stallAt !== undefined && stallAt > sent) await stall(faults, heartbeat, signal);
        if (closeAt !== undefined && closeAt > sent) return await cut(res, heartbeat);
        break;
      }
      if (sent > 0) await pace();
      soFar += next.value;
      await write(pieceEvent(dialect, next.value, soFar));
      sent++;
      if (sent === 1 && faults.malformedEvent) await write(malformedEvent(dialect));
      if (sent === 1 && faults.oversizedEventBytes) await write(oversizedEvent(dialect, faults.oversizedEventBytes));
    }
    for (const event of closingEvents(dialect, { answer: soFar, ...source.end() }, settings.endMarker)) {
      await pace();
      await write(event);
    }
    heartbeat.stop();
    res.end();
    return 'ended';
  } catch (error) {
    heartbeat.stop();
    if (signal.aborted) return 'aborted';
    throw error;
  }
}

/** The `closeAfterChunks` fault: the pieces before the cut must reach the client, so wait until they left the socket. */
async function cut(res: ServerResponse, heartbeat: Heartbeat): Promise<'cut'> {
  heartbeat.stop();
  await flushed(res);
  return 'cut';
}

/** `value`, or a rejection with the abort reason as soon as `signal` aborts. */
function untilAborted<T>(value: T | Promise<T>, signal: AbortSignal): Promise<T> {
  if (!(value instanceof Promise)) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve(value);
  // Its failure after an abort is nobody's concern any more.
  value.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    value.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Splits text into pieces of `wordsPerChunk` words, each word with the whitespace after it,
 * so the pieces concatenate back to exactly the text.
 */
export function splitIntoPieces(text: string, wordsPerChunk: number): string[] {
  const words = text.split(/(?<=\s)(?=\S)/).filter(Boolean);
  if (words.length > 1 && words[0]!.trim() === '') words.splice(0, 2, words[0]! + words[1]!);
  const size = Math.max(1, Math.floor(wordsPerChunk));
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += size) pieces.push(words.slice(i, i + size).join(''));
  return pieces;
}

/** Resolves once everything written so far has been handed to the operating system. */
function flushed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const socket = res.socket;
    if (!socket || socket.destroyed) return resolve();
    // Socket writes complete in order, so an empty write completes after every earlier one.
    socket.write(Buffer.alloc(0), () => resolve());
  });
}

/** Stops writing for `stallMs` (default until the client gives up); silent unless `heartbeatDuringStall`. */
async function stall(faults: FaultOptions, heartbeat: Heartbeat, signal: AbortSignal): Promise<void> {
  if (!faults.heartbeatDuringStall) heartbeat.stop();
  if (faults.stallMs !== undefined) {
    await sleep(faults.stallMs, undefined, { signal });
  } else {
    await new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }
  heartbeat.restart();
}

/** Writes an SSE comment after every `ms` without other output. */
class Heartbeat {
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly ms: number,
  ) {}

  restart(): void {
    this.stop();
    if (this.ms <= 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.res.writable) this.res.write(HEARTBEAT_COMMENT);
      this.restart();
    }, this.ms);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
