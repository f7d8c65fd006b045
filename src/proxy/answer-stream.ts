import { createParser, type EventSourceParser } from 'eventsource-parser';
import { HEARTBEAT, formatStreamEvent } from '../protocol/stream-events.js';
import { DeadlineTimer } from './deadline-timer.js';
import type { BodyReader } from './config.js';
import type { StreamSink, StreamSource } from './light.js';
import { FAILURES, ProxyError, type Failure } from './errors.js';
import { StreamNormaliser, type NormalisedEvent } from './normalise.js';
import type { RequestTimers } from './timers.js';
import { Utf8Pieces, utf8Length } from './utf8.js';

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
  clientSignal: { readonly aborted: boolean };
  heartbeatMs: number;
  maxEventChars: number;
  onEnd(end: StreamEnd): void;
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
async function drainRest(reader: BodyReader, stop: () => void): Promise<void> {
  let left = DRAIN_BYTES;
  const timer = setTimeout(stop, DRAIN_MS);
  try {
    for (;;) {
      const result = await reader.read();
      if (result.done) break;
      if ((left -= result.value.byteLength) < 0) {
        stop();
        break;
      }
    }
  } catch {
    stop();
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The upstream's SSE, in whatever dialect, as the project's stream, written to a
 * {@link StreamSink}. The upstream is read only while the sink takes what is written, so a
 * slow reader holds back the upstream instead of filling the proxy's memory.
 *
 * Many streams stay open at once, so it is one object with methods rather than a Web stream
 * and a set of closures: the Node adapter writes it straight to the response
 * ({@link StreamSource}), and {@link stream} wraps it as a `ReadableStream` for everyone else.
 */
export class AnswerStream implements StreamSource {
  private readonly reader: BodyReader;
  private readonly timers: RequestTimers;
  private readonly options: AnswerStreamOptions;
  private readonly decoder = new Utf8Pieces();
  private readonly normaliser: StreamNormaliser;
  private readonly parser: EventSourceParser;
  /** Frames produced but not yet written. */
  private pending = '';
  private failure: Failure | undefined;
  private oversized = false;
  private bytes = 0;
  private finished = false;
  private upstreamEnded = false;
  private sink: StreamSink | undefined;
  /** The sink is not keeping up: no upstream read until {@link resume}. */
  private full = false;
  private reading = false;
  /** Output only moves {@link lastOutputAt}; the heartbeat timer re-arms itself when it fires. */
  private readonly heartbeat = new DeadlineTimer(() => this.beat());
  private lastOutputAt = 0;
  private web: ReadableStream<Uint8Array> | undefined;

  constructor(options: AnswerStreamOptions) {
    this.options = options;
    this.reader = options.reader;
    this.timers = options.timers;
    this.normaliser = new StreamNormaliser((event) => {
      this.pending += frame(event);
      if (event.type === 'error') this.failure = event.failure;
    });
    this.parser = createParser({
      onEvent: (event) => this.normaliser.event(event.event, event.data),
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.oversized = true;
      },
      maxBufferSize: options.maxEventChars,
    });
  }

  /** Starts writing to `sink` (once). */
  start(sink: StreamSink): void {
    if (this.sink) throw new Error('bot-answer proxy: an answer stream is written once');
    this.sink = sink;
    this.lastOutputAt = Date.now();
    this.armHeartbeat();
    void this.run();
  }

  /** The sink has room again: go on reading the upstream. */
  resume(): void {
    this.full = false;
    if (this.sink && !this.finished) void this.run();
  }

  /** The client went away: stop the upstream and end. */
  cancel(): void {
    this.finish('aborted');
  }

  /** Ends the stream early with a terminal error event for `failure`. */
  stop(failure: Failure): void {
    if (this.finished) return;
    this.timers.stop(failure);
  }

  /** The stream as a Web `ReadableStream` (made on first use; then it is the only consumer). */
  get stream(): ReadableStream<Uint8Array> {
    if (this.web) return this.web;
    const source = this;
    this.web = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          source.start({
            write(text) {
              controller.enqueue(encoder.encode(text));
              return (controller.desiredSize ?? 0) > 0;
            },
            end() {
              try {
                controller.close();
              } catch {
                // already cancelled by the consumer
              }
            },
          });
        },
        pull() {
          source.resume();
        },
        cancel() {
          source.cancel();
        },
      },
      { highWaterMark: 1 },
    );
    return this.web;
  }

  /** Reads the upstream and writes what it means, until the end or until the sink is full. */
  private async run(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      while (!this.finished && !this.full) {
        if (this.normaliser.ended) {
          this.close();
          return;
        }
        let result: Awaited<ReturnType<BodyReader['read']>>;
        try {
          result = await this.reader.read();
        } catch {
          if (this.finished) return;
          if (this.options.clientSignal.aborted && !this.timers.reason) {
            this.sink!.end();
            this.finish('aborted');
            return;
          }
          this.normaliser.broken(this.timers.reason ?? 'stream_broken');
          this.flush();
          continue;
        }
        if (this.finished) return;
        if (this.timers.reason) this.normaliser.broken(this.timers.reason);
        else if (result.done) {
          this.upstreamEnded = true;
          // A final event without its blank line still counts on a clean end.
          this.parser.feed(`${this.decoder.end()}\n\n`);
          this.normaliser.end();
        } else {
          this.timers.touch();
          this.parser.feed(this.decoder.decode(result.value));
          if (this.oversized) this.normaliser.broken('upstream_event_too_large');
        }
        this.flush();
      }
    } catch {
      // A bug here must not become an unhandled rejection that stops the server: this stream
      // ends with an internal error event instead.
      if (!this.finished) {
        try {
          this.normaliser.broken('internal');
          this.flush();
        } catch {
          this.sink!.end();
          this.finish(FAILURES.internal.outcome);
        }
      }
    } finally {
      this.reading = false;
    }
  }

  /** Writes the frames produced so far; after the terminal one, ends the stream. */
  private flush(): void {
    if (this.pending !== '') {
      const text = this.pending;
      this.pending = '';
      this.bytes += utf8Length(text);
      this.lastOutputAt = Date.now();
      if (!this.sink!.write(text)) this.full = true;
    }
    if (this.normaliser.ended) this.close();
  }

  private close(): void {
    if (this.finished) return;
    this.sink!.end();
    this.finish(this.failure ? FAILURES[this.failure].outcome : 'ok');
  }

  private finish(outcome: string): void {
    if (this.finished) return;
    this.finished = true;
    this.heartbeat.clear();
    this.timers.clear();
    if (!this.upstreamEnded) {
      // After an end marker the body's own end normally follows at once: reading it keeps the
      // pooled connection (aborting would cost a new one for the next request). Anything else
      // (an error, the client gone, an upstream that goes on sending) is stopped now.
      if (outcome === 'ok' && !this.failure && !this.options.clientSignal.aborted) void drainRest(this.reader, () => this.stopUpstream());
      else this.stopUpstream();
    }
    this.options.onEnd({ outcome, failure: this.failure, bytes: this.bytes, normaliser: this.normaliser });
  }

  private stopUpstream(): void {
    this.reader.cancel().catch(() => {});
    this.timers.abortUpstream();
  }

  /** Arms the heartbeat timer for `heartbeatMs` after the last output, unless it is armed for then already. */
  private armHeartbeat(): void {
    const every = this.options.heartbeatMs;
    if (every > 0 && !this.finished) this.heartbeat.arm(this.lastOutputAt + every);
  }

  private beat(): void {
    if (this.finished) return;
    if (Date.now() - this.lastOutputAt >= this.options.heartbeatMs) {
      // Only when the client is keeping up: a heartbeat must never pile up in a full buffer.
      if (!this.full) {
        this.bytes += HEARTBEAT_BYTES;
        if (!this.sink!.write(HEARTBEAT)) this.full = true;
      }
      this.lastOutputAt = Date.now();
    }
    this.armHeartbeat();
  }
}

const HEARTBEAT_BYTES = utf8Length(HEARTBEAT);

/** Starts an {@link AnswerStream}. */
export function createAnswerStream(options: AnswerStreamOptions): AnswerStream {
  return new AnswerStream(options);
}
