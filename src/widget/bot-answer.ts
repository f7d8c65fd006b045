import { LitElement, html, nothing as _, type PropertyValues } from 'lit';
import type { Source } from '../protocol/types.js';
import { fetchAnswer, type AnswerError } from './answer-client.js';
import { styles } from './bot-answer.styles.js';
import { emit } from './events.js';
import { StreamRenderer } from './markdown/stream-renderer.js';
import { cap, initials, safeUrl, sourceDate } from './source-format.js';
import { STRINGS, errorMessage, fmt, type Strings } from './strings.js';
import { loadThread, saveThread, type Turn } from './thread.js';

/** `"false"` is false, anything else (absent included) true. */
const on = { fromAttribute: (v: string | null) => v != 'false' };
/** Present and not `"false"`. */
const flag = { fromAttribute: (v: string | null) => v != null && v != 'false' };
/** A JSON array of strings, or strings separated by `|`. */
const list = {
  fromAttribute(v: string | null): string[] {
    let a;
    try {
      a = JSON.parse(v!);
    } catch {
      // Not JSON: the `|` form.
    }
    return (Array.isArray(a) ? a : (v ?? '').split('|')).filter((s) => typeof s == 'string' && s.trim()).map((s) => s.trim());
  },
};

/** A turn's view: its answer container (owned by the renderer) and whether its sources are shown. */
interface View {
  el: HTMLElement;
  r: StreamRenderer;
  open?: boolean;
}

