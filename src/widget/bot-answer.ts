import { LitElement, html, nothing as _ } from 'lit';
import type { Source } from '../protocol/types.js';
import type { HeadersCallback } from './answer-client.js';
import { AnswerController } from './answer-controller.js';
import { styles } from './bot-answer.styles.js';
import { jsonObject, presentAndNotFalse, stringList, trueUnlessFalse } from './converters.js';
import { emit } from './events.js';
import { LOCALE_EVENT, localeStrings } from './locale.js';
import { StreamRenderer } from './markdown/stream-renderer.js';
import { cap, dateFormat, safeUrl, sourceDate } from './source-format.js';
import { STRINGS, errorMessage, fmt, type Strings } from './strings.js';
import { HISTORY_TURNS, historyBefore, loadThread, saveThread, type Turn } from './thread.js';

/** A turn's view: the renderer owning its answer container, and whether its sources are shown. */
interface View {
  renderer: StreamRenderer;
  sourcesOpen?: boolean;
}

/**
 * An answer box for any website: asks a bot through the bot-answer proxy and streams its
 * Markdown answer, with citations and sources, into a thread. Each question goes with the last
 * few turns of the thread on screen, so a follow-up is read in their light (`history="off"`:
 * each question alone), and the box says what is sent once the thread has a turn.
 *
 * @fires bot-answer-submit - A question is about to be sent (cancelable). Detail `{message}`.
 * @fires bot-answer-start - A request started (also on retry). Detail `{message}`.
 * @fires bot-answer-done - An answer is complete. Detail `{answer, answer_found, sources, requestId}`.
 * @fires bot-answer-error - A request failed. Detail `{code, message}`.
 * @fires bot-answer-feedback - Thumbs up or down on an answer, and again with a thumbs-down comment. Detail `{value, question, answer, requestId, comment}`.
 * @fires bot-answer-source-click - A source title link was followed. Detail `{source, index, question}`.
 * @csspart launcher - The floating mode's open button.
 * @csspart panel - The box (a modal dialog in floating mode).
 * @csspart thread - The conversation (`role="log"`).
 * @csspart question - A turn's question.
 * @csspart answer - A turn's answer.
 * @csspart sources-toggle - A turn's button that shows or hides its sources.
 * @csspart sources - A turn's list of sources.
 * @csspart source - One source.
 * @csspart suggestion - A suggested question's button (shown while the thread is empty).
 * @csspart input - The question field.
 * @csspart send - The send button.
 * @csspart stop - The stop button, while answering.
 * @csspart status - The polite status line (answering, ready, error).
 * @csspart error - A turn's error message with its Retry button (and the configuration message).
 * @csspart note - A turn's "no answer found" or "stopped" note.
 * @csspart hint - Once the thread has a turn: what of the conversation is sent with a question.
 * @csspart comment - The optional comment field after a thumbs-down (with `feedback` on).
 * @cssprop --bot-answer-bg - Background colour.
 * @cssprop --bot-answer-fg - Text colour.
 * @cssprop --bot-answer-muted - Secondary text colour.
 * @cssprop --bot-answer-accent - Buttons, links and focus ring.
 * @cssprop --bot-answer-accent-fg - Text on the accent colour.
 * @cssprop --bot-answer-border - Borders.
 * @cssprop --bot-answer-subtle - Background of questions and code.
 * @cssprop --bot-answer-error - Error text.
 * @cssprop --bot-answer-font - Font family.
 * @cssprop --bot-answer-font-size - Base font size.
 * @cssprop --bot-answer-radius - Corner radius.
 * @cssprop --bot-answer-space - Base spacing unit.
 * @cssprop --bot-answer-max-height - Height cap of the inline thread.
 * @cssprop --bot-answer-z-index - Stacking order of the floating launcher.
 */
