import { createParser } from 'eventsource-parser';
import type { AnswerRequest, ErrorBody } from '../protocol/types.js';
import { formatStreamEvent, HEARTBEAT } from '../protocol/stream-events.js';
import { cacheKey } from './cache-key.js';
import { FAILURES, ProxyError } from './errors.js';
import { memoryAnswerCache } from './stores/memory-cache.js';
import type { AnswerCacheStore, CachedAnswer, StoreConfig, StoreFailureMode } from './stores/types.js';

/** Settings of the answer cache. */
export interface AnswerCacheSettings {
  store: AnswerCacheStore;
  ttlSeconds: number;
  /** Largest answer kept (UTF-8 bytes of its JSON); larger answers are served, never cached. */
  maxEntryBytes: number;
  /** How long a request waits for another instance that is asking the same question. */
  lockWaitMs: number;
  /** How long such a lock lives at most (the longest an answer may take). */
  lockTtlMs: number;
  failure: StoreFailureMode;
  heartbeatMs: number;
}

export const CACHE_DEFAULTS = { maxEntryBytes: 256 * 1024, lockWaitMs: 15_000 } as const;

/** The cache's settings from the handler's; `undefined` when the cache is off. */
export function resolveCache(config: StoreConfig, timing: { heartbeatMs: number; totalTimeoutMs: number }): AnswerCacheSettings | undefined {
  const ttlSeconds = config.cacheTtlSeconds ?? 0;
  if (!(ttlSeconds > 0)) return undefined;
  return {
    store: config.cacheStore ?? memoryAnswerCache({ maxBytes: config.cacheMaxBytes }),
    ttlSeconds,
    maxEntryBytes: config.cacheMaxEntryBytes ?? CACHE_DEFAULTS.maxEntryBytes,
    lockWaitMs: config.cacheLockWaitMs ?? CACHE_DEFAULTS.lockWaitMs,
    lockTtlMs: timing.totalTimeoutMs + 5_000,
    failure: config.storeFailure ?? 'fallback',
    heartbeatMs: timing.heartbeatMs,
  };
}

/** How the cache served a request, for its log line. */
export type CacheOutcome = 'hit' | 'miss' | 'shared' | 'bypass';

/** Builds a response for the cache: the handler adds its own headers (CORS, request id) and logs it. */
export type CacheReply = (status: number, body: string | ReadableStream<Uint8Array>, kind: 'json' | 'sse', headers: Record<string, string>) => Response;

/** A store call that takes longer than this counts as failed. */
const STORE_TIMEOUT_MS = 2_000;
/** How often a request waiting on another instance looks for its answer. */
const POLL_MS = 100;

const encoder = new TextEncoder();

/** The stream events of a complete answer, as a live one gives them. */
export function answerFrames(answer: CachedAnswer): string[] {
  const frames: string[] = [];
  if (answer.answer !== '') frames.push(formatStreamEvent('delta', { text: answer.answer }));
  if (answer.sources.length > 0) frames.push(formatStreamEvent('sources', { sources: answer.sources }));
  return frames;
}

/** The HTTP status an error code has before a stream starts. */
function statusOf(code: string): number {
  for (const info of Object.values(FAILURES)) if (info.code === code) return info.status;
  return 502;
}

/**
 * One question being asked upstream right now, shared by every identical request of this
 * process: they see its stream events as they arrive, and its answer when complete.
 */
class Flight {
  /** The leader's response status is known: `undefined` while waiting. */
  head: { status: number; body: string; headers: Record<string, string> } | 'streaming' | undefined;
  /** Non-terminal stream frames (delta, replace, sources), in order. */
  readonly frames: string[] = [];
  /** The terminal frame, once the answer ended (done, or the leader's error). */
  terminal: string | undefined;
  /** The complete answer. */
  answer: CachedAnswer | undefined;
  /** The leader's error, once the answer failed. */
  error: { status: number; body: string; headers: Record<string, string> } | undefined;
  /** The leader gave up without an outcome (its client left): followers ask again. */
  abandoned = false;
  private readonly listeners = new Set<() => void>();

