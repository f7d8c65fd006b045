import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AnswerResponse } from '../../protocol/types.js';
import { closingEvents, HEARTBEAT_COMMENT, malformedEvent, oversizedEvent, pieceEvent, type SseDialect } from './dialects.js';
import { splitInsideCharacters, triggerAfter } from './faults.js';
import type { FaultOptions } from '../options.js';

/** How an answer is streamed. */
export interface StreamSettings {
  dialect: SseDialect;
  endMarker: boolean;
  paceMs: number;
  wordsPerChunk: number;
  heartbeatMs: number;
  faults: FaultOptions;
}

/**
 * How a stream ended: `ended` cleanly; `cut`: the `closeAfterChunks` fault fired, and the
 * caller must now destroy the connection; `aborted` by the client (or server shutdown).
 */
export type StreamOutcome = 'ended' | 'cut' | 'aborted';

/**
 * Streams `response` as Server-Sent Events in the chosen dialect, paced, with heartbeat
 * comments whenever the stream is quiet for `heartbeatMs`, and with the stream faults applied.
 * Stops at once, leaving no timer behind, when `signal` aborts (the client went away).
 */
export async function streamAnswer(
  res: ServerResponse,
  response: AnswerResponse,
  settings: StreamSettings,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  const { dialect, faults } = settings;
  const pieces = splitIntoPieces(response.answer, settings.wordsPerChunk);
  const stallAt = triggerAfter(faults.stallAfterChunks, pieces.length);
  const closeAt = triggerAfter(faults.closeAfterChunks, pieces.length);
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
  const pace = async (): Promise<void> => {
    if (settings.paceMs > 0) await sleep(settings.paceMs, undefined, { signal });
  };

  try {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    heartbeat.restart();
    let soFar = '';
    for (let sent = 0; ; ) {
      if (sent === stallAt) await stall(faults, heartbeat, signal);
      if (sent === closeAt) {
        heartbeat.stop();
        // The pieces before the cut must reach the client, so wait until they left the socket.
        await flushed(res);
        return 'cut';
      }
      if (sent === pieces.length) break;
      if (sent > 0) await pace();
      const piece = pieces[sent]!;
      soFar += piece;
      await write(pieceEvent(dialect, piece, soFar));
      sent++;
      if (sent === 1 && faults.malformedEvent) await write(malformedEvent(dialect));
      if (sent === 1 && faults.oversizedEventBytes) await write(oversizedEvent(dialect, faults.oversizedEventBytes));
    }
    for (const event of closingEvents(dialect, response, settings.endMarker)) {
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