export class BotAnswer extends LitElement {
  static override styles = styles;
  static override properties = {
    botId: { attribute: 'bot-id' },
    endpoint: {},
    inlineSources: { attribute: 'inline-sources', converter: trueUnlessFalse },
    stream: { converter: trueUnlessFalse },
    mode: { reflect: true },
    theme: { reflect: true },
    placeholder: {},
    heading: {},
    suggestions: { converter: stringList },
    images: { converter: presentAndNotFalse },
    persist: { converter: presentAndNotFalse },
    timeout: { type: Number },
    open: { type: Boolean, reflect: true },
    lang: { reflect: true },
    strings: { converter: jsonObject },
    credentials: {},
    getHeaders: { attribute: false },
    feedback: { converter: presentAndNotFalse },
    feedbackEndpoint: { attribute: 'feedback-endpoint' },
    history: {},
    _turns: { state: true },
    _copied: { state: true },
  };

  /** Identifier of the bot that answers (required). */
  botId = '';
  /** URL of the bot-answer proxy's answer endpoint. */
  endpoint = '/api/answer';
  /** Ask for inline citations `[[n]](url)`; attribute `"false"` turns them off. */
  inlineSources = true;
  /** Stream the answer; attribute `"false"` uses the JSON mode. */
  stream = true;
  /** `inline` renders in place; `floating` is a launcher button opening a modal dialog. */
  mode: 'inline' | 'floating' = 'inline';
  /** Colour scheme: `light`, `dark`, or `auto` (follows the visitor's system). */
  theme: 'light' | 'dark' | 'auto' = 'light';
  /** Placeholder of the question field. */
  placeholder = '';
  /** Title of the box. */
  heading = '';
  /** Example questions shown while the thread is empty (attribute: JSON array or `|`-separated). */
  suggestions: string[] = [];
  /** Show images from answers (https only); otherwise they become links. */
  images = false;
  /** Keep the thread for the tab's session (sessionStorage, per bot-id). */
  persist = false;
  /** Milliseconds to wait for the next byte of an answer before failing with `timeout`. */
  timeout = 60000;
  /** Whether the floating dialog is open. */
  open = false;
  /**
   * Language of the box: picks a loaded translation (`locales/`) and formats dates. Without it, the
   * nearest ancestor's `lang` (usually the document's) is used.
   */
  override lang!: string;
  /**
   * Overrides for any of the visible strings (see `STRINGS`), over the translation for `lang`. Attribute:
   * a JSON object, e.g. `strings='{"heading":"Help"}'` (anything else warns in the console and changes nothing).
   */
  strings: Partial<Strings> = {};
  /** Whether requests to the proxy carry cookies and HTTP authentication, as `fetch`'s `credentials`. */
  credentials: RequestCredentials = 'same-origin';
  /**
   * Called before each request to the proxy (answers and feedback); the headers it returns (or resolves to)
   * are added, e.g. `{Authorization: 'Bearer ' + token}` with a short-lived token the site mints. If it
   * throws, the question fails with the error code `headers`.
   */
  getHeaders?: HeadersCallback;
  /**
   * Send the visitor's ratings (thumbs, and an optional comment on thumbs-down) to the proxy. Without it,
   * ratings are only the `bot-answer-feedback` event.
   */
  feedback = false;
  /** Where ratings are POSTed; default: `endpoint` with `/feedback` appended. */
  feedbackEndpoint = '';
  /**
   * `"off"` sends each question alone. Otherwise each question goes with the last few answered
   * turns of the thread on screen (the conversation so far), so the answer can read a follow-up in their light.
   */
  history = '';

  private _turns: Turn[] = [];
  /** What was just copied, so its button says "Copied": a turn (its answer) or a code block's button. */
  private _copied: unknown = '';

  /** The strings in use: the defaults, then the translation for the language, then `strings`. */
  private _strings = STRINGS;
  /** The language in use (`lang`, or the nearest ancestor's), unset before the first update. */
  private _lang?: string;
  /** Source dates in that language. */
  private _dateFormat!: Intl.DateTimeFormat;
  private readonly _answers = new AnswerController(this);
  private readonly _views = new WeakMap<Turn, View>();
  private _threadRestored = false;
  /** Keep the thread scrolled to its end while an answer grows (until the visitor scrolls up). */
  private _followEnd = true;

