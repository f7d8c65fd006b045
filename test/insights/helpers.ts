import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProxy, type RunningProxy, type StartProxyOptions } from '../../src/proxy/node.js';

/** The owner's token in these tests. */
export const TOKEN = 'owner-token-for-tests-0123456789';

/** A temporary folder, removed by `remove()`. */
export async function tempDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'bot-answer-insights-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A proxy in demo mode (the local Answer API in-process) with insights, its log lines kept. */
export interface InsightsProxy {
  url: string;
  proxy: RunningProxy;
  logs: string[];
  /** Writes every enqueued row now. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export async function startInsightsProxy(options: Partial<StartProxyOptions>): Promise<InsightsProxy> {
  const logs: string[] = [];
  const proxy = await startProxy({ port: 0, host: '127.0.0.1', rateLimitPerMinute: 0, insightsToken: TOKEN, log: (line) => logs.push(line), ...options });
  return { url: proxy.url, proxy, logs, flush: () => proxy.handler.insights!.flush(), close: () => proxy.close() };
}

/** Log lines with this message (prefix). */
export function logged(logs: string[], msg: string): Array<Record<string, unknown>> {
  return logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => String(line.msg).startsWith(msg));
}

/** Asks a question through the proxy; resolves with the answer's request id once it is complete. */
export async function ask(url: string, message: string, options: { bot?: string; stream?: boolean } = {}): Promise<{ id: string; status: number; text: string }> {
  const response = await fetch(`${url}/api/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, bot_id: options.bot ?? 'demo', stream: options.stream ?? false }),
  });
  const text = await response.text();
  return { id: response.headers.get('x-request-id')!, status: response.status, text };
}

/** Rates an answer through the proxy. */
export async function rate(url: string, body: { request_id: string; rating: 'up' | 'down'; comment?: string; bot_id?: string }): Promise<number> {
  const response = await fetch(`${url}/api/answer/feedback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bot_id: 'demo', ...body }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Parses CSV strictly by RFC 4180 (CRLF records, quoted fields with doubled quotes); fails on anything else. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        assert.ok(i < text.length, 'unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        assert.notEqual(text[i], '"', 'a quote inside an unquoted field');
        field += text[i++];
      }
    }
    row.push(field);
    if (text[i] === ',') i++;
    else {
      assert.equal(text.slice(i, i + 2), '\r\n', `records end with CRLF (at ${i}: ${JSON.stringify(text.slice(i, i + 10))})`);
      i += 2;
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

/** The CSV export as records keyed by the header's names (checked to be exactly the documented one). */
export async function exportCsv(url: string, query = ''): Promise<Array<Record<string, string>>> {
  const response = await fetch(`${url}/insights/questions.csv${query}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(response.status, 200, await response.clone().text());
  const [header, ...rows] = parseCsv(await response.text());
  assert.deepEqual(header, ['time', 'bot_id', 'question', 'answer_found', 'cache', 'sources', 'duration_ms', 'rating', 'comment', 'request_id']);
  return rows.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]!])));
}

/** The owner's page as the bearer token sees it. */
export async function page(url: string, query = ''): Promise<{ status: number; html: string; headers: Headers }> {
  const response = await fetch(`${url}/insights${query}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: response.status, html: await response.text(), headers: response.headers };
}
