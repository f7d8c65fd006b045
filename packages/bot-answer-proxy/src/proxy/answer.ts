import { createParser, type EventSourceParser } from 'eventsource-parser';
import { deriveOutcome } from '../../../bot-answer/src/protocol/outcome.js';
import type { AnswerRequest, AnswerResponse, Outcome } from '../../../bot-answer/src/protocol/types.js';
import type { UpstreamResponse } from './upstream-client.js';
import type { RequestContext } from './context.js';
import { ProxyError, type Failure } from './errors.js';
import { StreamNormaliser, type NormalisedEvent } from './normalise.js';
import type { RequestTimers } from './timers.js';
import { callUpstream } from './upstream.js';

/** A whole answer as the proxy serves it: always with its outcome. */
export type AnswerResult = AnswerResponse & { outcome: Outcome };

/** `answer` with its outcome: as it says, else derived from `answer_found` and the sources (answers cached before the field). */
export function withOutcome(answer: AnswerResponse): AnswerResult {
  return answer.outcome ? (answer as AnswerResult) : { ...answer, outcome: deriveOutcome(answer.answer_found, answer.sources) };
}

/**
 * The upstream's answer, normalised: one whole result, or the project's stream events as the
 * upstream sends them. This is what a cache stores and replays in place of the upstream call.
 */
export type Answer = { result: AnswerResult; events?: undefined } | { events: AnswerEvents; result?: undefined };

/** An answer's stream events, pulled as the client takes them. */
export interface AnswerEvents {
  /**
   * The next events: at least one until the terminal `done` or `error` (the last event given),
   * then none. Never rejects: a failure is an `error` event.
   */
  next(): Promise<NormalisedEvent[]>;
  /** Stops early: with `failure` the next events end with its error; without, the client is gone. */
  stop(failure?: Failure): void;
  /** Upstream events that could not be read, and the upstream's own error text (debug logs only). */
  readonly malformed: number;
  readonly upstreamNote?: string;
}

/** Asks the upstream and normalises what it answers, whatever its dialect. */
export async function fetchAnswer(ctx: RequestContext, body: AnswerRequest, signal: AbortSignal, timers: RequestTimers): Promise<Answer> {
  const upstream = await callUpstream(ctx, body, signal, timers);
  const type = (upstream.header('content-type') ?? '').toLowerCase();
  const isSse = type.includes('text/event-stream') || (!type.includes('json') && body.stream === true);
  if (!isSse) return { result: await readJsonAnswer(upstream, timers, ctx.cfg.maxUpstreamBytes) };
  const events = new UpstreamEvents(upstream.body, timers, ctx.cfg.maxEventChars);
  return body.stream ? { events } : { result: await events.collect() };
}

async function readJsonAnswer(upstream: UpstreamResponse, timers: RequestTimers, maxBytes: number): Promise<AnswerResult> {
  const decoder = new TextDecoder();
  let text = '';
  let total = 0;
  try {
    for await (const chunk of upstream.body) {
      timers.touch();
      if ((total += chunk.byteLength) > maxBytes) throw new ProxyError('upstream_bad_answer');
      text += decoder.decode(chunk, { stream: true });
    }
    text += decoder.decode();
  } catch (error) {
    timers.abortUpstream();
    throw error instanceof ProxyError ? error : new ProxyError(timers.reason ?? 'stream_broken');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProxyError('upstream_bad_answer');
  }
  let result: AnswerResult | undefined;
  const normaliser = new StreamNormaliser((event) => {
    if (event.type === 'done') result = { answer: normaliser.text, answer_found: event.answer_found, sources: normaliser.sources, outcome: event.outcome };
  });
  if (!normaliser.value(json)) throw new ProxyError('upstream_bad_answer');
  normaliser.end();
  if (normaliser.errorFailure || !result) throw new ProxyError(normaliser.errorFailure ?? 'upstream_bad_answer');
  return result;
}

/** Most bytes, and longest time, read and dropped after an end marker before the upstream is cut off. */
const DRAIN_BYTES = 16 * 1024;
const DRAIN_MS = 1_000;

/** The upstream's SSE body, in whatever dialect, as the project's events; read only when asked. */
class UpstreamEvents implements AnswerEvents {
  private readonly normaliser: StreamNormaliser;
  private readonly parser: EventSourceParser;
  // Streaming: a character split across chunks is held back until the rest arrives.
  private readonly decoder = new TextDecoder();
  private readonly chunks: AsyncIterator<Uint8Array>;
  private out: NormalisedEvent[] = [];
  private oversized = false;
  private bodyEnded = false;
  private released = false;

  constructor(
    body: AsyncIterable<Uint8Array>,
    private readonly timers: RequestTimers,
    maxEventChars: number,
  ) {
    this.chunks = body[Symbol.asyncIterator]();
    this.normaliser = new StreamNormaliser((event) => this.out.push(event));
    this.parser = createParser({
      onEvent: (event) => this.normaliser.event(event.event, event.data),
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.oversized = true;
      },
      maxBufferSize: maxEventChars,
    });
  }

  get malformed(): number {
    return this.normaliser.malformed;
  }

  get upstreamNote(): string | undefined {
    return this.normaliser.upstreamErrorNote;
  }

  async next(): Promise<NormalisedEvent[]> {
    const normaliser = this.normaliser;
    while (this.out.length === 0 && !normaliser.ended) {
      let result: IteratorResult<Uint8Array>;
      try {
        result = await this.chunks.next();
      } catch {
        normaliser.broken(this.timers.reason ?? 'stream_broken');
        break;
      }
      if (this.timers.reason) normaliser.broken(this.timers.reason);
      else if (result.done) {
        this.bodyEnded = true;
        // A final event without its blank line still counts on a clean end.
        this.parser.feed(`${this.decoder.decode()}\n\n`);
        normaliser.end();
      } else {
        this.timers.touch();
        this.parser.feed(this.decoder.decode(result.value, { stream: true }));
        if (this.oversized) normaliser.broken('upstream_event_too_large');
      }
    }
    const events = this.out;
    this.out = [];
    if (normaliser.ended) this.release();
    return events;
  }

  /** Reads every event into one result (the normaliser's text and sources); an error event becomes the thrown failure. */
  async collect(): Promise<AnswerResult> {
    for (;;) {
      for (const event of await this.next()) {
        if (event.type === 'error') throw new ProxyError(event.failure);
        if (event.type === 'done') return { answer: this.normaliser.text, answer_found: event.answer_found, sources: this.normaliser.sources, outcome: event.outcome };
      }
    }
  }

  stop(failure?: Failure): void {
    if (failure) this.timers.stop(failure);
    else {
      this.normaliser.broken('stream_broken');
      this.release();
    }
  }

  /** After the end: the body's own end normally follows an end marker at once; reading it keeps the pooled connection. */
  private release(): void {
    if (this.released) return;
    this.released = true;
    this.timers.clear();
    if (this.bodyEnded) return;
    if (this.normaliser.errorFailure) this.timers.abortUpstream();
    else void this.drain();
  }

  private async drain(): Promise<void> {
    let left = DRAIN_BYTES;
    const timer = setTimeout(() => this.timers.abortUpstream(), DRAIN_MS);
    try {
      for (;;) {
        const result = await this.chunks.next();
        if (result.done) break;
        if ((left -= result.value.byteLength) < 0) {
          this.timers.abortUpstream();
          break;
        }
      }
    } catch {
      this.timers.abortUpstream();
    } finally {
      clearTimeout(timer);
    }
  }
}
