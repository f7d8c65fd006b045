import type { ResolvedConfig } from './config.js';
import { createRedactor } from './redact.js';

/** The fields of one request's log line. */
export interface LogRecord {
  time: string;
  level: 'info' | 'warn' | 'error';
  msg: 'request';
  id: string;
  method: string;
  path: string;
  status: number;
  duration_ms?: number;
  bytes: number;
  bot?: string;
  stream?: boolean;
  outcome: string;
  code?: string;
  upstream_status?: number;
  malformed_events?: number;
  message?: string;
  upstream_note?: string;
  /** How the answer cache served it (`hit`, `miss`, `shared`), when the cache is on. */
  cache?: string;
  /** Earlier messages of the conversation forwarded with the question (`upstreamHistory: send`). */
  history?: number;
}

/** One JSON log line that is not a request's: the server's own events. */
export function logLine(level: LogRecord['level'], msg: string, fields?: Record<string, unknown>): string {
  return JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
}

const OUTSIDE_TEXT = ['method', 'path', 'bot', 'message', 'upstream_note'] as const;

/** Writes log lines: one per request, and the few events between (upstream key refused, feedback). */
export type AccessLog = ReturnType<typeof createAccessLog>;

export function createAccessLog(cfg: ResolvedConfig) {
  const redact = createRedactor(cfg.apiKey);
  return {
    redact,
    request(record: LogRecord, startedAt: number): void {
      record.time = new Date().toISOString();
      record.duration_ms = Date.now() - startedAt;
      // Only these fields carry text from outside (the client, or the upstream, which may echo
      // the key back): the key never reaches a log line, and the rest is not scanned for it.
      for (const field of OUTSIDE_TEXT) if (record[field] !== undefined) record[field] = redact(record[field]);
      cfg.log(JSON.stringify(record));
    },
    event(level: LogRecord['level'], msg: string, fields?: Record<string, unknown>): void {
      cfg.log(logLine(level, msg, fields));
    },
  };
}