  get settled(): boolean {
    return this.answer !== undefined || this.error !== undefined || this.abandoned;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  complete(answer: CachedAnswer, frames = answerFrames(answer)): void {
    if (this.settled) return;
    if (this.frames.length === 0) this.frames.push(...frames);
    this.answer = answer;
    this.terminal = formatStreamEvent('done', { answer_found: answer.answer_found });
    this.head ??= 'streaming';
    this.changed();
  }

  fail(status: number, body: string, headers: Record<string, string>, terminal?: string): void {
    if (this.settled) return;
    this.error = { status, body, headers };
    this.head ??= this.error;
    this.terminal = terminal ?? formatStreamEvent('error', errorOf(body, status));
    this.changed();
  }

  abandon(): void {
    if (this.settled) return;
    this.abandoned = true;
    this.changed();
  }

  /** Resolves once `test` holds (checked now and on every change). */
  until(test: () => boolean, signal: AbortSignal): Promise<void> {
    if (test() || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        if (!test() && !signal.aborted) return;
        off();
        signal.removeEventListener('abort', done);
        resolve();
      };
      const off = this.subscribe(done);
      signal.addEventListener('abort', done);
    });
  }
}

/**
 * The answer cache: serves a question from the store when it was answered before, and makes
 * identical questions asked at the same time reach the upstream once (within the process
 * always; across instances when the store has a lock). Only complete answers are kept.
 */
export class AnswerCache {
  private readonly flights = new Map<string, Flight>();

  constructor(private readonly settings: AnswerCacheSettings) {}

  /** Removes every cached answer. */
  clear(): Promise<number | undefined> {
    return this.settings.store.clear();
  }

  /**
   * Answers one checked request. `produce` asks the upstream and gives the live response
   * (its errors as responses too); `reply` builds the responses the cache makes itself.
   */
  async serve(body: AnswerRequest, signal: AbortSignal, produce: () => Promise<Response>, reply: CacheReply, note: (outcome: CacheOutcome) => void): Promise<Response> {
    const key = await cacheKey(body);
    for (let attempt = 0; ; attempt++) {
      const running = this.flights.get(key);
      if (running) {
        // A follower whose leader left without an outcome asks again, once; then it asks alone.
        if (attempt >= 2) return this.lead(key, new Flight(), body, produce, note, false);
        const shared = await this.follow(running, body, signal, reply);
        if (shared) {
          note('shared');
          return shared;
        }
        continue;
      }
      const cached = await this.guard(() => this.settings.store.get(key), undefined);
      if (this.flights.has(key)) continue;
      if (cached) {
        note('hit');
        return this.replay(cached, body, reply);
      }
      const flight = new Flight();
      this.flights.set(key, flight);
      if (this.settings.store.lock) {
        let remote: CachedAnswer | undefined | 'locked';
        try {
          remote = await this.waitForOthers(key, signal);
        } catch (error) {
          this.drop(key, flight);
          flight.abandon();
          throw error;
        }
        if (remote !== 'locked' && remote !== undefined) {
          flight.complete(remote);
          this.drop(key, flight);
          note('hit');
          return this.replay(remote, body, reply);
        }
        return this.lead(key, flight, body, produce, note, remote === 'locked');
      }
      return this.lead(key, flight, body, produce, note, false);
    }
  }

