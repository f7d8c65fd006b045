import { adopt, h, on, text } from '../dom.js';
import type { Box, ShellView, StageHost } from '../stage.js';
import { fmt, type Strings } from '../strings.js';
import { HISTORY_TURNS } from '../thread.js';
import { boxStyles } from './box.styles.js';

/** The box's style sheet, made once per page. */
const styles: { sheet?: CSSStyleSheet } = {};

/** Sets an attribute only when it differs. */
function attr(e: Element, name: string, value: string) {
  if (e.getAttribute(name) != value) e.setAttribute(name, value);
}

/** The focused element, looking into shadow roots (the page's body when nothing has focus). */
function deepFocus(): Element | null {
  let e = document.activeElement;
  while (e?.shadowRoot?.activeElement) e = e.shadowRoot.activeElement;
  return e;
}

/** The control opening the dialog: the one with focus, else (a tap that focused nothing) the element's launcher. */
function opener(host: StageHost): HTMLElement | undefined {
  const e = deepFocus();
  return e instanceof HTMLElement && e != document.body ? e : (host.shadowRoot!.querySelector<HTMLElement>('[part=launcher]') ?? undefined);
}

/** Puts `nodes` right after `anchor` in place of `current` (the nodes put there last time), and returns them. */
function place(current: ChildNode[], nodes: ChildNode[], anchor: ChildNode): ChildNode[] {
  if (current.length != nodes.length || current.some((n, i) => n != nodes[i])) {
    for (const n of current) n.remove();
    anchor.after(...nodes);
  }
  return nodes;
}

/**
 * The box around the thread: the inline panel, or the floating mode's modal dialog, with its heading,
 * suggestions, question field, send and stop buttons and status line. It is drawn before the chat is here
 * and keeps the same nodes afterwards (the chat renders only into `thread`), so nothing moves, and a
 * question being typed keeps its text, caret and focus, when the chat arrives.
 */
export class Shell implements Box {
  thread!: HTMLElement;
  input!: HTMLTextAreaElement;

  private _panel!: HTMLElement;
  /** The message shown instead of the box while no bot id is set. */
  private readonly _config = h('p', { part: 'error' });
  /** The mode the panel was built for. */
  private _mode?: string;
  private _heading!: HTMLElement;
  private _startOver!: HTMLButtonElement;
  private _close?: HTMLButtonElement;
  private _hint!: HTMLElement;
  private _label!: HTMLElement;
  private _list!: HTMLElement;
  private _stop!: HTMLButtonElement;
  private _send!: HTMLButtonElement;
  private _status!: HTMLElement;
  /** The optional nodes now placed after the title, after the thread, and after the question field. */
  private _afterHeading: ChildNode[] = [];
  private _afterThread: ChildNode[] = [];
  private _afterInput: ChildNode[] = [];
  private _suggestions?: string;
  /** Whether the question field had focus when the panel was rebuilt (the new one gets it once in the page). */
  private _refocus = false;
  /** The control that had focus when the dialog opened (else the launcher), focused again when it closes. */
  private _opener?: HTMLElement;

  constructor(
    private readonly _host: StageHost,
    root: ShadowRoot,
  ) {
    adopt(root, boxStyles, styles);
  }

