import { request, type IncomingHttpHeaders } from 'node:http';
import { createParser } from 'eventsource-parser';
import type { ErrorBody, Source } from '../../../packages/bot-answer/src/protocol/types.js';

/** One client call to the proxy, with everything it received. */
export interface ProxyReply {
  status: number;
  headers: IncomingHttpHeaders;
  /** The raw body as text (scanned for the key). */
  body: string;
  /** Parsed stream events, in order (empty for JSON replies). */
  events: Array<{ event: string; data: string }>;
  /** Set when the connection failed or broke. */
  networkError?: string;
}

export interface AskOptions {
  message?: string;
  bot_id?: string;
  stream?: boolean;
  inline_sources?: boolean;
  headers?: Record<string, string>;
  /** Raw body instead of the JSON built from the fields above. */
  rawBody?: string | Buffer;
  method?: string;
  path?: string;
  /** Source address (127.0.0.x) to appear as a distinct client. */
  localAddress?: string;
  /** Give up (destroy the socket) after this long. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Sends one request to the proxy and reads the whole reply. Never throws: failures land in `networkError`. */
export function ask(baseUrl: string, options: AskOptions = {}): Promise<ProxyReply> {
  const url = new URL(options.path ?? '/api/answer', baseUrl);
  const body = options.rawBody ?? JSON.stringify({ message: options.message ?? 'hello', bot_id: options.bot_id ?? 'demo', stream: options.stream ?? true, ...(options.inline_sources === undefined ? {} : { inline_sources: options.inline_sources }) });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    const finish = (networkError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status, headers, body: text, events: parseEvents(text), ...(networkError ? { networkError } : {}) });
    };
    const req = request(url, { method: options.method ?? 'POST', headers: { 'content-type': 'application/json', ...options.headers }, localAddress: options.localAddress, signal: options.signal, agent: false }, (res) => {
      status = res.statusCode ?? 0;
      headers = res.headers;
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => finish());
      res.on('error', (e) => finish(e.message));
      res.on('aborted', () => finish('aborted'));
    });
    const timer = setTimeout(() => {
      req.destroy(new Error('client timeout'));
    }, options.timeoutMs ?? 20_000);
    req.on('error', (e) => finish(e.message));
    req.end(body);
  });
}

/** The proxy's stream protocol, parsed with the same library the element uses. */
export function parseEvents(text: string): Array<{ event: string; data: string }> {
  const events: Array<{ event: string; data: string }> = [];
  const parser = createParser({ onEvent: (e) => events.push({ event: e.event ?? 'message', data: e.data }) });
  parser.feed(text);
  return events;
}

/** What a client following docs/protocol.md ends up showing. */
export interface Shown {
  text: string;
  sources?: Source[];
  terminal?: 'done' | 'error';
  answer_found?: boolean;
  error?: ErrorBody;
  /** Problems with the event sequence itself (events after a terminal one, bad JSON, unknown names). */
  protocolFaults: string[];
}

export function replay(events: ProxyReply['events']): Shown {
  const shown: Shown = { text: '', protocolFaults: [] };
  for (const { event, data } of events) {
    if (shown.terminal) {
      shown.protocolFaults.push(`event "${event}" after terminal "${shown.terminal}"`);
      continue;
    }
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(data) as Record<string, unknown>;
    } catch {
      shown.protocolFaults.push(`event "${event}" with data that is not JSON`);
      continue;
    }
    switch (event) {
      case 'delta':
        shown.text += String(payload.text);
        break;
      case 'replace':
        shown.text = String(payload.text);
        break;
      case 'sources':
        shown.sources = payload.sources as Source[];
        break;
      case 'done':
        shown.terminal = 'done';
        shown.answer_found = payload.answer_found as boolean;
        break;
      case 'error':
        shown.terminal = 'error';
        shown.error = payload as unknown as ErrorBody;
        break;
      default:
        shown.protocolFaults.push(`unknown event "${event}"`);
    }
  }
  return shown;
}
