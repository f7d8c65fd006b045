import { createParser } from 'eventsource-parser';

/** One message of a chat conversation, as the Chat Completions API takes it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Where and how to ask an OpenAI-compatible model. */
export interface ChatModelSettings {
  /** The API's base, ending in `/v1` for most servers; requests go to `${baseUrl}/chat/completions`. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer <key>` when set; never logged or shown. */
  apiKey?: string;
  /** Sent only when set: some models accept only their default. */
  temperature?: number;
  /** `max_tokens`, sent only when set. */
  maxTokens?: number;
  /** Longest wait for the first token, and then between tokens; past it the request is cut off. */
  timeoutMs: number;
}

/** Tokens counted by the model's server (`stream_options.include_usage`). */
export interface TokenUsage {
  prompt: number;
  completion: number;
}

/**
 * Why a model request failed:
 * - `refused`: nothing listens there (connection refused);
 * - `unreachable`: any other network failure before an answer (DNS, TLS, reset);
 * - `http`: an error status (or a redirect, never followed);
 * - `malformed`: stream data that is not what the format says;
 * - `model_error`: an error the server reported inside its stream;
 * - `timeout`: no first token within the timeout; `stalled`: no next token within it;
 * - `dropped`: the stream ended before its end (the connection broke).
 */
export type ModelFailureReason = 'refused' | 'unreachable' | 'http' | 'malformed' | 'model_error' | 'timeout' | 'stalled' | 'dropped';

/**
 * A failed model request. The message is written here from what failed (a reason, a status, an
 * error code the server gave): never the server's own error text, which may quote the key.
 */
