/**
 * The internal fast path between the proxy's handler and its own `node:http` adapter. A
 * `Request` and a `Response` cost a Web stream and several copies each; for a small JSON
 * exchange that is most of the proxy's own CPU time. When the adapter serves the proxy's
 * handler directly it hands over a {@link LightRequest} (the fields the handler reads, and
 * the body read straight from the socket) and takes back a {@link LightResponse}. Every other
 * caller, and every other handler, still sees only `Request` and `Response`.
 */

/** Marks a handler that accepts a {@link LightRequest} in place of a `Request`. */
export const ACCEPTS_LIGHT = Symbol.for('bot-answer.proxy.accepts-light');

/** Marks an upstream client that takes a {@link LightSignal} as `init.signal` in place of an `AbortSignal`. */
export const ACCEPTS_LIGHT_SIGNAL = Symbol.for('bot-answer.proxy.accepts-light-signal');

/** Marks a {@link LightRequest}. */
export const LIGHT = Symbol.for('bot-answer.proxy.light-request');

/** What the handler reads of a request, served without building a `Request`. */
export interface LightRequest {
  readonly [LIGHT]: true;
  readonly method: string;
  /** The absolute request URL, as `Request.url` would give it. */
  readonly url: string;
  /** The URL's path, as `new URL(url).pathname` would give it. */
  readonly pathname: string;
  readonly headers: { get(name: string): string | null };
  /** Aborted when the client goes away. */
  readonly signal: ClientSignal;
  /**
   * The whole body, counted while it arrives: rejects with a `body_too_large` `ProxyError`
   * past `maxBytes` (and stops reading), with `body_unreadable` when the connection breaks.
   */
  readBody(maxBytes: number): Promise<Uint8Array>;
}

/** What the handler uses of a request's abort signal: an `AbortSignal` fits, and so does a lighter object. */
export interface ClientSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * An abort signal without an `EventTarget`: `aborted`, and `abort` listeners called once. An
 * `AbortSignal` (two maps and a listener object) is heavy to keep for every open stream; the
 * Node adapter and the pooled upstream client use this instead.
 */
export class LightSignal implements ClientSignal {
  aborted = false;
  private listeners: (() => void)[] | undefined;

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners?.indexOf(listener) ?? -1;
    if (at >= 0) this.listeners!.splice(at, 1);
  }

  /** Sets `aborted` and calls the listeners (once). */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }
}

/** Where a {@link StreamSource} writes: the client's response. */
export interface StreamSink {
  /** Sends `text`; false when the client is not keeping up (the source then waits for `resume`). */
  write(text: string): boolean;
  /** Ends the response after the last write. */
  end(): void;
}

/** A streamed body written straight to the response, without a Web stream in between. */
export interface StreamSource {
  /** Starts writing to `sink`; called once. */
  start(sink: StreamSink): void;
  /** The sink took what was written: go on. */
  resume(): void;
  /** The client went away. */
  cancel(): void;
  /** The same body as a Web stream, for a caller that needs a `Response`. */
  readonly stream: ReadableStream<Uint8Array>;
}

/** A response the adapter writes as it is: a complete body, or a stream written with back-pressure. */
export class LightResponse {
  constructor(
    readonly status: number,
    /** Lower-case names; each name once. */
    readonly headers: Record<string, string>,
    readonly body: Uint8Array | ReadableStream<Uint8Array> | StreamSource | null,
  ) {}

  /** The same response as a Web `Response`. */
  toResponse(): Response {
    const body = this.body;
    return new Response(body === null || body instanceof Uint8Array || body instanceof ReadableStream ? body : body.stream, { status: this.status, headers: this.headers });
  }
}

export function isLightRequest(request: unknown): request is LightRequest {
  return typeof request === 'object' && request !== null && (request as Partial<LightRequest>)[LIGHT] === true;
}
