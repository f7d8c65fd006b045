import { createParser } from 'eventsource-parser';
import { isOutcome } from '../protocol/outcome.js';
import type { AnswerRequest, ErrorBody, Outcome } from '../protocol/types.js';

/** What the client reports while an answer arrives. */
export interface AnswerHandlers {
  /** Text to append to the answer. */
  delta(text: string): void;
  /** The whole answer so far, replacing what was shown. */
  replace(text: string): void;
  /** The `sources` value as the server sent it, unchecked (the last call wins). */
  sources(sources: unknown): void;
  /** The proxy's id for this request (its `X-Request-Id` response header), once the response starts. */
  requestId?(id: string): void;
}

/** How a complete answer ended: `answer_found`, and the proxy's `outcome` when it says one (proxies before the field do not). */
export interface AnswerEnd {
  answer_found: boolean;
  outcome?: Outcome;
}

/** The end of an answer from the JSON answer or the stream's `done` data (an unknown outcome counts as none). */
const endOf = (d: { answer_found?: unknown; outcome?: unknown }): AnswerEnd => ({ answer_found: d.answer_found !== false, outcome: isOutcome(d.outcome) ? d.outcome : undefined });

/** Headers a host adds to each request (e.g. `Authorization` with a short-lived token), possibly fetched first. */
export type HeadersCallback = () => HeadersInit | Promise<HeadersInit>;

/** How to send requests to the proxy: the element's settings. */
export interface RequestOptions {
  /** Milliseconds to wait for each next byte of an answer, heartbeats included (default 60,000). */
  timeout?: number;
  /** Whether cookies and HTTP authentication go with it, as in `fetch` (default `same-origin`). */
  credentials?: RequestCredentials;
  /** Called before each request; its headers are added (`content-type` stays JSON). */
  getHeaders?: HeadersCallback;
}

/**
 * A request to the proxy with the host's headers and credentials mode: a JSON POST of `body`, or a GET
 * without one. Rejects with an {@link AnswerError} `headers` when the host's headers callback failed, or as
 * `fetch` does.
 */
export async function send(url: string, body: unknown, signal: AbortSignal, { credentials, getHeaders }: RequestOptions = {}): Promise<Response> {
  let headers;
  try {
    headers = new Headers(await getHeaders?.());
  } catch (e) {
    throw new AnswerError('headers', 'getHeaders failed: ' + e);
  }
  if (body === undefined) return fetch(url, { headers, credentials, signal });
  headers.set('content-type', 'application/json');
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body), credentials, signal });
}

/** Body of `POST <feedback-endpoint>`: a visitor's rating of one answer, keyed by the proxy's request id. */
export interface FeedbackRequest {
  request_id: string;
  bot_id: string;
  rating: 'up' | 'down';
  /** At most 1,000 characters. */
  comment?: string;
}

/**
 * A failed request as a value: `code` is the proxy's error code, or one of the client's own:
 * `network` (no response), `offline` (the browser says it is offline), `timeout` (nothing
 * arrived for too long), `stream_interrupted` (the stream ended without its terminal event),
 * `aborted` (stopped by the caller; never shown as an error).
 */
export class AnswerError extends Error implements ErrorBody {
  constructor(
    readonly code: string,
    message: string,
    /** Seconds to wait before asking again, from `Retry-After` or the body. */
    readonly retry_after?: number,
  ) {
    super(message);
  }
}

/**
 * Milliseconds between reads of a stream that trickles in. Each read costs the main thread about the same
 * whatever it holds (a task, promises, decoding, parsing), so fewer, fuller reads are cheaper: a 2,000-event
 * answer (2 ms apart) took about 510 reads after 240 waits with 16 ms, about 190 reads after 80 waits with
 * 50 ms, and the element's main-thread time while streaming fell by about a tenth. The renderer shows text at
 * most once a frame and, on long answers, a few times a second, so the wait is not seen; the end of an
 * answer shows at most this much later.
 */
const READ_WAIT = 50;

/** The code for an error response without a JSON error body (an intermediary's page). */
const CODE_BY_STATUS: Record<number, string> = { 404: 'unknown_bot', 429: 'rate_limited', 504: 'upstream_timeout' };

