import type { AnswerResponse, HistoryMessage } from '../../../../../bot-answer/src/protocol/types.js';
import type { Passage } from '../../folder/knowledge-base.js';
import type { AnswerSource } from '../../http/stream-answer.js';
import type { AnswerNote } from '../../options.js';
import { ModelError, streamChat, type ChatModelSettings, type TokenUsage } from '../../model/chat-completions.js';
import { CitationFilter } from './citations.js';
import { buildMessages, NO_ANSWER_SENTINEL, numberSources } from './prompt.js';

/** How written answers are made: the model, and how many passages one prompt gives it. */
export interface WriterSettings extends ChatModelSettings {
  /** Most passages in one prompt (the best the retrieval found). */
  maxPassages: number;
  /** Questions retrieval is "not sure" of are written from their closest pages too (see `llmAskWhenNotSure`). */
  askWhenNotSure: boolean;
}

/** One question to write an answer to: its passages come from retrieval, which found them relevant. */
export interface WriteRequest {
  message: string;
  inlineSources: boolean;
  history: readonly HistoryMessage[];
  passages: Passage[];
  /** The answer when the model says the passages do not answer: "not sure", with their pages. */
  notSure: () => AnswerResponse;
}

/** Longest a rate-limited model is left alone, whatever its Retry-After says. */
const MAX_PAUSE_SECONDS = 600;

/**
 * Writes answers with an OpenAI-compatible model from the passages retrieval found, and falls
 * back to the docs answer (the caller's) when the model cannot: unreachable, an HTTP error,
 * malformed stream data or no first token in time, each logged once with its reason. After a
 * 429 or 503 with `Retry-After`, the model is not asked again until then.
 */
export class AnswerWriter {
  #pausedUntil = 0;

  constructor(
    readonly settings: WriterSettings,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Starts writing: resolves once the answer's first text is ready to send (the model's first
   * token, checked), with the rest following as the model writes it; or with the "not sure"
   * answer (`request.notSure`) when the model says the passages do not answer; or with `fallback()`
   * when the model fails before any text. A failure after the text began throws from the
   * pieces (`note.failed` says why). Rejects only when `signal` aborts.
   */
  async write(request: WriteRequest, fallback: () => AnswerSource, signal: AbortSignal, note: AnswerNote): Promise<AnswerSource> {
    // The model's server is named by the model alone: its base URL may hold credentials.
    const fallBack = (reason: string): AnswerSource => {
      note.mode = 'docs';
      note.fallback = reason;
      this.log(`model ${this.settings.model}: ${reason}; answered from the docs`);
      return fallback();
    };
    const wait = Math.ceil((this.#pausedUntil - Date.now()) / 1000);
    if (wait > 0) return fallBack(`rate-limited, not asked for another ${wait} s`);

    const sources = numberSources(request.passages, this.settings.maxPassages);
    const messages = buildMessages(sources, request.message, request.history);
    const documentUrls = sources.flatMap(({ passages }) => passages.map((p) => p.document.source.url));
    const filter = new CitationFilter(
      sources.map((s) => s.url),
      documentUrls,
      request.inlineSources,
    );
    const chat = streamChat(this.settings, messages, signal);
    const pieces = chat[Symbol.asyncIterator]();
    const opening = new Opening();
    const noteEnd = (): void => {
      note.usage = chat.usage;
      note.finish = chat.finishReason;
    };

    let first = '';
    try {
      while (first === '') {
        const next = await pieces.next();
        const text = next.done ? opening.end() : opening.push(next.value);
        if (text === NOT_ANSWERED) {
          await pieces.return?.();
          noteEnd();
          note.mode = 'written';
          return finished(request.notSure());
        }
        if (text) first = filter.push(text);
        if (next.done) {
          first += filter.end();
          noteEnd();
          if (!first) return fallBack('the model wrote no answer');
          note.mode = 'written';
          return finished({ answer: first, answer_found: true, sources: citedSources() });
        }
      }
    } catch (error) {
      noteEnd();
      if (signal.aborted || !(error instanceof ModelError)) throw error;
      if (error.retryAfterSeconds && (error.status === 429 || error.status === 503)) {
        const pause = Math.min(error.retryAfterSeconds, MAX_PAUSE_SECONDS);
        this.#pausedUntil = Date.now() + pause * 1000;
        return fallBack(`${error.message}; not asked again for ${pause} s`);
      }
      return fallBack(error.message);
    }

    note.mode = 'written';
    let sent = first.length;
    function citedSources() {
      const cited = filter.cited;
      return (cited.length ? cited.map((i) => sources[i]!) : sources).map((s) => s.source);
    }
    return {
      paceMs: 0,
      pieces: (async function* () {
        yield first;
        try {
          for (;;) {
            const next = await pieces.next();
            if (next.done) break;
            const text = filter.push(next.value);
            sent += text.length;
            if (text) yield text;
          }
          const tail = filter.end();
          if (tail) yield tail;
        } catch (error) {
          // What the filter still holds (a citation or link not yet checked) is never sent.
          if (!signal.aborted) note.failed = `${error instanceof ModelError ? error.message : 'the answer failed'} after ${sent} characters`;
          throw error;
        } finally {
          noteEnd();
        }
      })(),
      end: () => ({ answer_found: true, sources: citedSources() }),
    };
  }
}

/** A written answer already complete (short, or "not found"): sent as it is. */
function finished(answer: AnswerResponse): AnswerSource {
  return {
    paceMs: 0,
    pieces: (async function* () {
      yield answer.answer;
    })(),
    end: () => ({ answer_found: answer.answer_found, sources: answer.sources }),
  };
}

const NOT_ANSWERED = Symbol('not answered');

/**
 * The start of the model's text, held until it tells whether the model said the passages do
 * not answer (the sentinel, alone, maybe wrapped in emphasis or quotes) or began an answer.
 */
class Opening {
  #text = '';
  #decided = false;

  /** The text to pass on (the answer's start, without leading white space), or the verdict; `undefined`: not yet known. */
  push(piece: string): string | typeof NOT_ANSWERED | undefined {
    if (this.#decided) return piece;
    this.#text += piece;
    const head = this.#head();
    if (head === '' || (NO_ANSWER_SENTINEL.startsWith(head) && head.length < NO_ANSWER_SENTINEL.length)) return undefined;
    if (head.startsWith(NO_ANSWER_SENTINEL)) return NOT_ANSWERED;
    this.#decided = true;
    return this.#text.trimStart();
  }

  /** The model stopped while the start was still open: a cut-off sentinel still counts. */
  end(): string | typeof NOT_ANSWERED | undefined {
    if (this.#decided) return undefined;
    const head = this.#head();
    if (head.length >= 3 && NO_ANSWER_SENTINEL.startsWith(head)) return NOT_ANSWERED;
    this.#decided = true;
    return this.#text.trim() || undefined;
  }

  #head(): string {
    return this.#text.replace(/^[\s*_`"'>]+/, '').toUpperCase();
  }
}

/** A base URL as logs may show it: no user name, password, query or fragment. */
export function safeUrl(url: string): string {
  if (!URL.canParse(url)) return '(an unreadable URL)';
  const { protocol, host, pathname } = new URL(url);
  return `${protocol}//${host}${pathname.replace(/\/+$/, '')}`;
}