  render(t: Strings, view: ShellView | undefined, note?: HTMLElement): HTMLElement {
    const host = this._host;
    // Before the chat is here: no turn yet, and a question asked meanwhile is shown as being answered.
    view ??= { turns: false, state: host.state, status: host.state == 'answering' ? t.answering : '' };
    if (!host.botId) {
      text(this._config, t.config);
      return this._config;
    }
    if (host.mode != this._mode) this._build();
    text(this._heading, host.heading || t.heading);
    attr(this.thread, 'aria-label', t.thread);
    attr(this.input, 'aria-label', t.input);
    attr(this.input, 'placeholder', host.placeholder || t.placeholder);
    text(this._send, t.send);
    text(this._stop, t.stop);
    text(this._startOver, t.startOver);
    text(this._hint, host.history == 'off' ? t.independent : fmt(t.followUps, HISTORY_TURNS));
    text(this._label, t.suggestions);
    if (this._close) attr(this._close, 'aria-label', t.close);
    const suggestions = JSON.stringify(host.suggestions);
    if (suggestions != this._suggestions) {
      this._suggestions = suggestions;
      this._list.replaceChildren(...host.suggestions.map((q) => h('li', {}, on(h('button', { part: 'suggestion' }, q), 'click', () => host.ask(q)))));
    }
    this._afterHeading = place(this._afterHeading, view.turns ? [this._startOver] : [], this._heading);
    this._afterThread = place(
      this._afterThread,
      note ? [note] : view.turns ? [this._hint] : host.suggestions.length ? [this._label, this._list] : [],
      this.thread,
    );
    this._afterInput = place(this._afterInput, view.state == 'answering' ? [this._stop] : [], this.input);
    attr(this._status, 'class', 'status ' + view.state);
    text(this._status, view.status);
    return this._panel;
  }

  updated() {
    const dialog = this._panel;
    if (!this._host.botId) return;
    if (dialog instanceof HTMLDialogElement && this._host.open != dialog.open) {
      if (this._host.open) {
        this._opener = opener(this._host);
        dialog.showModal();
      } else dialog.close();
    }
    if (this._refocus) this.input.focus();
    this._refocus = false;
  }

  /** Builds the panel for the element's mode: on the first render, and when the mode changes. */
  private _build() {
    const host = this._host;
    const floating = (this._mode = host.mode) == 'floating';
    this._refocus = !!this.input && (host.shadowRoot!.activeElement == this.input);
    this._afterHeading = this._afterThread = this._afterInput = [];
    this._heading = h('h2', { id: 'h' });
    this._startOver = on(h('button'), 'click', () => host.clear());
    this._close = floating ? on(h('button', {}, '\u2715'), 'click', () => host.hide()) : undefined;
    this.thread = h('div', { part: 'thread', class: 'thread', role: 'log', tabindex: '0' });
    this._hint = h('p', { part: 'hint', class: 'hint' });
    this._label = h('p', { class: 'sg' });
    this._list = h('ul', { class: 'sg' });
    this._suggestions = undefined;
    // In the dialog, `autofocus`: opening it focuses the field at once, rather than the close button first.
    this.input = on(h('textarea', { part: 'input', rows: '2', maxlength: '4000', ...(floating && { autofocus: '' }) }), 'keydown', (e) => {
      const k = e as KeyboardEvent;
      if (k.key == 'Enter' && !k.shiftKey && !k.isComposing) this._submit(e);
    });
    this._stop = on(h('button', { type: 'button', part: 'stop' }), 'click', () => host.stop());
    this._send = h('button', { part: 'send' });
    this._status = h('p', { part: 'status', role: 'status' });
    // Not a <header>: in the floating dialog it would add a second banner landmark to the page.
    const hd = h('div', { class: 'hd' }, this._heading, ...(this._close ? [this._close] : []));
    const form = on(h('form', {}, this.input, this._send), 'submit', (e) => this._submit(e));
    const panel = { part: 'panel', class: 'panel', 'aria-labelledby': 'h' };
    this._panel = floating
      ? on(h('dialog', panel, hd, this.thread, form, this._status), 'close', () => {
          host.hide();
          // The browser returns focus to what had it at opening; where nothing had (a tap that focuses nothing,
          // or a launcher redrawn while the box arrived), focus stays in the closed dialog or falls to the body.
          const focused = deepFocus();
          if (!focused || focused == document.body || this._panel.contains(focused)) this._opener?.focus();
        })
      : h('section', panel, hd, this.thread, form, this._status);
  }

  /** Sends the field's question; a cancelled or refused one keeps its text. */
  private _submit(e: Event) {
    e.preventDefault();
    if (this._host.ask(this.input.value)) this.input.value = '';
  }
}
