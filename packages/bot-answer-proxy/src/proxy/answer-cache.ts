import type { AnswerRequest } from '../../../bot-answer/src/protocol/types.js';
import { withOutcome, type Answer, type AnswerEvents, type AnswerResult } from './answer.js';
import { ProxyError, toProxyError, type Failure } from './errors.js';
import type { NormalisedEvent } from './normalise.js';
import { deadline } from './timers.js';
import { memoryAnswerCache } from './stores/memory-cache.js';
import type { AnswerCacheStore, CachedAnswer, StoreConfig, StoreFailureMode } from './stores/types.js';

/** Settings of the answer cache. */
export interface AnswerCacheSettings {
  store: AnswerCacheStore;
  ttlSeconds: number;
  /** Largest answer kept (UTF-8 bytes of its JSON); larger answers are served, never kept. */
  maxEntryBytes: number;
  /** How long a request waits for another instance that is asking the same question. */
  lockWaitMs: number;
  /** How long such a lock lives at most (the longest an answer may take). */
  lockTtlMs: number;
  failure: StoreFailureMode;
}

/** The cache's settings from the handler's; `undefined` when the cache is off. */
export function resolveCache(config: StoreConfig, resolved: { totalTimeoutMs: number; storeFailure: StoreFailureMode }): AnswerCacheSettings | undefined {
  const ttlSeconds = config.cacheTtlSeconds ?? 0;
  if (!(ttlSeconds > 0)) return undefined;
  return {
    store: config.cacheStore ?? memoryAnswerCache({ maxBytes: config.cacheMaxBytes }),
    ttlSeconds,
    maxEntryBytes: config.cacheMaxEntryBytes ?? 256 * 1024,
    lockWaitMs: config.cacheLockWaitMs ?? 15_000,
    lockTtlMs: resolved.totalTimeoutMs + 5_000,
    failure: resolved.storeFailure,
  };
}

/** How the cache served a request, for its log line and `X-Cache`: only `miss` asked the upstream. */
export type CacheOutcome = 'hit' | 'miss' | 'shared';

/** A store call that takes longer than this counts as failed. */
const STORE_TIMEOUT_MS = 2_000;
const storeTimeout = () => Promise.reject(new Error('store timeout'));
/** How often a request waiting on another instance looks for its answer. */
const POLL_MS = 100;

const encoder = new TextEncoder();

/**
 * The message as the cache compares it: trimmed, runs of white space as one space, case
 * folded (upper then lower case, so that `ß` and `SS`, `ς` and `σ` meet), in Unicode NFC.
 */
export function normaliseQuestion(message: string): string {
  return message.normalize('NFC').trim().replace(/\s+/gu, ' ').toUpperCase().toLowerCase();
}

/**
 * The cache key of a question: SHA-256 (hex) of the bot id, `inline_sources`, the normalised
 * message and, when the upstream receives one, the conversation before it (each message
 * normalised the same way): a follow-up is another question after another conversation. Only
 * the hash is stored or logged, never the question.
 */
export async function cacheKey(body: Pick<AnswerRequest, 'bot_id' | 'message' | 'inline_sources' | 'history'>): Promise<string> {
  const key: unknown[] = [body.bot_id, body.inline_sources !== false, normaliseQuestion(body.message)];
  if (body.history?.length) key.push(body.history.map((m) => [m.role, normaliseQuestion(m.content)]));
  const text = JSON.stringify(key);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * One question being asked upstream right now, shared by every identical request of this
 * process: they see its events as they arrive, and its outcome when it has one.
 */
class Flight {
  /** The leader has its answer under way (or an outcome): stream followers may start. */
  started = false;
  /** Non-terminal events, in order. */
  readonly events: NormalisedEvent[] = [];
  result: AnswerResult | undefined;
  error: ProxyError | undefined;
  /** The leader went away without an outcome (its visitor left): followers ask again. */
  abandoned = false;
  private readonly listeners = new Set<() => void>();

  get settled(): boolean {
    return this.result !== undefined || this.error !== undefined || this.abandoned;
  }

  changed(): void {
    // A listener removes only itself, which a Set's iteration allows.
    for (const listener of this.listeners) listener();
  }

  settle(outcome: { result: AnswerResult } | { error: ProxyError } | 'abandoned'): void {
    if (this.settled) return;
    if (outcome === 'abandoned') this.abandoned = true;
    else if ('result' in outcome) this.result = outcome.result;
    else this.error = outcome.error;
    this.started = true;
    this.changed();
  }

  /** Resolves once `test` holds (checked now and on every change), or `signal` aborts. */
  until(test: () => boolean, signal?: AbortSignal): Promise<void> {
    if (test() || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!test() && !signal?.aborted) return;
        this.listeners.delete(check);
        signal?.removeEventListener('abort', check);
        resolve();
      };
      this.listeners.add(check);
      signal?.addEventListener('abort', check);
    });
  }
}

