import type { ErrorBody, Outcome, Source } from './types.js';

/**
 * The project's own stream protocol, spoken by the proxy and read by the element.
 * See docs/protocol.md for the full description. Each event is a named SSE event
 * whose `data` is one line of JSON; `:` comment lines are heartbeats.
 */
export const STREAM_EVENTS = {
  /** `{"text": string}`: append to the answer. */
  delta: 'delta',
  /** `{"text": string}`: the whole answer so far replaces what was shown. */
  replace: 'replace',
  /** `{"sources": Source[]}`: the sources (may come more than once; the last wins). */
  sources: 'sources',
  /** `{"answer_found": boolean, "outcome"?: Outcome}`: terminal, success. */
  done: 'done',
  /** `ErrorBody`: terminal, failure. */
  error: 'error',
} as const;

export type StreamEventName = (typeof STREAM_EVENTS)[keyof typeof STREAM_EVENTS];

/** Payload of each stream event, by name. */
export interface StreamEventMap {
  delta: { text: string };
  replace: { text: string };
  sources: { sources: Source[] };
  done: { answer_found: boolean; outcome?: Outcome };
  error: ErrorBody;
}

/** Serialises one event in SSE wire format. JSON never contains a raw newline, so one `data:` line suffices. */
export function formatStreamEvent<K extends StreamEventName>(name: K, data: StreamEventMap[K]): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A heartbeat: an SSE comment that keeps intermediaries from timing the stream out. */
export const HEARTBEAT = ': ping\n\n';

/**
 * The version of this protocol the proxy speaks, sent on every answer response as
 * {@link PROTOCOL_HEADER}. A client that does not know the version stops and reports it
 * (see docs/protocol.md); a response without the header speaks version 1.
 */
export const PROTOCOL_VERSION = 1;

/** The response header naming the protocol version. */
export const PROTOCOL_HEADER = 'X-Bot-Answer-Protocol';