  /** `idle`, or the state of the latest turn: `answering`, `done`, `no-answer`, `stopped`, `error`. */
  get state() {
    return this._turns.at(-1)?.state ?? 'idle';
  }

  /**
   * Sends `message` as a new question (aborting any running one); works open or closed, in every mode.
   * Returns false when nothing was sent: a blank message, no `bot-id`, or `bot-answer-submit` cancelled.
   */
  ask(message: string): boolean {
    const q = message.trim();
    const ok = !!q && !!this.botId && emit(this, 'bot-answer-submit', { message: q });
    if (ok) {
      const turn: Turn = { q, a: '', sources: [], state: 'answering' };
      this._turns = [...this._turns, turn];
      this._answer(turn);
    }
    return ok;
  }

  /** Stops the running answer, keeping what arrived (marked as stopped). */
  stop() {
    this._answers.stop();
  }

  /** Stops any running answer and empties the thread (and its saved copy). */
  clear() {
    this.stop();
    this._turns = [];
    this._saveThread();
  }

  /** Opens the floating dialog (inline: focuses the question field). */
  async show() {
    this.open = true;
    await this.updateComplete;
    this._query('textarea')?.focus();
  }

  /** Closes the floating dialog (which returns focus where it was: the launcher, when it opened it). */
  hide() {
    this.open = false;
  }

  /** The first match of `selector` in the shadow root. */
  private _query = <E extends HTMLElement>(selector: string) => this.renderRoot.querySelector<E>(selector);

  /** A translation module loaded after the element rendered: its strings may apply. */
  private _onLocale = () => this.requestUpdate();

  override connectedCallback() {
    super.connectedCallback();
    addEventListener(LOCALE_EVENT, this._onLocale);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    removeEventListener(LOCALE_EVENT, this._onLocale);
  }

