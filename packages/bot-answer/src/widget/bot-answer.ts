import type { HeadersCallback } from './answer-client.js';
import { jsonObject, number, present, presentAndNotFalse, stringList, trueUnlessFalse } from './converters.js';
import { adopt, h, on, text } from './dom.js';
import { emit } from './events.js';
import { loaderStyles } from './loader.styles.js';
import { LOCALE_EVENT, localeStrings } from './locale.js';
import { ReactiveElement, type PropertyDeclaration } from './reactive-element.js';
import { defaults, loadStage, loaded, type Box, type Chat } from './stage.js';
import type { Strings } from './strings.js';
import { forgetThread, savedThread } from './thread.js';

/** The loader's style sheet, made once per page (not when the module is imported: a server has no CSSStyleSheet). */
const styles: { sheet?: CSSStyleSheet } = {};

/**
 * An answer box for any website: asks a bot through the bot-answer proxy and streams its
 * Markdown answer, with citations and sources, into a thread. Each question goes with the last
 * few turns of the thread on screen, so a follow-up is read in their light (`history="off"`:
 * each question alone), and the box says what is sent once the thread has a turn.
 *
 * The element is a small loader. It draws what a visitor sees before asking at once: the floating
 * launcher, or the inline box's heading, suggestions and question field (the box is a small file of its
 * own, beside the loader, fetched at once for inline boxes). The chat (the thread, Markdown, sanitising and
 * the requests: a file beside it too) is fetched and run on intent, once the box has been drawn: a pointer
 * on a control, a finger touching one, focus on one, `show()`, `ask()` or `load()`, or a thread kept with
 * `persist`; on a closed floating launcher, intent brings the box alone, and the chat comes once the dialog
 * is open. Properties, methods and events work from the first moment; methods that need the chat wait for it.
 *
 * @fires bot-answer-submit - A question is about to be sent (cancelable). Detail `{message}`.
 * @fires bot-answer-start - A request started (also on retry). Detail `{message}`.
 * @fires bot-answer-done - An answer is complete. Detail `{answer, answer_found, sources, outcome, requestId}`.
 * @fires bot-answer-error - A request failed. Detail `{code, message}`.
 * @fires bot-answer-feedback - Thumbs up or down on an answer, and again with a thumbs-down comment. Detail `{value, question, answer, requestId, comment}`.
 * @fires bot-answer-source-click - A source title link was followed. Detail `{source, index, question}`.
 * @fires bot-answer-search-result-click - A page found as the visitor typed was followed, by a click or Enter (cancelable: the page is then not opened). Detail `{result, index, query}`.
 * @csspart launcher - The floating mode's open button.
 * @csspart panel - The box (a modal dialog in floating mode).
 * @csspart thread - The conversation (`role="log"`).
 * @csspart question - A turn's question.
 * @csspart answer - A turn's answer.
 * @csspart sources-toggle - A turn's button that shows or hides its sources.
 * @csspart sources - A turn's list of sources.
 * @csspart source - One source.
 * @csspart related - A not-sure answer's related pages (the closest pages, never its sources): a title and a list of links.
 * @csspart suggestion - A suggested question's button (shown while the thread is empty).
 * @csspart input - The question field.
 * @csspart send - The send button.
 * @csspart stop - The stop button, while answering.
 * @csspart status - The polite status line (answering, ready, error).
 * @csspart error - A turn's error message with its Retry button, the configuration message, and the message when the chat could not be loaded.
 * @csspart note - A turn's "stopped" note, or its "no answer found" note when the answer has no text.
 * @csspart hint - Once the thread has a turn: what of the conversation is sent with a question.
 * @csspart comment - The optional comment field after a thumbs-down (with `feedback` on).
 * @csspart search-results - The list of pages found as the visitor types (`role="listbox"`), under the question field.
 * @csspart search-result - One page found: the link to it (`role="option"`), its title and its snippet with the matched words in `<mark>`.
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
export class BotAnswer extends ReactiveElement {
  /** The public properties, their attributes and how those read: one list for the loader and the chat. */
  static override properties: Record<string, PropertyDeclaration> = {
    botId: {},
    endpoint: {},
    inlineSources: { converter: trueUnlessFalse },
    stream: { converter: trueUnlessFalse },
    mode: { reflect: true },
    theme: { reflect: true },
    placeholder: {},
    heading: {},
    suggestions: { converter: stringList },
    images: { converter: presentAndNotFalse },
    persist: { converter: presentAndNotFalse },
    timeout: { converter: number },
    open: { converter: present, reflect: true },
    lang: { reflect: true },
    strings: { converter: jsonObject },
    credentials: {},
    getHeaders: { attribute: false },
    feedback: { converter: presentAndNotFalse },
    feedbackEndpoint: {},
    history: {},
    search: {},
    searchEndpoint: {},
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
  declare lang: string;
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
  history?: string;
  /**
   * `"off"`: no search as you type. Otherwise, from the second character typed, the pages matching the text
   * are listed under the question field (asked of `search-endpoint`).
   */
  search?: string;
  /** Where the pages matching the typed text are asked for; default: `search` beside `endpoint` (`/api/answer` → `/api/search`). */
  searchEndpoint?: string;

  /** The box around the thread, once its file is here. */
  private _box?: Box;
  /** The chat, once its file is here. */
  private _chat?: Chat;
  /** A question asked before the chat was here: sent when it arrives. */
  private _queued?: string;
  /** Whether the last attempt to load the box or the chat failed (the box says so and offers Retry). */
  private _failed = false;
  /** The box's file on its way for an inline box (its first full render waits for it). */
  private _drawing?: Promise<unknown>;
  private readonly _launcher = on(h('button', { part: 'launcher', 'aria-haspopup': 'dialog' }), 'click', () => this.show());
  private readonly _retry = on(h('button'), 'click', () => this.load());
  /** The message that the assistant could not be loaded, with Retry: in the box, or in its place when the box is missing too. */
  private readonly _note = h('p', { part: 'error', class: 'note', role: 'alert' }, '', this._retry);

  constructor() {
    super();
    // The shadow root comes with the first render (`update()`); these listen on the element, where the events
    // from inside it arrive (`composedPath()` names their target).
    // Intent: what comes before a visitor asks (a pointer on a control, a finger's touch, focus). Loading starts
    // then. On a closed launcher, the box alone: the chat's start-up (tens of milliseconds, one task, hundreds at
    // 4x CPU) comes once the dialog is open and painted (`show()` loads it), so a press never waits for it.
    for (const type of ['pointerover', 'pointerdown', 'focusin'])
      on(this, type, (e) => (e.composedPath()[0] as Element).closest('button,textarea') && (this.open || this.mode != 'floating' ? this.load() : this._need('box').catch(() => {})));
  }

  /**
   * Resolves when the element has rendered every change made so far (to false when another update was
   * requested meanwhile); for an inline box, once its box is drawn (or could not be loaded).
   */
  override get updateComplete(): Promise<boolean> {
    return super.updateComplete.then((done) => (this._drawing ? this._drawing.then(() => this.updateComplete) : done));
  }

  /** `idle`, or the state of the latest turn: `answering`, `done`, `no-answer`, `stopped`, `error`. */
  get state(): string {
    return this._chat?.state ?? (this._queued ? 'answering' : 'idle');
  }

  /**
   * Sends `message` as a new question (aborting any running one); works open or closed, in every mode, and
   * before the chat has loaded (it is sent once it has).
   * Returns false when nothing was sent: a blank message, no `bot-id`, or `bot-answer-submit` cancelled.
   */
  ask(message: string): boolean {
    const q = message.trim();
    const ok = !!(q && this.botId) && emit(this, 'bot-answer-submit', { message: q });
    if (ok) {
      if (this._chat) this._chat.send(q);
      else {
        this._queued = q;
        this.load();
        this.requestUpdate();
      }
    }
    return ok;
  }

  /** Stops the running answer, keeping what arrived (marked as stopped). */
  stop() {
    // A question is queued only while the chat is not here.
    this._queued = undefined;
    this._chat?.stop();
    this.requestUpdate();
  }

  /** Stops any running answer and empties the thread (and its saved copy). */
  clear() {
    if (this._chat) this._chat.clear();
    else this.stop(), forgetThread(this.botId);
  }

  /** Opens the floating dialog (inline: focuses the question field). */
  async show() {
    this.open = true;
    this.load();
    // The box opens as soon as its file is here, before the chat if that takes longer; without it, it stays
    // closed (the launcher says why), rather than opening later by itself.
    await loadStage('box').catch(() => (this.open = false));
    await this.updateComplete;
    this._box?.input.focus();
  }

  /** Closes the floating dialog (which returns focus where it was: the launcher, when it opened it). */
  hide() {
    this.open = false;
  }

  /**
   * Loads the box and the chat now, if they are not here yet. The element loads them by itself on the
   * visitor's first sign of intent (a closed floating launcher: the chat once the dialog opens); call this to
   * load them earlier. Resolves to true once they are ready,
   * false when they could not be loaded (the box then says so and offers Retry; calling again tries again).
   */
  async load(): Promise<boolean> {
    this._failed = false;
    try {
      // The box first, and the chat (its long evaluation) once the box has been drawn: a box opening is painted
      // with its field focused before the chat runs, and the visitor types meanwhile (the box keeps the text,
      // caret and focus). A page that draws no frame (a hidden tab, a hidden frame) goes on after a timer.
      await this._need('box');
      await new Promise((r) => (requestAnimationFrame(() => setTimeout(r)), setTimeout(r, document.hidden ? 0 : 250)));
      await this._need('chat');
      await this.updateComplete;
      return true;
    } catch {
      this._failed = true;
      this.requestUpdate();
      return false;
    }
  }

  /** Loads `stage` (once per page) and renders with it. */
  private async _need(stage: 'box' | 'chat') {
    if (!loaded[stage]) {
      await loadStage(stage);
      this.requestUpdate();
    }
  }

  /** A translation module loaded after the element rendered: its strings may apply. */
  private _onLocale = () => this.requestUpdate();

  override connectedCallback() {
    super.connectedCallback();
    addEventListener(LOCALE_EVENT, this._onLocale);
  }

  disconnectedCallback() {
    removeEventListener(LOCALE_EVENT, this._onLocale);
    // Leaving the page aborts a running answer (its turn ends as stopped).
    this._chat?.stop();
  }

  protected override update() {
    // The shadow root and the loader's style sheet, made by the first render rather than the constructor: the
    // define upgrades the elements already in the page in the task that evaluates the script, and the first render
    // comes in a task of its own (`ReactiveElement`), so the two do not make one long task.
    const root = this.shadowRoot ?? adopt(this.attachShadow({ mode: 'open' }), loaderStyles, styles);
    // Its own `lang`, or the nearest ancestor's (the document's, when the element sits in another's shadow root).
    const lang = (this.closest('[lang]') as HTMLElement | null)?.lang || document.documentElement.lang;
    // The strings in use: the defaults of the files here, then the translation for the language, then `strings`.
    // Cheap enough for every update, and always current (a translation may have loaded since).
    const t: Strings = { ...defaults, ...localeStrings(lang), ...this.strings };
    const { box, chat } = loaded;
    // The box draws the inline panel, and the configuration message when there is no bot id.
    const boxed = this.mode != 'floating' || !this.botId;
    if (box) this._box ??= new box.Shell(this, root);
    else if (boxed && !this._failed)
      this._drawing ??= this._need('box')
        .catch(() => ((this._failed = true), this.requestUpdate()))
        .finally(() => (this._drawing = undefined));
    if (this.botId) {
      if (chat && !this._chat) {
        this._chat = chat.attach(this);
        if (this._queued) this._chat.send(this._queued);
        this._queued = undefined;
      }
      // A thread kept for this tab's session is shown on load: fetch the chat that shows it.
      if (!this._chat && !this._failed && this.persist && savedThread(this.botId)) this.load();
    }
    const note = this._failed ? this._note : undefined;
    // Where the box could not be loaded either, the launcher says so itself (and retries when clicked).
    text(this._launcher, note && !box ? `${t.loadFailed} ${t.retry}` : t.open);
    (this._note.firstChild as Text).data = t.loadFailed + ' ';
    text(this._retry, t.retry);
    const panel = this._box?.render(t, this._chat?.view(t), note);
    const nodes = [!boxed && this._launcher, panel || (boxed && note)].filter((n) => n) as HTMLElement[];
    // Each node put in its place, and one already there left alone: moving the launcher as the box arrives would
    // take its focus away, and a press on it would end without a click.
    nodes.forEach((n, i) => n != root.childNodes[i] && root.insertBefore(n, root.childNodes[i] ?? null));
    while (root.childNodes.length > nodes.length) root.lastChild!.remove();
    if (panel) {
      this._box!.updated();
      if (this.botId) this._chat?.render(this._box!, t, lang);
    }
  }
}
