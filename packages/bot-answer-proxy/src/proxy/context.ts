import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../../bot-answer/src/protocol/stream-events.js';
import type { AccessLog, LogRecord } from './access-log.js';
import type { HandlerContext, ResolvedConfig } from './config.js';
import { corsHeaders, type OriginDecision } from './cors.js';
import { ProxyError } from './errors.js';

const encoder = new TextEncoder();

export const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/**
 * One request on its way through the proxy: what it asked, who asked, and its log line, filled
 * in by each step and written once when the response is complete (for a stream: when it ends).
 */
export class RequestContext {
  readonly id = crypto.randomUUID();
  readonly startedAt = Date.now();
  readonly url: URL;
  readonly origin: string | null;
  /** How the request's origin relates to the allowed ones; CORS headers follow it on the endpoint's responses. */
  cors: OriginDecision | undefined;
  /** The visitor's identity as `authorize` gave it. */
  user: string | undefined;
  readonly record: LogRecord;
  /** Called once the request is complete, after its log line (insights records the answer request here). */
  onComplete: (() => void) | undefined;

  constructor(
    readonly request: Request,
    readonly host: HandlerContext,
    readonly cfg: ResolvedConfig,
    readonly log: AccessLog,
  ) {
    this.url = new URL(request.url);
    this.origin = request.headers.get('origin');
    this.record = { time: '', level: 'info', msg: 'request', id: this.id, method: request.method, path: this.url.pathname, status: 0, bytes: 0, outcome: 'ok' };
  }

  /** Headers every response carries: the request id, CORS, and on the endpoint's answers the protocol version. */
  headers(extra: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...extra, 'x-request-id': this.id };
    if (this.cors !== undefined) {
      headers[PROTOCOL_HEADER.toLowerCase()] = String(PROTOCOL_VERSION);
      corsHeaders(headers, this.cors, this.origin, this.cfg.allowCredentials);
    }
    return headers;
  }

  /** A complete response; the log line is written now. */
  respond(status: number, body: string | null, extra: Record<string, string>): Response {
    const headers = this.headers(extra);
    const bytes = body === null ? null : encoder.encode(body);
    if (bytes !== null) headers['content-length'] = String(bytes.byteLength);
    this.record.status = status;
    this.record.bytes = bytes?.byteLength ?? 0;
    if (status >= 500 && this.record.level === 'info') this.record.level = 'warn';
    this.complete();
    return new Response(this.request.method === 'HEAD' ? null : bytes, { status, headers });
  }

  /** The request is complete (for a stream: it ended): writes its log line, then tells `onComplete`. */
  complete(): void {
    this.log.request(this.record, this.startedAt);
    const onComplete = this.onComplete;
    this.onComplete = undefined;
    onComplete?.();
  }

  /** The JSON error response for `error`, through the failure table. */
  fail(error: ProxyError, extra?: Record<string, string>): Response {
    const aborted = this.request.signal.aborted;
    this.record.outcome = aborted ? 'aborted' : error.info.outcome;
    this.record.code = error.info.code;
    if (error.failure === 'internal') this.record.level = 'error';
    const headers = { ...JSON_HEADERS, ...extra };
    if (error.retryAfter !== undefined) headers['retry-after'] = String(error.retryAfter);
    return this.respond(aborted ? 499 : error.info.status, JSON.stringify({ error: error.toBody() }), headers);
  }
}
