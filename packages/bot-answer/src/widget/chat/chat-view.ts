import { html, nothing, render } from 'lit/html.js';
import type { Source } from '../../protocol/types.js';
import { AnswerController } from '../answer-controller.js';
import { emit } from '../events.js';
import { StreamRenderer } from '../markdown/stream-renderer.js';
import { cap, dateFormat, safeUrl, sourceDate } from '../source-format.js';
import type { Box, Chat, ShellView, StageHost } from '../stage.js';
import { errorMessage, fmt, type Strings } from '../strings.js';
import { historyBefore, loadThread, outcomeOf, saveThread, type Turn } from '../thread.js';
import { thumb } from './icons.js';
import { SearchView } from './search-view.js';

/** A turn's view: the renderer owning its answer container, and whether its sources are shown. */
interface View {
  renderer: StreamRenderer;
  sourcesOpen?: boolean;
}

/**
 * The chat of one `<bot-answer>`: its thread of turns, each question's request (through the answer
 * controller), the streaming Markdown of each answer, sources, copy and feedback, and search as you type. It
 * renders the turns into the box's thread container with lit-html; the element draws everything around it.
 */
export class ChatView implements Chat {
  private _turns: Turn[] = [];
  /** What was just copied, so its button says "Copied": a turn (its answer) or a code block's button. */
  private _copied: unknown = '';
  /** The strings in use, as of the last render. */
  private _t!: Strings;
  /** The language in use, unset before the first render. */
  private _lang?: string;
  /** Source dates in that language, made on first use: a page's first Intl object costs tens of milliseconds. */
  private _dateFormat?: Intl.DateTimeFormat;
  private readonly _answers: AnswerController;
  private readonly _views = new WeakMap<Turn, View>();
  /** The thread container listened to (the shell makes a new one when the mode changes). */
  private _thread?: HTMLElement;
  /** Keep the thread scrolled to its end while an answer grows (until the visitor scrolls up). */
  private _followEnd = true;
  /** Search as you type in the box's question field. */
  private readonly _search: SearchView;

  constructor(private readonly _host: StageHost) {
    this._answers = new AnswerController(_host);
    this._search = new SearchView(_host);
    if (_host.persist && _host.botId) this._turns = loadThread(_host.botId);
  }

  get state() {
    return this._turns.at(-1)?.state ?? 'idle';
  }

  view(t: Strings): ShellView {
    const last = this._turns.at(-1);
    return { turns: !!last, state: this.state, status: last ? this._stateText(t, last) : '' };
  }

  send(q: string) {
    // The date formatter for sources, in a task of its own while the question waits for its answer: the page's
    // first Intl object starts ICU (about 25 ms, 100 ms or more at 4x CPU), which, made as the chat opened,
    // held up a press on the launcher. A thread shown before any question makes it on first use.
    if (!this._dateFormat) setTimeout(() => this._dates());
    const turn: Turn = { q, a: '', sources: [], state: 'answering' };
    this._turns = [...this._turns, turn];
    this._answer(turn);
  }

  stop() {
    this._answers.stop();
  }

  clear() {
    this.stop();
    this._turns = [];
    this._saveThread();
  }

  render(box: Box, t: Strings, lang: string) {
    const thread = box.thread;
    this._t = t;
    if (lang !== this._lang) {
      this._lang = lang;
      this._dateFormat = undefined;
    }
    if (thread != this._thread) {
      this._thread = thread;
      thread.addEventListener('click', (e) => this._onThreadClick(e));
      thread.addEventListener('scroll', () => this._onThreadScroll(thread));
    }
    // Every turn's view exists before the template, which only places them.
    for (const turn of this._turns) this._viewOf(turn);
    render(this._turns.map((turn, i) => this._renderTurn(turn, i)), thread);
    this._scrollToEnd();
    // The renderer's code-block buttons, relabelled for the language in use and the one just used.
    for (const button of this._thread?.querySelectorAll('.cc') ?? []) button.textContent = this._t[button == this._copied ? 'copied' : 'copyCode'];
    this._search.render(box, t);
  }

