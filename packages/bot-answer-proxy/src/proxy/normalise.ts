import { deriveOutcome, isOutcome } from '../../../bot-answer/src/protocol/outcome.js';
import type { Outcome, Source } from '../../../bot-answer/src/protocol/types.js';
import type { Failure } from './errors.js';
import { findSources, isObject, normaliseSources, type Obj } from './sources.js';

/** What the normaliser produces: the project's stream events, before serialisation. */
export type NormalisedEvent =
  | { type: 'delta'; text: string }
  | { type: 'replace'; text: string }
  | { type: 'sources'; sources: Source[] }
  | { type: 'done'; answer_found: boolean; outcome: Outcome }
  | { type: 'error'; failure: Failure };

/** Event names (SSE `event:` or a `type`/`event` field) by what they mean; compared lower-case. */
const END = new Set(['done', 'end', 'complete', 'completed', 'finish', 'finished', 'stop', 'close', 'message_stop', 'response.completed', 'final']);
const ERROR = new Set(['error', 'failure', 'failed', 'exception']);
const SOURCES = new Set(['sources', 'source', 'citations', 'citation', 'references', 'reference', 'sourcedocuments']);
/** Single-item source events: each carries one more source. */
const SOURCE_ITEM = new Set(['source', 'citation', 'reference']);
/** Names whose `answer` field is a piece rather than the whole answer so far. */
const PIECE = new Set(['delta', 'token', 'chunk', 'content_block_delta', 'text_delta', 'message_delta']);
const TEXT = new Set(['answer', 'message', 'text', 'content', 'data', 'response', 'completion', 'partial', ...PIECE]);
const IGNORE = new Set(['ping', 'heartbeat', 'keepalive', 'keep-alive', 'comment', 'meta', 'metadata', 'start', 'started', 'open']);

/**
 * Turns the upstream's stream, in any dialect listed in the upstream notes, into the project's
 * stream events. Feed it SSE events with {@link event} (or one parsed JSON answer with
 * {@link value}), then call {@link end} or {@link broken}. It emits each event once, in order.
 */
export class StreamNormaliser {
  /** The answer text the client has been given so far. */
  text = '';
  /** The last sources the client has been given. */
  sources: Source[] = [];
  /** `answer_found` as the upstream last said it, if it did. */
  answerFound?: boolean;
  /** The outcome as the upstream last said it (an `outcome` field naming one of the three), if it did. */
  outcome?: Outcome;
  /** True once a complete, authoritative answer object arrived. */
  finalSeen = false;
  /** True once a terminal event (done or error) was emitted. */
  ended = false;
  /** Events whose JSON could not be parsed and that were skipped. */
  malformed = 0;
  /** The failure of the terminal error event, once one was emitted. */
  errorFailure?: Failure;
  /** A short note of what an upstream error event said, for debug logs only. */
  upstreamErrorNote?: string;

  private jsonSeen = false;
  private sourcesJson = '[]';

  constructor(private readonly emit: (event: NormalisedEvent) => void) {}

  /** One SSE event from the upstream. */
  event(name: string | undefined, data: string): void {
    if (this.ended) return;
    const kind = name?.toLowerCase();
    if (kind !== undefined && IGNORE.has(kind)) return;
    const trimmed = data.trim();
    if (trimmed === '[DONE]') return this.end();
    const first = trimmed.charCodeAt(0);
    // Only objects and arrays mark a JSON dialect; a bare quoted string is JSON only inside one.
    if (first === 123 /* { */ || first === 91 /* [ */ || (first === 34 /* " */ && this.jsonSeen)) {
      let parsed: unknown;
      let ok = true;
      try {
        parsed = JSON.parse(trimmed);
      } catch {
        ok = false;
      }
      if (ok) {
        if (this.value(parsed, kind)) {
          this.jsonSeen = true;
          return;
        }
        // Unrecognised JSON is metadata in a JSON dialect; only a plain-text stream shows it as text.
        if (this.jsonSeen || this.text === '') return;
      } else if (this.jsonSeen || trimmed.startsWith('{"')) {
        // A broken JSON event: skipping it is safer than showing raw JSON as answer text.
        this.malformed++;
        return;
      }
    }
    // Plain text (or JSON nobody could read in a plain-text stream): the data is text.
    if (kind === undefined || TEXT.has(kind)) return this.append(data);
    if (END.has(kind)) return this.end();
    if (ERROR.has(kind)) return this.fail(data);
    // Unknown event names with non-JSON data carry nothing the protocol can show.
  }

