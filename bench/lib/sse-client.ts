import { request, type ClientRequest } from 'node:http';
import { createParser } from 'eventsource-parser';

/** What one streamed answer looked like from the client's side. */
export interface StreamOutcome {
  status: number;
  /** ms from the request's start to its first SSE event (comments excluded). */
  ttfb: number;
  /** ms from the request's start to the end of the body. */
  total: number;
  /** The answer rebuilt from `delta` (appended) and `replace` (whole text) events. */
  text: string;
  /** Whether the terminal `done` event arrived. */
  done: boolean;
  errorEvent?: string;
  transportError?: string;
}

/** A stream in flight; `abort()` destroys the connection as a closing browser tab would. */
export interface OpenStream {
  result: Promise<StreamOutcome>;
  /** Resolves at the first SSE event. */
  firstEvent: Promise<void>;
  abort(): void;
  readonly finished: boolean;
  /** Whether an SSE event has arrived yet. */
  readonly receiving: boolean;
}

/**
 * POSTs a streaming answer request on its own connection (no agent: each stream is a
 * different visitor) and reads the project's stream protocol, or an upstream's `named`
 * dialect, which uses the same `delta`/`sources`/`done` events.
 */
export function openStream(url: string, headers: Record<string, string>, message: string): OpenStream {
  const target = new URL(url);
  const body = Buffer.from(JSON.stringify({ message, bot_id: 'demo', stream: true }));
  const t0 = performance.now();
  let req!: ClientRequest;
  let finished = false;
  let receiving = false;
  let markFirst!: () => void;
  const firstEvent = new Promise<void>((resolve) => (markFirst = resolve));
  const result = new Promise<StreamOutcome>((resolve) => {
    const outcome: StreamOutcome = { status: 0, ttfb: Number.NaN, total: Number.NaN, text: '', done: false };
    const finish = (transportError?: string) => {
      if (finished) return;
      finished = true;
      outcome.total = performance.now() - t0;
      if (transportError) outcome.transportError = transportError;
      markFirst();
      resolve(outcome);
    };
    const parser = createParser({
      onEvent(event) {
        if (Number.isNaN(outcome.ttfb)) {
          outcome.ttfb = performance.now() - t0;
          receiving = true;
          markFirst();
        }
        try {
          const data = JSON.parse(event.data) as { text?: string; answer_found?: boolean };
          if (event.event === 'delta') outcome.text += data.text ?? '';
          else if (event.event === 'replace') outcome.text = data.text ?? '';
          else if (event.event === 'done') outcome.done = true;
          else if (event.event === 'error') outcome.errorEvent = event.data;
        } catch {
          outcome.errorEvent = `unparseable event data: ${event.data.slice(0, 80)}`;
        }
      },
    });
    req = request(
      {
        agent: false,
        method: 'POST',
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'content-length': String(body.length), ...headers },
      },
      (res) => {
        outcome.status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => parser.feed(chunk));
        res.on('end', () => finish());
        res.on('error', (error) => finish(error.message));
        res.on('aborted', () => finish('response aborted'));
      },
    );
    req.on('error', (error) => finish(error.message));
    req.end(body);
  });
  return {
    result,
    firstEvent,
    abort: () => req.destroy(),
    get finished() {
      return finished;
    },
    get receiving() {
      return receiving;
    },
  };
}