/**
 * The answer cache, around the handler's upstream call (`fetchAnswer`): a question answered
 * before comes from the store; identical questions asked at the same time reach the upstream
 * once (within the process always; across instances when the store has a lock). Only complete
 * answers are kept.
 */
export class AnswerCache {
  private readonly flights = new Map<string, Flight>();

  constructor(private readonly settings: AnswerCacheSettings) {}

  clear(): Promise<number | undefined> {
    return this.settings.store.clear();
  }

  /**
   * The answer to a checked request: from the store, from another request's flight, or from
   * `fetch` (the upstream). `signal` is the request's own: aborted when its client leaves.
   */
  async answer(body: AnswerRequest, signal: AbortSignal, fetch: () => Promise<Answer>, note: (outcome: CacheOutcome) => void): Promise<Answer> {
    const key = await cacheKey(body);
    for (let attempt = 0; ; attempt++) {
      const running = this.flights.get(key);
      if (running) {
        // A follower whose leader left without an outcome asks again, once; then it asks alone.
        if (attempt >= 2) return this.lead(key, new Flight(), fetch, signal, note, false);
        const shared = await this.follow(running, body, signal);
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
        return { result: withOutcome(cached) };
      }
      const flight = new Flight();
      this.flights.set(key, flight);
      if (!this.settings.store.lock) return this.lead(key, flight, fetch, signal, note, false);
      let remote: CachedAnswer | 'locked' | undefined;
      try {
        remote = await this.waitForOthers(key, signal);
      } catch (error) {
        this.drop(key, flight);
        flight.settle({ error: toProxyError(error) });
        throw error;
      }
      if (remote === 'locked' || remote === undefined) return this.lead(key, flight, fetch, signal, note, remote === 'locked');
      const result = withOutcome(remote);
      flight.settle({ result });
      this.drop(key, flight);
      note('hit');
      return { result };
    }
  }