/** The {@link AnswerError} of an error response: its JSON error body's, or, without one (an intermediary's error page), the status's. */
export async function responseError(res: Response): Promise<AnswerError> {
  const body: Partial<ErrorBody> = (await res.json().catch(() => 0))?.error ?? {};
  return new AnswerError(
    body.code ?? CODE_BY_STATUS[res.status] ?? (res.status < 500 ? 'bad_request' : 'upstream_error'),
    body.message ?? 'HTTP ' + res.status,
    // The proxy sends delay-seconds (RFC 9110 also allows a date, which counts as unknown here).
    +res.headers.get('retry-after')! || body.retry_after,
  );
}

/**
 * Asks the proxy once: `POST endpoint` with `request`, streaming (`request.stream`) or JSON.
 * Never retries. Resolves with how it ended (`answer_found`, `outcome`) when the answer is complete; rejects with an
 * {@link AnswerError} (`headers` when the host's headers callback failed).
 */
export async function fetchAnswer(
  endpoint: string,
  request: AnswerRequest,
  on: AnswerHandlers,
  /** The caller aborts it to stop the request (the answer then fails with `aborted`); aborted here when done. */
  ctrl: AbortController,
  options: RequestOptions = {},
): Promise<AnswerEnd> {
  const { timeout = 60000 } = options;
  let timedOut = false;
  let timer = 0;
  let last = performance.now();
  // One timer for the whole request, not one per chunk: when it fires early it waits out the rest.
  const arm = (): unknown => {
    const wait = last + timeout - performance.now();
    return wait > 0 ? (timer = setTimeout(arm, wait) as unknown as number) : ((timedOut = true), ctrl.abort());
  };
  arm();
  try {
    const res = await send(endpoint, request, ctrl.signal, options);
    const id = res.headers.get('x-request-id');
    if (id) on.requestId?.(id);
    if (!res.ok) throw await responseError(res);
    if (!res.body || !/event-stream/.test(res.headers.get('content-type') ?? '')) {
      // JSON mode, or a server that answered a stream request with one complete answer.
      const data = await res.json();
      on.sources(data.sources);
      on.replace(data.answer ?? '');
      return endOf(data);
    }
    let found: AnswerEnd | undefined;
    const parser = createParser({
      // Runs inside `parser.feed`, so what it throws (an error event, a bad JSON payload) ends the read loop.
      onEvent({ event, data }) {
        if (found !== undefined) return;
        const d = JSON.parse(data);
        if (event == 'done') found = endOf(d);
        else if (event == 'error') throw new AnswerError(d.code, d.message, d.retry_after);
        else if (event == 'sources') on.sources(d.sources);
        // Unknown events are ignored, as the protocol allows it to grow.
        else if (event == 'delta' || event == 'replace') on[event](d.text);
      },
    });
    const reader = res.body.getReader();
    const text = new TextDecoder();
    while (found === undefined) {
      const asked = performance.now();
      const { done, value } = await reader.read();
      if (done) break;
      last = performance.now();
      parser.feed(text.decode(value, { stream: true }));
      // After a read that had to wait for the network, wait READ_WAIT before the next: meanwhile the browser
      // gathers the network's small chunks, so 2,000 tiny events cost under two hundred reads, not 2,000. Data
      // already queued is read at once; a hidden page renders nothing, so it does not wait.
      if (found === undefined && last - asked > 1 && !document.hidden) await new Promise((r) => setTimeout(r, READ_WAIT));
    }
    if (found === undefined) throw new AnswerError('stream_interrupted', 'The stream ended early');
    return found;
  } catch (e) {
    throw e instanceof AnswerError
      ? e
      : new AnswerError(
          timedOut ? 'timeout' : ctrl.signal.aborted ? 'aborted' : !navigator.onLine ? 'offline' : e instanceof SyntaxError ? 'upstream_error' : 'network',
          String(e),
        );
  } finally {
    clearTimeout(timer);
    // Ends a stream left unread.
    ctrl.abort();
  }
}