  /** Asks `turn`'s question (again, for Retry) and keeps the thread saved as it goes. */
  private _answer(turn: Turn) {
    const view = this._viewOf(turn);
    view.sourcesOpen = false;
    this._followEnd = true;
    this._saveThread(this._answers.run(turn, view.renderer, this.history == 'off' ? [] : historyBefore(this._turns, turn)));
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
        images: this.images,
        onUpdate: () => this._scrollToEnd(),
        copyLabel: () => this._strings.copyCode,
      });
      renderer.append(turn.a);
      renderer.finish();
      this._views.set(turn, (view = { renderer }));
    }
    return view;
  }

  /** Saves the thread (with `persist`), and again once `change` (an answer or a rating arriving) settles. */
  private async _saveThread(change?: Promise<void>) {
    if (this.persist) saveThread(this.botId, this._turns);
    if (change) {
      await change;
      this._saveThread();
    }
  }

  private _scrollToEnd() {
    const thread = this._query('.thread');
    if (thread && this._followEnd) thread.scrollTop = thread.scrollHeight;
  }

  /** The visible and announced text for a turn's state. */
  private _stateText(turn: Turn) {
    const t = this._strings;
    return turn.err ? errorMessage(t, turn.err.code, turn.err.wait) : t[turn.state == 'no-answer' ? 'noAnswer' : turn.state];
  }

  override willUpdate() {
    if (!this._threadRestored && this.persist && this.botId) {
      this._threadRestored = true;
      this._turns = loadThread(this.botId);
    }
    // Every turn's view exists before render, which only places them.
    for (const turn of this._turns) this._viewOf(turn);
    const lang = this.lang || (this.parentElement?.closest('[lang]') as HTMLElement | null)?.lang || document.documentElement.lang;
    // Cheap enough for every update, and always current (a translation may have loaded since).
    this._strings = { ...STRINGS, ...localeStrings(lang), ...this.strings };
    if (lang !== this._lang) this._dateFormat = dateFormat((this._lang = lang));
  }

  override updated() {
    const dialog = this._query<HTMLDialogElement>('dialog');
    if (dialog && this.open != dialog.open) this.open ? dialog.showModal() : dialog.close();
    this._scrollToEnd();
    // The renderer's code-block buttons, relabelled for the language in use and the one just used.
    for (const button of this.renderRoot.querySelectorAll('.cc')) button.textContent = this._strings[button == this._copied ? 'copied' : 'copyCode'];
  }

  override render() {
    const t = this._strings;
    const last = this._turns.at(-1);
    if (!this.botId) return html`<p part="error">${t.config}</p>`;
    // Not a <header>: in the floating dialog it would add a second banner landmark to the page.
    const body = html`<div class="hd"><h2 id="h">${this.heading || t.heading}</h2>${
      last ? html`<button @click=${this.clear}>${t.startOver}</button>` : _
    }${
      this.mode == 'floating' ? html`<button aria-label=${t.close} @click=${this.hide}>&#x2715;</button>` : _
    }</div><div part="thread" class="thread" role="log" tabindex="0" aria-label=${t.thread} @click=${this._onThreadClick} @scroll=${this._onThreadScroll}>${this._turns.map(
      (turn, i) => this._renderTurn(turn, i),
    )}</div>${
      // Once there is a turn, where a visitor wonders what the next question is read with.
      last
        ? html`<p part="hint" class="hint">${this.history == 'off' ? t.independent : fmt(t.followUps, HISTORY_TURNS)}</p>`
        : this.suggestions.length
          ? html`<p class="sg">${t.suggestions}</p><ul class="sg">${this.suggestions.map(
              (q) => html`<li><button part="suggestion" @click=${() => this.ask(q)}>${q}</button>`,
            )}</ul>`
          : _
    }<form @submit=${this._onSubmit}><textarea part="input" rows="2" maxlength="4000" aria-label=${t.input} placeholder=${this.placeholder || t.placeholder} @keydown=${this._onKeydown}></textarea>${
      this.state == 'answering' ? html`<button type="button" part="stop" @click=${this.stop}>${t.stop}</button>` : _
    }<button part="send">${t.send}</button></form><p part="status" class="status ${this.state}" role="status">${last ? this._stateText(last) : ''}</p>`;
    return this.mode == 'floating'
      ? html`<button part="launcher" class="launcher" aria-haspopup="dialog" @click=${this.show}>${t.open}</button><dialog part="panel" class="panel" aria-labelledby="h" @close=${this.hide}>${body}</dialog>`
      : html`<section part="panel" class="panel" aria-labelledby="h">${body}</section>`;
  }

  private _renderTurn(turn: Turn, i: number) {
    const t = this._strings;
    const view = this._views.get(turn)!;
    const st = turn.state;
    const settled = st != 'answering' && !turn.err;
    return html`<article class="turn ${st}"><p part="question" class="q" dir="auto">${turn.q}</p>${view.renderer.container}${
      st == 'answering' || st == 'done'
        ? _
        : html`<p part=${turn.err ? 'error' : 'note'} class="note">${this._stateText(turn)} ${
            turn.err ? html`<button @click=${() => this._answer(turn)}>${t.retry}</button>` : _
          }</p>`
    }${
      turn.sources.length
        ? html`<button part="sources-toggle" aria-expanded=${!!view.sourcesOpen} aria-controls="s${i}" @click=${() => (
            (view.sourcesOpen = !view.sourcesOpen), this.requestUpdate()
          )}>${fmt(t.sources, turn.sources.length)}</button><ol part="sources" id="s${i}" ?hidden=${!view.sourcesOpen}>${turn.sources.map((s, j) =>
            this._renderSource(turn, s, j),
          )}</ol>`
        : _
    }${settled ? this._renderActions(turn) : _}</article>`;
  }

  /** Copy, the thumbs, and with `feedback` on, the proxy's acknowledgement and the thumbs-down comment field. */
  private _renderActions(turn: Turn) {
    const t = this._strings;
    return html`<div class="acts"><button @click=${() => this._copy(turn.a, turn)}>${this._copied == turn ? t.copied : t.copy}</button>${(
      ['up', 'down'] as const
    ).map(
      (value) =>
        html`<button aria-label=${value == 'up' ? t.helpful : t.unhelpful} aria-pressed=${turn.fb == value} @click=${() => this._saveThread(this._answers.rate(turn, value))}>${
          value == 'up' ? '👍' : '👎'
        }</button>`,
    )}${turn.rated ? html`<span class="note" role="status">${t.thanks}</span>` : _}${
      turn.rated == 'rating' && turn.fb == 'down'
        ? html`<form class="acts" @submit=${(e: SubmitEvent) => this._onComment(e, turn)}><input part="comment" maxlength="1000" aria-label=${t.comment} placeholder=${t.comment}><button>${t.send}</button></form>`
        : _
    }</div>`;
  }

  private _renderSource(turn: Turn, s: Source, j: number) {
    const href = safeUrl(s.url);
    const title = cap(s.title, 300) || cap(s.url, 300) || j + 1;
    const name = cap(s.author?.name, 100);
    const date = sourceDate(s.modified_time);
    return html`<li part="source" tabindex="-1">${
      href
        ? html`<a href=${href} target="_blank" rel="noopener noreferrer" @click=${() =>
            emit(this, 'bot-answer-source-click', { source: s, index: j, question: turn.q })}><bdi>${title}</bdi></a>`
        : html`<bdi>${title}</bdi>`
    }<span class="meta">${s.app_name ? html`<bdi>${cap(s.app_name, 100)}</bdi>` : _}${
      name ? html`<bdi>${name}</bdi>` : _
    }${date ? html`<time datetime=${date.toISOString()}>${this._dateFormat.format(date)}</time>` : _}</span>${
      s.snippet ? html`<p dir="auto">${cap(s.snippet, 500)}</p>` : _
    }</li>`;
  }

  private _onSubmit(e: Event) {
    e.preventDefault();
    const input = this._query<HTMLTextAreaElement>('textarea')!;
    // A cancelled submit keeps the text.
    if (this.ask(input.value)) input.value = '';
  }

  private _onKeydown(e: KeyboardEvent) {
    if (e.key == 'Enter' && !e.shiftKey && !e.isComposing) this._onSubmit(e);
  }

  /** A thumbs-down comment: sent with the rating again; the field keeps the text until the proxy took it. */
  private _onComment(e: SubmitEvent, turn: Turn) {
    e.preventDefault();
    const comment = (e.target as HTMLFormElement).querySelector('input')!.value.trim();
    if (comment) this._saveThread(this._answers.rate(turn, 'down', comment));
  }

  private _onThreadScroll() {
    const thread = this._query('.thread')!;
    this._followEnd = thread.scrollHeight - thread.scrollTop - thread.clientHeight < 40;
  }

  /** Citation links (sanitised HTML, never edited) and code blocks' copy buttons (the renderer's), by delegation. */
  private _onThreadClick(e: Event) {
    const target = e.target as Element;
    const link = target.closest?.<HTMLElement>('.md a.citation');
    const copy = target.closest?.('.md .cc');
    // The button is first in its `pre`, before the `code`.
    if (copy) this._copy(copy.nextSibling!.textContent!, copy);
    if (link) {
      e.preventDefault();
      const i = [...this.renderRoot.querySelectorAll('article')].indexOf(link.closest('article')!);
      this._views.get(this._turns[i])!.sourcesOpen = true;
      this.requestUpdate();
      // Focusing scrolls the entry into view.
      this.updateComplete.then(() => (this._query(`#s${i}`)?.children[+link.dataset.citation! - 1] as HTMLElement | undefined)?.focus());
    }
  }

  private async _copy(text: string, key: unknown) {
    try {
      await navigator.clipboard.writeText(text);
      this._copied = key;
      setTimeout(() => this._copied == key && (this._copied = ''), 2000);
    } catch {
      // Clipboard refused (permissions, insecure context): nothing to announce.
    }
  }
}