  /**
   * Waits while another instance asks the same question: `'locked'` once this one may ask it
   * (it took the lock), the answer when the other instance's lands in the store, `undefined`
   * when the wait ran out (this one then asks without the lock).
   */
  private async waitForOthers(key: string, signal: AbortSignal): Promise<CachedAnswer | 'locked' | undefined> {
    const { store, lockWaitMs, lockTtlMs } = this.settings;
    const giveUpAt = Date.now() + lockWaitMs;
    for (;;) {
      const locked = await this.guard(() => store.lock!(key, lockTtlMs), true);
      // Looked up after the lock too: the other instance stores its answer, then lets go.
      const found = await this.guard(() => store.get(key), undefined);
      if (found) {
        if (locked) void this.quietly(() => store.unlock!(key));
        return found;
      }
      if (locked) return 'locked';
      if (Date.now() >= giveUpAt || signal.aborted) return undefined;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Asks the upstream for everyone waiting on `flight`, and keeps a complete answer. */
  private async lead(key: string, flight: Flight, fetch: () => Promise<Answer>, signal: AbortSignal, note: (outcome: CacheOutcome) => void, locked: boolean): Promise<Answer> {
    note('miss');
    const finish = () => {
      this.drop(key, flight);
      if (locked) void this.quietly(() => this.settings.store.unlock!(key));
    };
    const complete = (result: AnswerResult) => {
      flight.settle({ result });
      void this.keep(key, result).finally(finish);
    };
    let answer: Answer;
    try {
      answer = await fetch();
    } catch (error) {
      // The leader's visitor left: no outcome for anyone else, who ask again.
      flight.settle(signal.aborted ? 'abandoned' : { error: toProxyError(error) });
      finish();
      throw error;
    }
    if (answer.result) {
      complete(answer.result);
      return answer;
    }
    flight.started = true;
    flight.changed();
    return { events: new RecordedEvents(answer.events, flight, complete, finish) };
  }

  /**
   * Serves a request from another request's flight: at once when it has an outcome; for a
   * stream, its events as they arrive. `undefined`: the flight was abandoned before this
   * request got anything, so it should ask again.
   */
  private async follow(flight: Flight, body: AnswerRequest, signal: AbortSignal): Promise<Answer | undefined> {
    await flight.until(() => (body.stream ? flight.started : flight.settled), signal);
    if (signal.aborted) throw new ProxyError('stream_broken');
    if (flight.result) return { result: flight.result };
    if (flight.error && (!body.stream || flight.events.length === 0)) throw flight.error;
    if (flight.abandoned && flight.events.length === 0) return undefined;
    if (!body.stream) return undefined;
    return { events: new FollowedEvents(flight) };
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
      return await deadline(call(), STORE_TIMEOUT_MS, storeTimeout);
    } catch {
      if (this.settings.failure === 'refuse') throw new ProxyError('store_unavailable', { retryAfter: 5 });
      return fallback;
    }
  }

  /** A store call after the answer was served: its failure changes nothing for the client. */
  private async quietly(call: () => Promise<unknown>): Promise<void> {
    try {
      await deadline(call(), STORE_TIMEOUT_MS, storeTimeout);
    } catch {
      // the store's own outage log says why
    }
  }
}

/** The leader's events, passed on unchanged and recorded in its flight as they go by. */
class RecordedEvents implements AnswerEvents {
  private text = '';
  private sources: AnswerResult['sources'] = [];

  constructor(
    private readonly inner: AnswerEvents,
    private readonly flight: Flight,
    private readonly complete: (result: AnswerResult) => void,
    private readonly finish: () => void,
  ) {}

  get malformed(): number {
    return this.inner.malformed;
  }

  get upstreamNote(): string | undefined {
    return this.inner.upstreamNote;
  }

  async next(): Promise<NormalisedEvent[]> {
    const events = await this.inner.next();
    for (const event of events) {
      if (this.flight.settled) break;
      if (event.type === 'done') this.complete({ answer: this.text, answer_found: event.answer_found, sources: this.sources, outcome: event.outcome });
      else if (event.type === 'error') {
        this.flight.settle({ error: new ProxyError(event.failure) });
        this.finish();
      } else {
        if (event.type === 'delta') this.text += event.text;
        else if (event.type === 'replace') this.text = event.text;
        else this.sources = event.sources;
        this.flight.events.push(event);
        this.flight.changed();
      }
    }
    return events;
  }

  stop(failure?: Failure): void {
    if (!failure && !this.flight.settled) {
      this.flight.settle('abandoned');
      this.finish();
    }
    this.inner.stop(failure);
  }
}

/** Another request's flight as this request's events: those so far, then each as it arrives. */
class FollowedEvents implements AnswerEvents {
  readonly malformed = 0;
  private sent = 0;
  private ended = false;
  private stopped: Failure | undefined;

  constructor(private readonly flight: Flight) {}

  async next(): Promise<NormalisedEvent[]> {
    if (this.ended) return [];
    const flight = this.flight;
    await flight.until(() => this.stopped !== undefined || this.sent < flight.events.length || flight.settled);
    const events = flight.events.slice(this.sent);
    this.sent = flight.events.length;
    let terminal: NormalisedEvent | undefined;
    if (this.stopped) terminal = { type: 'error', failure: this.stopped };
    else if (flight.result) terminal = { type: 'done', answer_found: flight.result.answer_found, outcome: flight.result.outcome };
    else if (flight.settled) terminal = { type: 'error', failure: flight.error?.failure ?? 'stream_broken' };
    if (terminal) {
      events.push(terminal);
      this.ended = true;
    }
    return events;
  }

  stop(failure?: Failure): void {
    this.stopped = failure ?? 'stream_broken';
    // Wakes this follower's wait; the flight's other listeners check theirs again and go on waiting.
    this.flight.changed();
  }
}
