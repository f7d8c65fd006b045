import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { startAnswerApi, type AnswerApiOptions, type RunningAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const FIXTURE_KB = join(FIXTURES, 'kb');
export const KEY = 'test-key-0123456789';

/** A local Answer API over the fixture knowledge base with a known key and no pacing, unless overridden. */
export function startFixtureApi(options: AnswerApiOptions = {}): Promise<RunningAnswerApi> {
  return startAnswerApi({ kb: FIXTURE_KB, keys: [KEY], paceMs: 0, ...options });
}

/** POST /v1/answer with a JSON body and the test key (headers may override or drop, with undefined). */
export function ask(
  api: RunningAnswerApi,
  body: unknown,
  headers: Record<string, string | undefined> = {},
  init: RequestInit = {},
): Promise<Response> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers })) {
    if (value !== undefined) merged[name] = value;
  }
  return fetch(`${api.url}/v1/answer`, {
    method: 'POST',
    headers: merged,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

/** Every SSE event and comment of a finished response, parsed from the raw bytes as they arrived. */
export async function readEvents(response: Response): Promise<{ events: EventSourceMessage[]; comments: string[]; chunks: Uint8Array[] }> {
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const chunks: Uint8Array[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event), onComment: (comment) => comments.push(comment) });
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(chunk);
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
  parser.feed(decoder.decode());
  return { events, comments, chunks };
}

/** An event as it arrived, with the time (Date.now()) it was parsed. */
export interface TimedEvent extends EventSourceMessage {
  at: number;
}

/**
 * Reads a streamed response event by event. `stopAfter` events in, it aborts the request
 * through `controller` and returns when it did. A connection that breaks shows as `error`.
 */
export async function readLive(
  response: Response,
  options: { stopAfter?: number; controller?: AbortController } = {},
): Promise<{ events: TimedEvent[]; comments: Array<{ text: string; at: number }>; error?: Error; abortedAt?: number }> {
  const events: TimedEvent[] = [];
  const comments: Array<{ text: string; at: number }> = [];
  const parser = createParser({
    onEvent: (event) => events.push({ ...event, at: Date.now() }),
    onComment: (text) => comments.push({ text, at: Date.now() }),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      if (options.stopAfter !== undefined && events.length >= options.stopAfter) {
        const abortedAt = Date.now();
        options.controller!.abort();
        await reader.cancel().catch(() => {});
        return { events, comments, abortedAt };
      }
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    return { events, comments, error: error as Error };
  }
  return { events, comments };
}
