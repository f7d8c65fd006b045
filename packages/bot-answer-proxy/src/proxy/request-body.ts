import type { AnswerRequest, HistoryMessage } from '../../../bot-answer/src/protocol/types.js';
import { ProxyError } from './errors.js';
import { isObject } from './sources.js';

/** True when the Content-Type is JSON in UTF-8 (`application/json`, optionally `; charset=utf-8`). */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const [type, ...params] = value.split(';');
  if (type!.trim().toLowerCase() !== 'application/json') return false;
  for (const param of params) {
    const [name, raw = ''] = param.split('=');
    if (name!.trim().toLowerCase() === 'charset' && raw.trim().replace(/^"|"$/g, '').toLowerCase() !== 'utf-8') return false;
  }
  return true;
}

/**
 * Reads a request body as UTF-8 text, counting bytes as they arrive and stopping at
 * `maxBytes` (a Content-Length header is only used to refuse early, never trusted).
 */
export async function readRequestText(request: Request, maxBytes: number): Promise<string> {
  const length = request.headers.get('content-length');
  const declared = length === null ? NaN : Number(length);
  if (declared > maxBytes) throw new ProxyError('body_too_large');
  try {
    // A declared length is enforced by the HTTP framing: such a body is read in one go.
    return decodeUtf8(Number.isInteger(declared) ? new Uint8Array(await request.arrayBuffer()) : await readCapped(request.body, maxBytes));
  } catch (error) {
    throw error instanceof ProxyError ? error : new ProxyError('body_unreadable');
  }
}

/** A body of unknown length, counted as it arrives; past `maxBytes` it is cancelled and refused. */
async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Leaving the loop early (the throw) cancels the body.
  for await (const chunk of body ?? []) {
    if ((total += chunk.byteLength) > maxBytes) throw new ProxyError('body_too_large');
    chunks.push(chunk);
  }
  return new Uint8Array(await new Blob(chunks).arrayBuffer());
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    // Not streaming: each call decodes a whole body, so one decoder serves every request.
    return strictUtf8.decode(bytes);
  } catch {
    throw new ProxyError('malformed_json', { detail: 'It is not valid UTF-8.' });
  }
}

function codePoints(text: string, stopAfter: number): number {
  let count = 0;
  for (const _ of text) if (++count > stopAfter) break;
  return count;
}

/** The body's JSON object; `undefined` when it is JSON but not an object. */
function parseObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProxyError('malformed_json');
  }
  return isObject(value) ? value : undefined;
}

const isBotId = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '' && value.length <= 256;

/** How much conversation one answer request may carry. */
export interface HistoryLimits {
  maxHistoryMessages: number;
  maxHistoryChars: number;
}

/**
 * Parses and checks the body of an answer request; only the known fields are kept: the four
 * of the upstream spec, and `history` (the conversation so far) when it holds any message.
 */
export function parseAnswerRequest(text: string, maxMessageChars: number, limits: HistoryLimits = { maxHistoryMessages: 20, maxHistoryChars: 16_000 }): AnswerRequest {
  const body = parseObject(text);
  if (!body) throw new ProxyError('not_an_object');
  if (typeof body.message !== 'string') throw new ProxyError('bad_message');
  if (body.message.trim() === '') throw new ProxyError('empty_message');
  if (codePoints(body.message, maxMessageChars) > maxMessageChars) {
    throw new ProxyError('message_too_long', { detail: `The limit is ${maxMessageChars} characters.` });
  }
  if (!isBotId(body.bot_id)) throw new ProxyError('bad_bot_id');
  if (body.inline_sources !== undefined && typeof body.inline_sources !== 'boolean') throw new ProxyError('bad_inline_sources');
  if (body.stream !== undefined && typeof body.stream !== 'boolean') throw new ProxyError('bad_stream');
  const history = parseHistory(body.history, limits);
  return {
    message: body.message,
    bot_id: body.bot_id,
    inline_sources: body.inline_sources ?? true,
    stream: body.stream ?? false,
    ...(history.length ? { history } : {}),
  };
}

/** `history`: absent, null or a list of `{role: "user" | "assistant", content: string}` within the limits. */
function parseHistory(value: unknown, { maxHistoryMessages, maxHistoryChars }: HistoryLimits): HistoryMessage[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ProxyError('bad_history');
  const history: HistoryMessage[] = [];
  let chars = 0;
  for (const item of value) {
    if (!isObject(item) || (item.role !== 'user' && item.role !== 'assistant') || typeof item.content !== 'string') throw new ProxyError('bad_history');
    chars += codePoints(item.content, maxHistoryChars + 1);
    history.push({ role: item.role, content: item.content });
  }
  if (history.length > maxHistoryMessages || chars > maxHistoryChars) {
    throw new ProxyError('history_too_large', { detail: `The limit is ${maxHistoryMessages} messages and ${maxHistoryChars} characters.` });
  }
  return history;
}

const RATINGS = new Set(['up', 'down']);

/** The longest feedback comment, in characters. */
export const MAX_COMMENT_CHARS = 1000;

/** A visitor's rating of one answer. */
export interface Feedback {
  request_id: string;
  bot_id: string;
  rating: 'up' | 'down';
  comment?: string;
}

/** Parses and checks a feedback body: `{request_id, bot_id, rating: "up" | "down", comment?}`. */
export function parseFeedback(text: string): Feedback {
  const body = parseObject(text) ?? {};
  const bad = (detail: string) => new ProxyError('bad_feedback', { detail });
  if (typeof body.request_id !== 'string' || body.request_id.trim() === '' || body.request_id.length > 200) throw bad('"request_id" must be the X-Request-Id of an answer.');
  if (!isBotId(body.bot_id)) throw bad('"bot_id" must be a non-empty string.');
  if (typeof body.rating !== 'string' || !RATINGS.has(body.rating)) throw bad('"rating" must be "up" or "down".');
  if (body.comment !== undefined && (typeof body.comment !== 'string' || codePoints(body.comment, MAX_COMMENT_CHARS) > MAX_COMMENT_CHARS)) {
    throw bad(`"comment" must be a string of at most ${MAX_COMMENT_CHARS} characters.`);
  }
  const feedback: Feedback = { request_id: body.request_id, bot_id: body.bot_id, rating: body.rating as Feedback['rating'] };
  if (typeof body.comment === 'string' && body.comment !== '') feedback.comment = body.comment;
  return feedback;
}