  /**
   * One parsed JSON value (an SSE event's data, or a whole JSON answer).
   * Returns whether it held anything recognisable.
   */
  value(value: unknown, kind?: string): boolean {
    if (this.ended) return true;
    if (typeof value === 'string') {
      if (kind !== undefined && END.has(kind)) this.end();
      else if (kind !== undefined && ERROR.has(kind)) this.fail(value);
      else if (kind === undefined || !SOURCES.has(kind)) this.append(value);
      return true;
    }
    if (Array.isArray(value)) {
      if (kind !== undefined && SOURCES.has(kind)) {
        this.setSources(value, false);
        return true;
      }
      return false;
    }
    if (!isObject(value)) return false;
    const obj = value;
    const ownType = typeof obj.type === 'string' ? obj.type : typeof obj.event === 'string' ? obj.event : undefined;
    const type = ownType?.toLowerCase() ?? kind;
    let recognised = false;

    if ((type !== undefined && ERROR.has(type)) || (obj.error !== undefined && obj.error !== null && obj.error !== false)) {
      this.fail(obj.error ?? obj.message ?? obj.detail);
      return true;
    }
    if (type !== undefined && IGNORE.has(type)) return true;

    if (Array.isArray(obj.choices)) {
      recognised = true;
      for (const choice of obj.choices) {
        if (!isObject(choice)) continue;
        if (isObject(choice.delta) && typeof choice.delta.content === 'string') this.append(choice.delta.content);
        else if (isObject(choice.message) && typeof choice.message.content === 'string') this.whole(choice.message.content, true);
        else if (typeof choice.text === 'string') this.append(choice.text);
      }
    }

    // Some dialects wrap the payload once: {"type":"sources","data":[...]} or {"event":"token","data":{...}}.
    if (isObject(obj.data)) recognised = this.value(obj.data, type) || recognised;
    else if (Array.isArray(obj.data) && type !== undefined && SOURCES.has(type)) {
      this.setSources(obj.data, false);
      recognised = true;
    }

    const found = findSources(obj);
    if (found !== undefined) {
      this.setSources(found, type !== undefined && SOURCE_ITEM.has(type) && isObject(found));
      recognised = true;
    } else if (type !== undefined && SOURCE_ITEM.has(type) && (typeof obj.url === 'string' || typeof obj.title === 'string')) {
      this.setSources(obj, true);
      recognised = true;
    }

    if (typeof obj.answer_found === 'boolean') {
      this.answerFound = obj.answer_found;
      recognised = true;
    }
    if (isOutcome(obj.outcome)) {
      this.outcome = obj.outcome;
      recognised = true;
    }

    if (typeof obj.answer === 'string') {
      recognised = true;
      if (typeof obj.answer_found === 'boolean' || (type !== undefined && END.has(type))) this.whole(obj.answer, true);
      else if (type !== undefined && PIECE.has(type)) this.append(obj.answer);
      else this.whole(obj.answer, false);
    } else {
      const piece = textPiece(obj, type);
      if (piece !== undefined) {
        recognised = true;
        this.append(piece);
      }
    }

    if (type !== undefined && END.has(type)) {
      this.end();
      return true;
    }
    if (!recognised && typeof obj.detail !== 'undefined' && (type === undefined || !TEXT.has(type))) {
      this.fail(obj.detail);
      return true;
    }
    return recognised;
  }

  /** The upstream body ended cleanly: a normal end, with or without an end marker. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.emit({ type: 'done', answer_found: this.found, outcome: this.outcome ?? deriveOutcome(this.found, this.sources) });
  }

  /** `answer_found` as the upstream said it; else as its outcome says; else whether there is any text. */
  get found(): boolean {
    return this.answerFound ?? (this.outcome ? this.outcome === 'answered' : this.text.length > 0);
  }

  /** The stream stopped for `failure`: a terminal error, unless a complete answer already arrived. */
  broken(failure: Failure): void {
    if (this.ended) return;
    if (this.finalSeen && failure === 'stream_broken') return this.end();
    this.ended = true;
    this.errorFailure = failure;
    this.emit({ type: 'error', failure });
  }

  private fail(detail: unknown): void {
    this.upstreamErrorNote = describe(detail);
    this.ended = true;
    this.errorFailure = 'upstream_failed';
    this.emit({ type: 'error', failure: 'upstream_failed' });
  }

  private append(piece: string): void {
    if (piece === '') return;
    this.text += piece;
    this.emit({ type: 'delta', text: piece });
  }

  /** The whole answer so far (cumulative dialects) or the final answer (authoritative). */
  private whole(full: string, final: boolean): void {
    if (final) this.finalSeen = true;
    if (full === this.text) return;
    if (full.startsWith(this.text)) {
      const rest = full.slice(this.text.length);
      this.text = full;
      this.emit({ type: 'delta', text: rest });
      return;
    }
    this.text = full;
    this.emit({ type: 'replace', text: full });
  }

  private setSources(value: unknown, addOne: boolean): void {
    const next = addOne ? [...this.sources, ...normaliseSources(value)] : normaliseSources(value);
    const json = JSON.stringify(next);
    if (json === this.sourcesJson) return;
    this.sourcesJson = json;
    this.sources = next;
    this.emit({ type: 'sources', sources: next });
  }
}

/** The text piece of a JSON event: `text`, `delta`, `content`, `token`, `data`, ... */
function textPiece(obj: Obj, type: string | undefined): string | undefined {
  for (const field of ['text', 'delta', 'content', 'token', 'completion'] as const) {
    const value = obj[field];
    if (typeof value === 'string') return value;
    if (isObject(value)) {
      if (typeof value.text === 'string') return value.text;
      if (typeof value.content === 'string') return value.content;
    }
  }
  if (typeof obj.data === 'string' && (type === undefined || !SOURCES.has(type))) return obj.data;
  if (typeof obj.message === 'string' && type !== undefined && TEXT.has(type)) return obj.message;
  return undefined;
}

/** A short, single-line description of an upstream error payload (debug logs only). */
export function describe(detail: unknown): string {
  let text: string;
  if (typeof detail === 'string') text = detail;
  else if (Array.isArray(detail)) text = detail.map((d) => (isObject(d) && typeof d.msg === 'string' ? d.msg : JSON.stringify(d))).join('; ');
  else if (isObject(detail)) text = typeof detail.message === 'string' ? detail.message : typeof detail.detail === 'string' ? detail.detail : JSON.stringify(detail);
  else text = String(detail);
  return text.replace(/\s+/g, ' ').slice(0, 200);
}