  /** Asks `turn`'s question (again, for Retry) and keeps the thread saved as it goes. */
  private _answer(turn: Turn) {
    const view = this._viewOf(turn);
    view.sourcesOpen = false;
    this._followEnd = true;
    this._saveThread(this._answers.run(turn, view.renderer, this._host.history == 'off' ? [] : historyBefore(this._turns, turn)));
  }

  /** The view of `turn`, made on first use: the renderer that owns its answer container. */
  private _viewOf(turn: Turn): View {
    let view = this._views.get(turn);
    if (!view) {
      const container = document.createElement('div');
      container.part.add('answer');
      container.className = 'md';
      container.dir = 'auto';
      const renderer = new StreamRenderer(container, {
        images: this._host.images,
        onUpdate: () => this._scrollToEnd(),
        copyLabel: () => this._t.copyCode,
      });
      renderer.append(turn.a);
      renderer.finish();
      this._views.set(turn, (view = { renderer }));
    }
    return view;
  }

  /** Saves the thread (with `persist`), and again once `change` (an answer or a rating arriving) settles. */
  private async _saveThread(change?: Promise<void>) {
    this._host.requestUpdate();
    if (this._host.persist) saveThread(this._host.botId, this._turns);
    if (change) {
      await change;
      this._saveThread();
    }
  }

  private _dates() {
    return (this._dateFormat ??= dateFormat(this._lang ?? ''));
  }

  private _scrollToEnd() {
    const thread = this._thread;
    if (thread && this._followEnd) thread.scrollTop = thread.scrollHeight;
  }

  /** The visible and announced text for a turn's state. */
  private _stateText(t: Strings, turn: Turn) {
    return turn.err
      ? errorMessage(t, turn.err.code, turn.err.wait)
      : t[turn.state == 'no-answer' ? (outcomeOf(turn) == 'not_sure' ? 'notSure' : 'noAnswer') : turn.state];
  }

  /**
   * One turn. How a complete answer ended decides what follows it: `answered`, its sources; `not_sure`, the
   * closest pages as related pages (never as sources); `refused`, the text alone. The note under an answer
   * that found none shows only when the answer has no text of its own to say so.
   */
  private _renderTurn(turn: Turn, i: number) {
    const t = this._t;
    const view = this._views.get(turn)!;
    const st = turn.state;
    const settled = st != 'answering' && !turn.err;
    const outcome = outcomeOf(turn);
    return html`<article class="turn ${st}"><p part="question" class="q" dir="auto">${turn.q}</p>${view.renderer.container}${
      st == 'answering' || st == 'done' || (st == 'no-answer' && turn.a.trim())
        ? nothing
        : html`<p part=${turn.err ? 'error' : 'note'} class="note">${this._stateText(t, turn)} ${
            turn.err ? html`<button @click=${() => this._answer(turn)}>${t.retry}</button>` : nothing
          }</p>`
    }${
      outcome == 'not_sure'
        ? this._renderRelated(turn, i)
        : turn.sources.length && outcome != 'refused'
        ? html`<button part="sources-toggle" aria-expanded=${!!view.sourcesOpen} aria-controls="s${i}" @click=${() => (
            (view.sourcesOpen = !view.sourcesOpen), this._host.requestUpdate()
          )}>${fmt(t.sources, turn.sources.length)}</button><ol part="sources" id="s${i}" ?hidden=${!view.sourcesOpen}>${turn.sources.map((s, j) =>
            this._renderSource(turn, s, j),
          )}</ol>`
        : nothing
    }${settled ? this._renderActions(turn) : nothing}</article>`;
  }

  /** Copy, the thumbs, and with `feedback` on, the proxy's acknowledgement and the thumbs-down comment field. */
  private _renderActions(turn: Turn) {
    const t = this._t;
    return html`<div class="acts"><button @click=${() => this._copy(turn.a, turn)}>${this._copied == turn ? t.copied : t.copy}</button>${(
      ['up', 'down'] as const
    ).map(
      (value) =>
        html`<button class="th" aria-label=${value == 'up' ? t.helpful : t.unhelpful} aria-pressed=${turn.fb == value} @click=${() =>
          this._saveThread(this._answers.rate(turn, value))}>${thumb(value)}</button>`,
    )}${turn.rated ? html`<span class="note" role="status">${t.thanks}</span>` : nothing}${
      turn.rated == 'rating' && turn.fb == 'down'
        ? html`<form class="acts" @submit=${(e: SubmitEvent) => this._onComment(e, turn)}><input part="comment" maxlength="1000" aria-label=${t.comment} placeholder=${t.comment}><button>${t.send}</button></form>`
        : nothing
    }</div>`;
  }