  /**
   * Waits while another instance asks the same question: `'locked'` once this one may ask it
   * (it took the lock), the answer when the other instance's lands in the store, `undefined`
   * when the wait ran out (this one then asks without the lock).
   */
  private async waitForOthers(key: string, signal: AbortSignal): Promise<CachedAnswer | 'locked' | undefined> {
    const { store, lockWaitMs, lockTtlMs } = this.settings;
    const deadline = Date.now() + lockWaitMs;
    for (;;) {
      const locked = await this.guard(() => store.lock!(key, lockTtlMs), true);
      // Looked up after the lock too: the other instance stores its answer, then lets go.
      const found = await this.guard(() => store.get(key), undefined);
      if (found) {
        if (locked) void this.quietly(() => store.unlock!(key));
        return found;
      }
      if (locked) return 'locked';
      if (Date.now() >= deadline || signal.aborted) return undefined;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Asks the upstream for everyone waiting on `flight`, and keeps a complete answer. */
  private async lead(key: string, flight: Flight, body: AnswerRequest, produce: () => Promise<Response>, note: (outcome: CacheOutcome) => void, locked: boolean): Promise<Response> {
    note('miss');
    const finish = () => {
      this.drop(key, flight);
      if (locked) void this.quietly(() => this.settings.store.unlock!(key));
    };
    let response: Response;
    try {
      response = await produce();
    } catch (error) {
      flight.abandon();
      finish();
      throw error;
    }
    const headers = new Headers(response.headers);
    headers.set('x-cache', 'MISS');
    const type = headers.get('content-type') ?? '';
    if (response.status !== 200 || !response.body) {
      const text = await response.text();
      // 499: the leader's own client left; that is no answer for anyone else.
      if (response.status === 499 || response.status < 400) flight.abandon();
      else flight.fail(response.status, text, pick(headers, ['content-type', 'retry-after']));
      finish();
      return new Response(text === '' ? null : text, { status: response.status, headers });
    }
    if (type.includes('text/event-stream')) {
      flight.head = 'streaming';
      flight.changed();
      return new Response(this.recordStream(response.body, flight, (answer) => this.keep(key, answer).finally(finish), finish), { status: 200, headers });
    }
    const text = await response.text();
    try {
      const answer = JSON.parse(text) as CachedAnswer;
      flight.complete(answer);
      void this.keep(key, answer).finally(finish);
    } catch {
      flight.abandon();
      finish();
    }
    return new Response(text, { status: 200, headers });
  }

  /** Passes the leader's stream through unchanged, reading its events as they go by. */
  private recordStream(body: ReadableStream<Uint8Array>, flight: Flight, onComplete: (answer: CachedAnswer) => void, onEnd: () => void): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let sources: CachedAnswer['sources'] = [];
    const parser = createParser({
      onEvent: (event) => {
        if (flight.settled) return;
        const frame = `event: ${event.event}\ndata: ${event.data}\n\n`;
        const data = JSON.parse(event.data) as Record<string, unknown>;
        switch (event.event) {
          case 'delta':
            text += data.text as string;
            break;
          case 'replace':
            text = data.text as string;
            break;
          case 'sources':
            sources = data.sources as CachedAnswer['sources'];
            break;
          case 'done': {
            const answer = { answer: text, answer_found: data.answer_found === true, sources };
            flight.complete(answer, []);
            onComplete(answer);
            return;
          }
          case 'error': {
            const error = data as unknown as ErrorBody;
            const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
            if (error.retry_after !== undefined) headers['retry-after'] = String(error.retry_after);
            flight.fail(statusOf(error.code), JSON.stringify({ error }), headers, frame);
            onEnd();
            return;
          }
        }
        flight.frames.push(frame);
        flight.changed();
      },
    });
    const ended = () => {
      if (flight.settled) return;
      flight.abandon();
      onEnd();
    };
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) {
              parser.feed(decoder.decode());
              ended();
              controller.close();
              return;
            }
            parser.feed(decoder.decode(value, { stream: true }));
            controller.enqueue(value);
          } catch (error) {
            ended();
            controller.error(error);
          }
        },
        cancel(reason) {
          ended();
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
  }

  /**
   * Serves a request from another request's flight: at once when it has an outcome, as its
   * events arrive for a stream. `undefined`: the flight was abandoned before this request got
   * anything, so it should ask again.
   */
  private async follow(flight: Flight, body: AnswerRequest, signal: AbortSignal, reply: CacheReply): Promise<Response | undefined> {
    await flight.until(() => (body.stream ? flight.head !== undefined || flight.settled : flight.settled), signal);
    if (signal.aborted) throw new ProxyError('stream_broken');
    if (flight.abandoned && (!body.stream || flight.frames.length === 0)) return undefined;
    const headers = { 'x-cache': 'HIT' };
    if (flight.error && (!body.stream || flight.head === flight.error)) return reply(flight.error.status, flight.error.body, 'json', { ...flight.error.headers, ...headers });
    if (!body.stream) return reply(200, JSON.stringify(flight.answer), 'json', headers);
    return reply(200, this.followStream(flight), 'sse', headers);
  }

  /** The flight's events as a stream: those so far, then each as it arrives, with heartbeats. */
  private followStream(flight: Flight): ReadableStream<Uint8Array> {
    const heartbeatMs = this.settings.heartbeatMs;
    let sent = 0;
    let lastOutput = Date.now();
    let off: (() => void) | undefined;
    let timer: ReturnType<typeof setInterval> | undefined;
    const stop = () => {
      off?.();
      if (timer) clearInterval(timer);
    };
    return new ReadableStream<Uint8Array>({
      start(controller) {
        const pump = () => {
          let out = '';
          while (sent < flight.frames.length) out += flight.frames[sent++]!;
          if (flight.settled) {
            out += flight.terminal ?? formatStreamEvent('error', new ProxyError('stream_broken').toBody());
          }
          if (out !== '') {
            controller.enqueue(encoder.encode(out));
            lastOutput = Date.now();
          }
          if (flight.settled) {
            stop();
            controller.close();
          }
        };
        off = flight.subscribe(pump);
        if (heartbeatMs > 0) {
          timer = setInterval(() => {
            if (Date.now() - lastOutput < heartbeatMs) return;
            controller.enqueue(encoder.encode(HEARTBEAT));
            lastOutput = Date.now();
          }, heartbeatMs);
        }
        pump();
      },
      cancel: stop,
    });
  }

  /** A cached answer in the asked mode. */
  private replay(answer: CachedAnswer, body: AnswerRequest, reply: CacheReply): Response {
    const headers = { 'x-cache': 'HIT' };
    if (!body.stream) return reply(200, JSON.stringify(answer), 'json', headers);
    const text = answerFrames(answer).join('') + formatStreamEvent('done', { answer_found: answer.answer_found });
    return reply(200, text, 'sse', headers);
  }

  /** Stores a complete answer within the size cap; a failing store loses nothing but the copy. */
  private keep(key: string, answer: CachedAnswer): Promise<void> {
    const { store, ttlSeconds, maxEntryBytes } = this.settings;
    if (encoder.encode(JSON.stringify(answer)).byteLength > maxEntryBytes) return Promise.resolve();
    return this.quietly(() => store.set(key, answer, ttlSeconds));
  }

  private drop(key: string, flight: Flight): void {
    if (this.flights.get(key) === flight) this.flights.delete(key);
  }

  /** A store call on the request's path: on failure, `fallback`, or a 503 when configured to refuse. */
  private async guard<T>(call: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await withTimeout(call());
    } catch {
      if (this.settings.failure === 'refuse') throw new ProxyError('store_unavailable', { retryAfter: 5 });
      return fallback;
    }
  }

  /** A store call after the answer was served: its failure changes nothing for the client. */
  private async quietly(call: () => Promise<unknown>): Promise<void> {
    try {
      await withTimeout(call());
    } catch {
      // the store's own outage log says why
    }
  }
}

/** The error object of an error response's JSON body. */
function errorOf(body: string, status: number): ErrorBody {
  try {
    const error = (JSON.parse(body) as { error?: ErrorBody }).error;
    if (error && typeof error.code === 'string') return error;
  } catch {
    // not the proxy's JSON: described by its status below
  }
  return new ProxyError(status === 503 ? 'store_unavailable' : 'upstream_failed').toBody();
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('store timeout')), STORE_TIMEOUT_MS)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function pick(headers: Headers, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}