/**
 * An answer box for any website: asks a bot through the bot-answer proxy and streams its
 * Markdown answer, with citations and sources, into a conversation thread.
 *
 * @fires bot-answer-submit - A question is about to be sent (cancelable). Detail `{message}`.
 * @fires bot-answer-start - A request started (also on retry). Detail `{message}`.
 * @fires bot-answer-done - An answer is complete. Detail `{answer, answer_found, sources}`.
 * @fires bot-answer-error - A request failed. Detail `{code, message}`.
 * @fires bot-answer-feedback - Thumbs up or down on an answer. Detail `{value, question, answer}`.
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
 * @cssprop --bot-answer-bg - Background colour.
 * @cssprop --bot-answer-fg - Text colour.
 * @cssprop --bot-answer-muted - Secondary text colour.
 * @cssprop --bot-answer-accent - Buttons, links and focus ring.
 * @cssprop --bot-answer-accent-fg - Text on the accent colour.
 * @cssprop --bot-answer-border - Borders.
 * @cssprop --bot-answer-subtle - Background of questions, code and avatars.
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
    inlineSources: { attribute: 'inline-sources', converter: on },
    stream: { converter: on },
    mode: { reflect: true },
    theme: { reflect: true },
    placeholder: {},
    heading: {},
    suggestions: { converter: list },
    images: { converter: flag },
    persist: { converter: flag },
    shortcut: {},
    timeout: { type: Number },
    open: { type: Boolean, reflect: true },
    lang: { reflect: true },
    strings: { attribute: false },
    _turns: { state: true },
    _copied: { state: true },
    _cc: { state: true },
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
  /** A key that, with Ctrl or ⌘, opens the box from anywhere on the page (e.g. `k`). */
  shortcut = '';
  /** Milliseconds to wait for the next byte of an answer before failing with `timeout`. */
  timeout = 60000;
  /** Whether the floating dialog is open. */
  open = false;
  /** Language of the box (also used for dates). */
  override lang!: string;
  /** Overrides for any of the visible strings (see `STRINGS`). */
  strings: Partial<Strings> = {};

  private _turns: Turn[] = [];
  /** Which copy button says "Copied": `a<turn>` or `c` (code). */
  private _copied = '';
  /** The turn whose code block is under the pointer or focus (its copy button shows), or -1. */
  private _cc = -1;

  private _t = STRINGS;
  /** Aborts the running request (one at a time: a new question, or disconnecting, aborts it). */
  private _ac?: AbortController;
  private _views = new WeakMap<Turn, View>();
  private _loaded = false;
  private _stick = true;
  /** The code block under the pointer or focus, as its index among all answers' code blocks. */
  private _pi = 0;
  /** The date formatter and the `lang` it was made for. */
  private _df?: [string, Intl.DateTimeFormat];

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
      // `_run` fills in the rest.
      const t = { q } as Turn;
      this._turns = [...this._turns, t];
      this._run(t);
    }
    return ok;
  }

  /** Stops the running answer, keeping what arrived (marked as stopped). */
  stop() {
    this._ac?.abort();
  }

  /** Stops any running answer and empties the thread (and its saved copy). */
  clear() {
    this.stop();
    this._turns = [];
    this._cc = -1;
    this._save();
  }

  /** Opens the floating dialog (inline: focuses the question field). */
  async show() {
    this.open = true;
    await this.updateComplete;
    this._q('textarea')?.focus();
  }

  /** Closes the floating dialog (which returns focus where it was: the launcher, when it opened it). */
  hide() {
    this.open = false;
  }

  /** The first match of `s` in the shadow root. */
  private _q = <E extends HTMLElement>(s: string) => this.renderRoot.querySelector<E>(s);

  private _key = (e: KeyboardEvent) => {
    if (this.shortcut && (e.ctrlKey || e.metaKey) && e.key.toLowerCase() == this.shortcut.toLowerCase()) {
      e.preventDefault();
      this.show();
    }
  };

  override connectedCallback() {
    super.connectedCallback();
    document.addEventListener('keydown', this._key);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    document.removeEventListener('keydown', this._key);
    this.stop();
  }

  private async _run(t: Turn) {
    this.stop();
    const { signal } = (this._ac = new AbortController());
    Object.assign(t, { a: '', sources: [], state: 'answering', err: 0, fb: 0 });
    const v = this._view(t);
    v.r.reset();
    v.open = false;
    this._stick = true;
    this.requestUpdate();
    this._save();
    emit(this, 'bot-answer-start', { message: t.q });
    try {
      const found = await fetchAnswer(
        this.endpoint,
        { message: t.q, bot_id: this.botId, inline_sources: this.inlineSources, stream: this.stream },
        {
          delta: (s) => v.r.append(s),
          replace: (s) => v.r.replace(s),
          sources: (s) => {
            t.sources = Array.isArray(s) ? s.filter((x) => x && typeof x == 'object') : [];
            this.requestUpdate();
          },
        },
        signal,
        this.timeout,
      );
      t.state = found ? 'done' : 'no-answer';
      emit(this, 'bot-answer-done', { answer: v.r.text, answer_found: found, sources: t.sources });
    } catch (e) {
      const { code, message, retry_after } = e as AnswerError;
      if (code == 'aborted') t.state = 'stopped';
      else {
        t.state = 'error';
        t.err = { code, message, wait: retry_after };
        emit(this, 'bot-answer-error', { code, message });
      }
    }
    t.a = v.r.text;
    v.r.finish();
    this.requestUpdate();
    this._save();
  }

  private _view(t: Turn): View {
    let v = this._views.get(t);
    if (!v) {
      const el = document.createElement('div');
      el.part.add('answer');
      el.className = 'md';
      el.dir = 'auto';
      const r = new StreamRenderer(el, { images: this.images, onUpdate: () => this._follow() });
      r.replace(t.a);
      r.finish();
      this._views.set(t, (v = { el, r }));
    }
    return v;
  }

  private _save() {
    if (this.persist) saveThread(this.botId, this._turns);
  }

  private _follow() {
    const th = this._q('.thread');
    if (th && this._stick) th.scrollTop = th.scrollHeight;
  }

  /** The visible and announced text for a turn's state. */
  private _say(t: Turn) {
    const s = this._t;
    return t.err ? errorMessage(s, t.err.code, t.err.wait) : s[t.state == 'no-answer' ? 'noAnswer' : t.state];
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('strings')) this._t = { ...STRINGS, ...this.strings };
    if (!this._loaded && this.persist && this.botId) {
      this._loaded = true;
      this._turns = loadThread(this.botId);
    }
  }

  override updated() {
    const d = this._q<HTMLDialogElement>('dialog');
    if (d && this.open != d.open) this.open ? d.showModal() : d.close();
    this._follow();
    const b = this._q('.cc:not([hidden])');
    // Set through CSSOM, which a strict style-src allows (a style attribute would not be).
    if (b) b.style.top = (this._code() as HTMLElement)?.offsetTop + 4 + 'px';
  }

  override render() {
    const t = this._t;
    const last = this._turns.at(-1);
    if (!this.botId) return html`<p part="error">${t.config}</p>`;
    // Not a <header>: in the floating dialog it would add a second banner landmark to the page.
    const body = html`<div class="hd"><h2 id="h">${this.heading || t.heading}</h2>${
      last ? html`<button @click=${this.clear}>${t.startOver}</button>` : _
    }${
      this.mode == 'floating' ? html`<button aria-label=${t.close} @click=${this.hide}>&#x2715;</button>` : _
    }</div><div part="thread" class="thread" role="log" tabindex="0" aria-label=${t.thread} @click=${this._click} @pointerover=${this._hover} @focusin=${this._hover} @scroll=${this._scroll}>${this._turns.map(
      (turn, i) => this._renderTurn(turn, i),
    )}</div>${
      last || !this.suggestions.length
        ? _
        : html`<p class="sg">${t.suggestions}</p><ul class="sg">${this.suggestions.map(
            (q) => html`<li><button part="suggestion" @click=${() => this.ask(q)}>${q}</button>`,
          )}</ul>`
    }<form @submit=${this._submit}><textarea part="input" rows="2" maxlength="4000" aria-label=${t.input} placeholder=${this.placeholder || t.placeholder} @keydown=${this._enter}></textarea>${
      this.state == 'answering' ? html`<button type="button" part="stop" @click=${this.stop}>${t.stop}</button>` : _
    }<button part="send">${t.send}</button></form><p part="status" class="status ${this.state}" role="status">${last ? this._say(last) : ''}</p>`;
    return this.mode == 'floating'
      ? html`<button part="launcher" class="launcher" aria-haspopup="dialog" @click=${this.show}>${t.open}</button><dialog part="panel" class="panel" aria-labelledby="h" @close=${this.hide}>${body}</dialog>`
      : html`<section part="panel" class="panel" aria-labelledby="h">${body}</section>`;
  }

  private _renderTurn(turn: Turn, i: number) {
    const t = this._t;
    const v = this._view(turn);
    const st = turn.state;
    const ok = st != 'answering' && !turn.err;
    return html`<article class="turn ${st}"><p part="question" class="q" dir="auto">${turn.q}</p>${v.el}<button class="cc" ?hidden=${this._cc != i} @click=${() => this._copy(this._code()?.textContent ?? '', 'c')}>${
      this._copied == 'c' ? t.copied : t.copyCode
    }</button>${
      st == 'answering' || st == 'done'
        ? _
        : html`<p part=${turn.err ? 'error' : 'note'} class="note">${this._say(turn)} ${
            turn.err ? html`<button @click=${() => this._run(turn)}>${t.retry}</button>` : _
          }</p>`
    }${
      turn.sources.length
        ? html`<button part="sources-toggle" aria-expanded=${!!v.open} aria-controls="s${i}" @click=${() => (
            (v.open = !v.open), this.requestUpdate()
          )}>${fmt(t.sources, turn.sources.length)}</button><ol part="sources" id="s${i}" ?hidden=${!v.open}>${turn.sources.map((s, j) =>
            this._renderSource(turn, s, j),
          )}</ol>`
        : _
    }${
      ok
        ? html`<div class="acts"><button @click=${() => this._copy(turn.a, 'a' + i)}>${this._copied == 'a' + i ? t.copied : t.copy}</button>${(
            ['up', 'down'] as const
          ).map(
            (f) =>
              html`<button aria-label=${f == 'up' ? t.helpful : t.unhelpful} aria-pressed=${turn.fb == f} @click=${() => {
                turn.fb = f;
                this.requestUpdate();
                this._save();
                emit(this, 'bot-answer-feedback', { value: f, question: turn.q, answer: turn.a });
              }}>${f == 'up' ? '👍' : '👎'}</button>`,
          )}</div>`
        : _
    }</article>`;
  }

  private _renderSource(turn: Turn, s: Source, j: number) {
    const href = safeUrl(s.url);
    const title = cap(s.title, 300) || cap(s.url, 300) || j + 1;
    const name = cap(s.author?.name, 100);
    const photo = safeUrl(s.author?.photo, /^https:\/\//i);
    const date = sourceDate(s.modified_time);
    return html`<li part="source" tabindex="-1">${
      href
        ? html`<a href=${href} target="_blank" rel="noopener noreferrer" @click=${() =>
            emit(this, 'bot-answer-source-click', { source: s, index: j, question: turn.q })}><bdi>${title}</bdi></a>`
        : html`<bdi>${title}</bdi>`
    }<span class="meta">${s.app_name ? html`<bdi>${cap(s.app_name, 100)}</bdi>` : _}${
      name
        ? html`<span><span class="av" aria-hidden="true">${initials(name)}${
            photo
              ? html`<img src=${photo} alt="" width="20" height="20" loading="lazy" referrerpolicy="no-referrer" @error=${(e: Event) =>
                  ((e.target as HTMLElement).hidden = true)}>`
              : _
          }</span><bdi>${name}</bdi></span>`
        : _
    }${date ? html`<time datetime=${date.toISOString()}>${this._date(date)}</time>` : _}</span>${
      s.snippet ? html`<p dir="auto">${cap(s.snippet, 500)}</p>` : _
    }</li>`;
  }

  /** A date in the box's language, by one formatter per language (toLocaleDateString with options makes a new one per call). */
  private _date(d: Date) {
    const l = this.lang || '';
    if (this._df?.[0] !== l) {
      let f;
      try {
        f = new Intl.DateTimeFormat(l || undefined, { dateStyle: 'medium' });
      } catch {
        // An invalid lang tag: the browser's own locale.
        f = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
      }
      this._df = [l, f];
    }
    return this._df[1].format(d);
  }

  private _submit(e: Event) {
    e.preventDefault();
    const input = this._q<HTMLTextAreaElement>('textarea')!;
    // A cancelled submit keeps the text.
    if (this.ask(input.value)) input.value = '';
  }

  private _enter(e: KeyboardEvent) {
    if (e.key == 'Enter' && !e.shiftKey && !e.isComposing) this._submit(e);
  }

  private _scroll() {
    const th = this._q('.thread')!;
    this._stick = th.scrollHeight - th.scrollTop - th.clientHeight < 40;
  }

  /** Citation links come from sanitised HTML: handled here by delegation, never edited. */
  private _click(e: Event) {
    const a = (e.target as Element).closest?.<HTMLElement>('.md a.citation');
    if (a) {
      e.preventDefault();
      const i = this._turnOf(a);
      this._views.get(this._turns[i])!.open = true;
      this.requestUpdate();
      // Focusing scrolls the entry into view.
      this.updateComplete.then(() => (this._q(`#s${i}`)?.children[+a.dataset.citation! - 1] as HTMLElement | undefined)?.focus());
    }
  }

  /**
   * A copy button floats over the code block under the pointer or holding focus. It follows its
   * turn's answer in the tab order, and stays while the pointer or focus remains in that turn.
   */
  private _hover(e: Event) {
    const el = e.target as Element;
    const pre = el.closest?.('.md pre');
    const i = this._turnOf(el);
    if (pre) {
      this._pi = [...this._pres()].indexOf(pre as HTMLPreElement);
      this._cc = i;
      // `_pi` is not reactive: another block needs the button moved.
      this.requestUpdate();
    } else if (i != this._cc) this._cc = -1;
  }

  /** The index of the turn holding `el`, or -1. */
  private _turnOf(el: Element) {
    return [...this.renderRoot.querySelectorAll('article')].indexOf(el.closest?.('article')!);
  }

  /**
   * The code block whose copy button shows, looked up again each time: the renderer replaces a live
   * block at every update until it is committed.
   */
  private _code() {
    return this._pres()[this._pi];
  }

  /** Every code block of every answer, in order. */
  private _pres() {
    return this.renderRoot.querySelectorAll('.md pre');
  }

  private async _copy(text: string, key: string) {
    try {
      await navigator.clipboard.writeText(text);
      this._copied = key;
      setTimeout(() => this._copied == key && (this._copied = ''), 2000);
    } catch {
      // Clipboard refused (permissions, insecure context): nothing to announce.
    }
  }
}