  /** A not-sure answer's closest pages: a list labelled by its title, each link opening the page. */
  private _renderRelated(turn: Turn, i: number) {
    return html`<div part="related"><p id="r${i}" class="rl">${this._t.related}</p><ul aria-labelledby="r${i}">${turn.sources.map((s, j) => {
      const href = safeUrl(s.url);
      const title = html`<bdi>${cap(s.title, 300) || cap(s.url, 300) || j + 1}</bdi>`;
      return html`<li>${
        href
          ? html`<a href=${href} target="_blank" rel="noopener noreferrer" @click=${() =>
              emit(this._host, 'bot-answer-source-click', { source: s, index: j, question: turn.q, related: true })}>${title}</a>`
          : title
      }</li>`;
    })}</ul></div>`;
  }

  private _renderSource(turn: Turn, s: Source, j: number) {
    const href = safeUrl(s.url);
    const title = cap(s.title, 300) || cap(s.url, 300) || j + 1;
    const name = cap(s.author?.name, 100);
    const date = sourceDate(s.modified_time);
    return html`<li part="source" tabindex="-1">${
      href
        ? html`<a href=${href} target="_blank" rel="noopener noreferrer" @click=${() =>
            emit(this._host, 'bot-answer-source-click', { source: s, index: j, question: turn.q })}><bdi>${title}</bdi></a>`
        : html`<bdi>${title}</bdi>`
    }<span class="meta">${s.app_name ? html`<bdi>${cap(s.app_name, 100)}</bdi>` : nothing}${
      name ? html`<bdi>${name}</bdi>` : nothing
    }${date ? html`<time datetime=${date.toISOString()}>${this._dates().format(date)}</time>` : nothing}</span>${
      s.snippet ? html`<p dir="auto">${cap(s.snippet, 500)}</p>` : nothing
    }</li>`;
  }

  /** A thumbs-down comment: sent with the rating again; the field keeps the text until the proxy took it. */
  private _onComment(e: SubmitEvent, turn: Turn) {
    e.preventDefault();
    const comment = (e.target as HTMLFormElement).querySelector('input')!.value.trim();
    if (comment) this._saveThread(this._answers.rate(turn, 'down', comment));
  }

  private _onThreadScroll(thread: HTMLElement) {
    this._followEnd = thread.scrollHeight - thread.scrollTop - thread.clientHeight < 40;
  }

  /** Citation links (sanitised HTML, never edited) and code blocks' copy buttons (the renderer's), by delegation. */
  private _onThreadClick(e: Event) {
    const target = e.target as Element;
    const link = target.closest?.<HTMLElement>('.md a.citation');
    const copy = target.closest?.('.md .cc');
    // The button is first in its `pre`, before the `code`.
    if (copy) this._copy(copy.nextSibling!.textContent!, copy);
    const i = link ? [...this._thread!.querySelectorAll('article')].indexOf(link.closest('article')!) : -1;
    // A not-sure answer has no sources to open: a citation in it is a plain link.
    if (link && outcomeOf(this._turns[i]!) != 'not_sure') {
      e.preventDefault();
      this._views.get(this._turns[i]!)!.sourcesOpen = true;
      this._host.requestUpdate();
      // Focusing scrolls the entry into view.
      this._host.updateComplete.then(() => (this._thread?.querySelector(`#s${i}`)?.children[+link.dataset.citation! - 1] as HTMLElement | undefined)?.focus());
    }
  }

  private async _copy(text: string, key: unknown) {
    try {
      await navigator.clipboard.writeText(text);
      this._copied = key;
      this._host.requestUpdate();
      setTimeout(() => this._copied == key && ((this._copied = ''), this._host.requestUpdate()), 2000);
    } catch {
      // Clipboard refused (permissions, insecure context): nothing to announce.
    }
  }
}
