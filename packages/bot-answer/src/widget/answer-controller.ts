import { fetchAnswer, send, type AnswerError, type FeedbackRequest, type RequestOptions } from './answer-client.js';
import { emit } from './events.js';
import type { StreamRenderer } from './markdown/stream-renderer.js';
import type { HistoryMessage } from '../protocol/types.js';
import { outcomeOf, type Turn } from './thread.js';

/** What the controller reads from its element: where and how to ask. */
export interface AnswerHost extends EventTarget, RequestOptions {
  /** Renders the element again (a turn changed). */
  requestUpdate(): void;
  botId: string;
  endpoint: string;
  inlineSources: boolean;
  stream: boolean;
  timeout: number;
  /** POST ratings to the proxy (otherwise they are events only). */
  feedback: boolean;
  feedbackEndpoint: string;
}

/**
 * The request lifecycle of `<bot-answer>`, one request at a time: sends a turn's question, streams the
 * answer into the turn's renderer, settles the turn's state and fires the events; a new question or `stop()`
 * (which the element calls when it leaves the page) aborts the running request. Also sends the visitor's ratings.
 */
export class AnswerController {
  private _running?: AbortController;

  constructor(private readonly _host: AnswerHost) {}

  /** Aborts the running request, if any (its turn ends as `stopped`). */
  stop() {
    this._running?.abort();
  }

  /**
   * Asks `turn.q` again from the start (aborting any running request), with `history` (the
   * conversation before it, if any), rendering into `renderer`. The turn is reset before this
   * returns; the promise settles with the turn.
   */
  async run(turn: Turn, renderer: StreamRenderer, history: HistoryMessage[] = []): Promise<void> {
    const host = this._host;
    this.stop();
    const running = (this._running = new AbortController());
    Object.assign(turn, { a: '', sources: [], state: 'answering', err: 0, fb: 0, id: undefined, rated: 0, outcome: undefined });
    renderer.reset();
    host.requestUpdate();
    emit(host, 'bot-answer-start', { message: turn.q });
    try {
      const end = await fetchAnswer(
        host.endpoint,
        { message: turn.q, bot_id: host.botId, inline_sources: host.inlineSources, stream: host.stream, history },
        {
          delta: (s) => renderer.append(s),
          replace: (s) => renderer.replace(s),
          sources: (s) => {
            turn.sources = Array.isArray(s) ? s.filter((x) => x && typeof x == 'object') : [];
            host.requestUpdate();
          },
          requestId: (id) => (turn.id = id),
        },
        running,
        host,
      );
      turn.state = end.answer_found ? 'done' : 'no-answer';
      turn.outcome = end.outcome;
      emit(host, 'bot-answer-done', { answer: renderer.text, answer_found: end.answer_found, sources: turn.sources, outcome: outcomeOf(turn), requestId: turn.id });
    } catch (e) {
      const { code, message, retry_after } = e as AnswerError;
      if (code == 'aborted') turn.state = 'stopped';
      else {
        turn.state = 'error';
        turn.err = { code, message, wait: retry_after };
        emit(host, 'bot-answer-error', { code, message });
      }
    }
    turn.a = renderer.text;
    renderer.finish();
    host.requestUpdate();
  }

  /**
   * Records the visitor's rating of `turn` (with a comment, for a thumbs-down) and fires `bot-answer-feedback`.
   * With `feedback` on, it is also POSTed to the proxy; `turn.rated` then says what the proxy accepted.
   * A failed POST changes nothing visible: the rating stays shown, a comment stays in its field.
   */
  async rate(turn: Turn, value: 'up' | 'down', comment?: string): Promise<void> {
    const host = this._host;
    turn.fb = value;
    host.requestUpdate();
    emit(host, 'bot-answer-feedback', { value, question: turn.q, answer: turn.a, requestId: turn.id, comment });
    if (!host.feedback || !turn.id) return;
    const body: FeedbackRequest = { request_id: turn.id, bot_id: host.botId, rating: value, comment: comment?.slice(0, 1000) };
    const url = host.feedbackEndpoint || host.endpoint.replace(/\/?$/, '/feedback');
    // Best effort: an HTTP error, no network or the host's headers callback failing all count as not taken.
    if ((await send(url, body, AbortSignal.timeout(host.timeout), host).catch(() => undefined))?.ok) {
      turn.rated = comment ? 'comment' : 'rating';
      host.requestUpdate();
    }
  }
}