export class ModelError extends Error {
  override name = 'ModelError';
  constructor(
    readonly reason: ModelFailureReason,
    message: string,
    /** The HTTP status, for `http`. */
    readonly status?: number,
    /** Seconds the server asked to wait (`Retry-After`), for `http` 429 and 503. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** An answer longer than this (in characters) is cut here, as if the model had stopped. */
const MAX_ANSWER_CHARS = 32_000;
/** How much of an error response is read for its error code. */
const MAX_ERROR_BYTES = 8 * 1024;

/** A streamed chat completion: the text as the model writes it, then how it ended. */
export interface ChatStream extends AsyncIterable<string> {
  /** Token usage, once the server sent it (normally with the last chunk). */
  readonly usage: TokenUsage | undefined;
  /** Why the model stopped (`stop`, `length`, ...), once it said. */
  readonly finishReason: string | undefined;
}

/**
 * Asks the model for a chat completion, streamed (`stream: true`, with
 * `stream_options.include_usage`), and gives its text piece by piece as it arrives. Iterating
 * sends the request; stopping the iteration early, or `signal` aborting, closes the connection.
 * The iteration throws a {@link ModelError} when the request fails, or the abort reason.
 * Reasoning a model streams apart from its answer (`reasoning_content`) is never given, but
 * counts as the model being alive for the timeout. A server that answers with one JSON
 * completion instead of a stream is read as one piece.
 */
export function streamChat(settings: ChatModelSettings, messages: ChatMessage[], signal: AbortSignal): ChatStream {
  let usage: TokenUsage | undefined;
  let finishReason: string | undefined;
  const pieces = (async function* (): AsyncGenerator<string> {
    const timer = new TokenTimer(settings.timeoutMs);
    const combined = AbortSignal.any([signal, timer.signal]);
    const fail = (error: unknown, ...[reason, message]: [ModelFailureReason, string]): never => {
      if (signal.aborted) throw signal.reason;
      if (timer.fired) throw new ModelError(timer.fired, timer.fired === 'timeout' ? `no first token within ${settings.timeoutMs} ms` : `no token for ${settings.timeoutMs} ms`);
      if (error instanceof ModelError) throw error;
      throw new ModelError(reason, message);
    };
    try {
      let response: Response;
      try {
        response = await fetch(`${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: settings.model,
            messages,
            stream: true,
            stream_options: { include_usage: true },
            ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
            ...(settings.maxTokens === undefined ? {} : { max_tokens: settings.maxTokens }),
          }),
          signal: combined,
          redirect: 'manual',
        });
      } catch (error) {
        const code = networkCode(error);
        return fail(error, code === 'ECONNREFUSED' ? 'refused' : 'unreachable', code === 'ECONNREFUSED' ? 'connection refused' : `cannot reach the server (${code ?? 'network error'})`);
      }
      if (response.status < 200 || response.status > 299) {
        const code = await errorCode(response).catch(() => undefined);
        const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
        const what = response.status >= 300 && response.status < 400 ? ' (a redirect: not followed)' : '';
        throw new ModelError('http', `HTTP ${response.status}${what}${code ? ` (${code})` : ''}${retryAfter ? ` (retry after ${retryAfter} s)` : ''}`, response.status, retryAfter);
      }
      const body = response.body;
      if (!body) throw new ModelError('malformed', 'an empty response');
      let length = 0;
      // Text past the answer's cap is dropped.
      const capped = (text: string): string => {
        const room = MAX_ANSWER_CHARS - length;
        length += Math.min(text.length, room);
        return text.slice(0, room);
      };

      if ((response.headers.get('content-type') ?? '').includes('application/json')) {
        let completion: unknown;
        try {
          completion = JSON.parse(await response.text());
        } catch (error) {
          return fail(error, 'malformed', 'a JSON response that cannot be read');
        }
        const chunk = readChunk(completion, true);
        if (chunk.usage) usage = chunk.usage;
        finishReason = chunk.finishReason;
        const text = capped(chunk.content);
        if (text) yield text;
        return;
      }

      const events: string[] = [];
      const parser = createParser({ onEvent: (event) => events.push(event.data) });
      const decoder = new TextDecoder();
      // [DONE], or the cap reached: nothing more is read.
      let done = false;
      const reader = body.getReader();
      try {
        while (!done) {
          let read: Awaited<ReturnType<typeof reader.read>>;
          try {
            read = await reader.read();
          } catch (error) {
            return fail(error, 'dropped', 'the connection broke mid-answer');
          }
          if (read.done) {
            parser.feed(`${decoder.decode()}\n\n`);
          } else {
            parser.feed(decoder.decode(read.value, { stream: true }));
          }
          for (const data of events.splice(0)) {
            if (data.trim() === '[DONE]') {
              done = true;
              break;
            }
            let value: unknown;
            try {
              value = JSON.parse(data);
            } catch (error) {
              return fail(error, 'malformed', 'stream data that is not JSON');
            }
            const chunk = readChunk(value, false);
            if (chunk.usage) usage = chunk.usage;
            if (chunk.finishReason) finishReason = chunk.finishReason;
            if (chunk.alive) timer.tokenArrived();
            const text = capped(chunk.content);
            if (text) yield text;
            if (length >= MAX_ANSWER_CHARS) {
              finishReason = 'length';
              done = true;
              break;
            }
          }
          if (read.done && !done) {
            // A clean end of the body without [DONE] is an end only after a finish reason.
            if (!finishReason) throw new ModelError('dropped', 'the stream ended before the answer did');
            done = true;
          }
        }
      } finally {
        reader.cancel().catch(() => {});
      }
    } finally {
      timer.clear();
    }
  })();
  return {
    [Symbol.asyncIterator]: () => pieces,
    get usage() {
      return usage;
    },
    get finishReason() {
      return finishReason;
    },
  };
}

interface Chunk {
  content: string;
  /** A token arrived (answer or reasoning). */
  alive: boolean;
  usage?: TokenUsage;
  finishReason?: string;
}

/** What one streamed chunk (or, `whole`, a complete response) carries; throws for an error or a shape no server sends. */
function readChunk(value: unknown, whole: boolean): Chunk {
  if (!isObject(value)) throw new ModelError('malformed', 'stream data that is not a JSON object');
  if (value.error !== undefined && value.error !== null) {
    const code = isObject(value.error) ? (identifier(value.error.code) ?? identifier(value.error.type)) : undefined;
    throw new ModelError('model_error', `an error in the stream${code ? ` (${code})` : ''}`);
  }
  const chunk: Chunk = { content: '', alive: false };
  if (isObject(value.usage)) {
    const { prompt_tokens: prompt, completion_tokens: completion } = value.usage;
    if (typeof prompt === 'number' && typeof completion === 'number') chunk.usage = { prompt, completion };
  }
  if (value.choices !== undefined && value.choices !== null && !Array.isArray(value.choices)) throw new ModelError('malformed', 'choices that are not a list');
  const choice = Array.isArray(value.choices) ? value.choices.find((c) => isObject(c) && (c.index === undefined || c.index === 0)) : undefined;
  if (isObject(choice)) {
    const delta = whole ? choice.message : choice.delta;
    if (isObject(delta)) {
      if (typeof delta.content === 'string') chunk.content = delta.content;
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      chunk.alive = chunk.content !== '' || (typeof reasoning === 'string' && reasoning !== '');
    }
    if (typeof choice.finish_reason === 'string') chunk.finishReason = choice.finish_reason;
  }
  return chunk;
}

/** The error code or type of an error response's JSON body (`{"error": {"code", "type"}}`), if it has a short one. */
async function errorCode(response: Response): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_ERROR_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  const error = isObject(body) ? body.error : undefined;
  return isObject(error) ? (identifier(error.code) ?? identifier(error.type)) : undefined;
}

/** A value that reads as an identifier (`invalid_api_key`, `rate_limit_exceeded`): safe to log. */
function identifier(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z][\w.-]{0,63}$/.test(value) ? value : undefined;
}

/** Retry-After in whole seconds (from seconds or an HTTP date), capped at an hour; undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = /^\s*\d+\s*$/.test(value) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.min(3600, Math.max(1, Math.ceil(seconds))) : undefined;
}

/** The system error code behind a failed `fetch` (`ECONNREFUSED`, `ENOTFOUND`, ...). */
function networkCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; isObject(e) && depth < 4; e = e.cause, depth++) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Aborts its signal when no token arrived for `ms`: `timeout` before the first one, `stalled` after. */
class TokenTimer {
  readonly #controller = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #seenToken = false;
  fired: 'timeout' | 'stalled' | undefined;

  constructor(private readonly ms: number) {
    this.#arm();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  tokenArrived(): void {
    this.#seenToken = true;
    this.#arm();
  }

  clear(): void {
    clearTimeout(this.#timer);
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.fired = this.#seenToken ? 'stalled' : 'timeout';
      this.#controller.abort(new Error(this.fired));
    }, this.ms);
  }
}
