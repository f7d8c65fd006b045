import { createParser } from 'eventsource-parser';
import { HEARTBEAT, formatStreamEvent } from '../protocol/stream-events.js';
import type { BodyReader } from './config.js';
import { FAILURES, ProxyError, type Failure } from './errors.js';
import { StreamNormaliser, type NormalisedEvent } from './normalise.js';
import type { RequestTimers } from './timers.js';
import { Utf8Pieces } from './utf8.js';

/** How a stream ended, for the request's log line. */
export interface StreamEnd {
  outcome: string;
  failure?: Failure;
  bytes: number;
  normaliser: StreamNormaliser;
}

export interface AnswerStreamOptions {
  /** Reads the upstream's SSE body. */
  reader: BodyReader;
  timers: RequestTimers;
  /** Aborted when the client goes away. */
  clientSignal: AbortSignal;
  heartbeatMs: number;
  maxEventChars: number;
  onEnd(end: StreamEnd): void;
}

/** A running answer stream; `stop` ends it early with a terminal error event. */
export interface AnswerStream {
  stream: ReadableStream<Uint8Array>;
  stop(failure: Failure): void;
}

const encoder = new TextEncoder();

/** One normalised event in the project's SSE wire format. */
export function frame(event: NormalisedEvent): string {
  switch (event.type) {
    case 'delta':
    case 'replace':
      return formatStreamEvent(event.type, { text: event.text });
    case 'sources':
      return formatStreamEvent('sources', { sources: event.sources });
    case 'done':
      return formatStreamEvent('done', { answer_found: event.answer_found });
    case 'error':
      return formatStreamEvent('error', new ProxyError(event.failure).toBody());
  }
}

/** Most bytes, and longest time, read and dropped after an end marker before the upstream is cut off. */
const DRAIN_BYTES = 16 * 1024;
const DRAIN_MS = 1_000;

/** Reads what follows an end marker, for nothing, until the body ends; stops the upstream past the bounds. */
function drainRest(reader: BodyReader, stop: () => void): void {
  let left = DRAIN_BYTES;
  let ended = false;
  const timer = setTimeout(() => {
    if (!ended) stop();
  }, DRAIN_MS);
  const step = (): void => {
    reader.read().then(
      (result) => {
        if (result.done) {
          ended = true;
          clearTimeout(timer);
        } else if ((left -= result.value.byteLength) < 0) {
          ended = true;
          clearTimeout(timer);
          stop();
        } else step();
      },
      () => {
        ended = true;
        clearTimeout(timer);
        stop();
      },
    );
  };
  step();
}

/**
 * The upstream's SSE, in whatever dialect, as the project's stream. Pull-based: the upstream
 * is read only when the client has taken what was sent, so a slow reader holds back the
 * upstream instead of filling the proxy's memory.
 */
export function createAnswerStream(options: AnswerStreamOptions): AnswerStream {
  const { timers, clientSignal } = options;
  const reader = options.reader;
  const decoder = new Utf8Pieces();
  let pending = '';
  let failure: Failure | undefined;
  const normaliser = new StreamNormaliser((event) => {
    pending += frame(event);
    if (event.type === 'error') failure = event.failure;
  });
  let oversized = false;
  const parser = createParser({
    onEvent: (event) => normaliser.event(event.event, event.data),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') oversized = true;
    },
    maxBufferSize: options.maxEventChars,
  });
  let bytes = 0;
  let finished = false;
  let upstreamEnded = false;
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  let heartbeat: ReturnType<typeof setTimeout> | undefined;

  const scheduleHeartbeat = () => {
    if (options.heartbeatMs <= 0 || finished) return;
    clearTimeout(heartbeat);
    heartbeat = setTimeout(() => {
      // Only when the client is keeping up: a heartbeat must never pile up in a full queue.
      if (!finished && controllerRef && (controllerRef.desiredSize ?? 0) > 0) {
        const chunk = encoder.encode(HEARTBEAT);
        bytes += chunk.byteLength;
        controllerRef.enqueue(chunk);
      }
      scheduleHeartbeat();
    }, options.heartbeatMs);
  };

  const stopUpstream = () => {
    reader.cancel().catch(() => {});
    timers.abortUpstream();
  };

  const finish = (outcome: string) => {
    if (finished) return;
    finished = true;
    clearTimeout(heartbeat);
    timers.clear();
    if (!upstreamEnded) {
      // After an end marker the body's own end normally follows at once: reading it keeps the
      // pooled connection (aborting would cost a new one for the next request). Anything else
      // (an error, the client gone, an upstream that goes on sending) is stopped now.
      if (outcome === 'ok' && !failure && !clientSignal.aborted) drainRest(reader, stopUpstream);
      else stopUpstream();
    }
    options.onEnd({ outcome, failure, bytes, normaliser });
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controllerRef = controller;
        scheduleHeartbeat();
      },
      async pull(controller) {
        for (;;) {
          if (pending !== '') {
            const chunk = encoder.encode(pending);
            pending = '';
            bytes += chunk.byteLength;
            controller.enqueue(chunk);
            scheduleHeartbeat();
            if (normaliser.ended) {
              controller.close();
              finish(failure ? FAILURES[failure].outcome : 'ok');
            }
            return;
          }
          if (normaliser.ended || finished) {
            if (!finished) {
              controller.close();
              finish(failure ? FAILURES[failure].outcome : 'ok');
            }
            return;
          }
          let result: Awaited<ReturnType<typeof reader.read>>;
          try {
            result = await reader.read();
          } catch {
            if (clientSignal.aborted && !timers.reason) {
              try {
                controller.close();
              } catch {
                // already cancelled by the consumer
              }
              finish('aborted');
              return;
            }
            normaliser.broken(timers.reason ?? 'stream_broken');
            continue;
          }
          if (timers.reason) {
            normaliser.broken(timers.reason);
            continue;
          }
          if (result.done) {
            upstreamEnded = true;
            // A final event without its blank line still counts on a clean end.
            parser.feed(`${decoder.end()}\n\n`);
            normaliser.end();
            continue;
          }
          timers.touch();
          parser.feed(decoder.decode(result.value));
          if (oversized) normaliser.broken('upstream_event_too_large');
        }
      },
      cancel() {
        finish('aborted');
      },
    },
    { highWaterMark: 1 },
  );

  return {
    stream,
    stop(reason: Failure) {
      if (finished) return;
      timers.stop(reason);
    },
  };
}
