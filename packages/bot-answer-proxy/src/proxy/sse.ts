import { HEARTBEAT, formatStreamEvent } from '../../../bot-answer/src/protocol/stream-events.js';
import type { AnswerEvents, AnswerResult } from './answer.js';
import { FAILURES, ProxyError, type Failure } from './errors.js';
import type { NormalisedEvent } from './normalise.js';

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
  'x-content-type-options': 'nosniff',
};

/** One normalised event in the project's SSE wire format. */
export function frame(event: NormalisedEvent): string {
  switch (event.type) {
    case 'delta':
    case 'replace':
      return formatStreamEvent(event.type, { text: event.text });
    case 'sources':
      return formatStreamEvent('sources', { sources: event.sources });
    case 'done':
      return formatStreamEvent('done', { answer_found: event.answer_found, outcome: event.outcome });
    case 'error':
      return formatStreamEvent('error', new ProxyError(event.failure).toBody());
  }
}

/** A whole answer as the project's stream, for a client that asked to stream an answer the upstream gave whole. */
export function resultFrames(result: AnswerResult): string {
  let text = '';
  if (result.answer !== '') text += frame({ type: 'delta', text: result.answer });
  if (result.sources.length > 0) text += frame({ type: 'sources', sources: result.sources });
  return text + frame({ type: 'done', answer_found: result.answer_found, outcome: result.outcome });
}

/** How a stream ended, for the request's log line. */
export interface StreamEnd {
  outcome: string;
  failure?: Failure;
  bytes: number;
}

const encoder = new TextEncoder();

/**
 * An answer's events as the response body: each pull reads the upstream once, so a client that
 * does not read holds the upstream back instead of filling the proxy's memory; a heartbeat
 * comment goes out after `heartbeatMs` of quiet, only while the client keeps up.
 */
export class AnswerStream {
  readonly body: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private heartbeat?: ReturnType<typeof setTimeout>;
  private lastOutputAt = Date.now();
  private bytes = 0;
  private failure: Failure | undefined;
  private finished = false;

  constructor(
    private readonly events: AnswerEvents,
    private readonly heartbeatMs: number,
    private readonly onEnd: (end: StreamEnd) => void,
  ) {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
          this.armHeartbeat();
        },
        pull: () => this.pull(),
        cancel: () => {
          this.events.stop();
          this.finish('aborted');
        },
      },
      { highWaterMark: 1 },
    );
  }

  /** Ends the stream early with a terminal error event for `failure` (shutdown). */
  stop(failure: Failure): void {
    if (!this.finished) this.events.stop(failure);
  }

  private async pull(): Promise<void> {
    let text = '';
    let ended = false;
    try {
      for (const event of await this.events.next()) {
        text += frame(event);
        if (event.type === 'error') this.failure = event.failure;
        ended ||= event.type === 'done' || event.type === 'error';
      }
    } catch {
      // A bug must not become an unhandled rejection that stops the server: the stream ends with an error event.
      this.failure = 'internal';
      text += frame({ type: 'error', failure: 'internal' });
      ended = true;
    }
    if (this.finished) return;
    if (text !== '') this.write(text);
    if (ended || text === '') {
      this.controller.close();
      this.finish(this.failure ? FAILURES[this.failure].outcome : 'ok');
    }
  }

  private write(text: string): void {
    const bytes = encoder.encode(text);
    this.bytes += bytes.byteLength;
    this.lastOutputAt = Date.now();
    this.controller.enqueue(bytes);
  }

  private finish(outcome: string): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.heartbeat);
    try {
      this.onEnd({ outcome, failure: this.failure, bytes: this.bytes });
    } catch {
      // a log function that throws must not break the response, nor stop the server
    }
  }

  private armHeartbeat(): void {
    if (this.heartbeatMs > 0 && !this.finished) this.heartbeat = setTimeout(() => this.beat(), this.lastOutputAt + this.heartbeatMs - Date.now());
  }

  private beat(): void {
    if (this.finished) return;
    if (Date.now() - this.lastOutputAt >= this.heartbeatMs) {
      // Only when the client is keeping up: a heartbeat must never pile up in a full buffer.
      if ((this.controller.desiredSize ?? 0) > 0) this.write(HEARTBEAT);
      else this.lastOutputAt = Date.now();
    }
    this.armHeartbeat();
  }
}
