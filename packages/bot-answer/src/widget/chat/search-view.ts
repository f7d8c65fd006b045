import { html, nothing, render } from 'lit/html.js';
import { emit } from '../events.js';
import { fetchSearch, highlightPieces, searchEndpoint, type SearchResult } from '../search-client.js';
import type { Box, Search, StageHost } from '../stage.js';
import { fmt, type Strings } from '../strings.js';

/** Characters typed before the first search. */
const MIN_CHARS = 2;
/**
 * Milliseconds without a keystroke before searching: shorter than the gap between a typist's keys (so hits
 * follow the text), longer than a fast burst's (so a burst sends one search, not one per key).
 */
const DEBOUNCE = 60;
/** The search endpoints that said they have no search: not asked again on this page. */
const unavailable = new Set<string>();

/**
 * Search as you type for one `<bot-answer>`: the box's question field becomes a WAI-ARIA combobox (list
 * autocomplete) whose listbox, under the form, holds the pages matching what is typed, each option the link
 * to its page. The focus stays in the field; ↓/↑ move the active option, Enter follows it (Ctrl/⌘+Enter in a
 * new tab) and, with none active, asks the question as before; Esc closes the list. One search at a time:
 * a new text aborts the previous request, and a response is shown only while its text is still the field's.
 */
export class SearchView implements Search {
  /** The live region announcing the count, and the listbox (lit-html renders into it). */
  private readonly _root = Object.assign(document.createElement('div'), { className: 'search' });
  private _input?: HTMLTextAreaElement;
  private _t!: Strings;
  /** The hits shown, and the text they were found for. */
  private _hits: SearchResult[] = [];
  private _query = '';
  /** The active option's index, -1 for none. */
  private _active = -1;
  private _open = false;
  private _timer = 0;
  private _running?: AbortController;

  constructor(private readonly _host: StageHost) {
    // A question sent (by the field, a suggestion or `ask()`) closes the list and cancels what was pending.
    _host.addEventListener('bot-answer-submit', () => this._reset());
  }

  render(box: Box, t: Strings) {
    this._t = t;
    if (box.input != this._input) this._attach(box.input);
    const input = this._input!;
    const on = this._enabled();
    if (!on) this._reset();
    // A combobox from the second character on (a shorter text, or search off: a plain text field). ARIA in HTML
    // allows no role on a <textarea>, and the field is one, since questions may run to several lines: the role
    // is there only while there is something to list.
    const combo = on && input.value.trim().length >= MIN_CHARS;
    const aria: Record<string, string | null> = {
      role: combo ? 'combobox' : null,
      'aria-autocomplete': combo ? 'list' : null,
      'aria-controls': combo ? 'sr' : null,
      'aria-expanded': combo ? '' + this._shown() : null,
      'aria-activedescendant': combo && this._shown() && this._active >= 0 ? 'sr' + this._active : null,
    };
    for (const [name, value] of Object.entries(aria))
      if (input.getAttribute(name) != value) value == null ? input.removeAttribute(name) : input.setAttribute(name, value);
    if (!on) return this._root.remove();
    if (this._root.previousSibling != input.form) input.form!.after(this._root);
    const n = this._hits.length;
    render(
      html`<p role="status" class="vh">${n ? fmt(n == 1 ? t.searchFoundOne : t.searchFound, n) : ''}</p><div
          role="listbox"
          id="sr"
          part="search-results"
          aria-label=${t.searchResults}
          ?hidden=${!this._shown()}
        >${this._hits.map((hit, i) => this._renderHit(hit, i))}</div>`,
      this._root,
    );
  }

  private _renderHit(hit: SearchResult, i: number) {
    return html`<a
      role="option"
      id=${'sr' + i}
      part="search-result"
      href=${hit.url}
      tabindex="-1"
      aria-selected=${i == this._active}
      @click=${(e: MouseEvent) => this._follow(i) || e.preventDefault()}
      ><bdi class="rt">${hit.title}</bdi>${
        hit.snippet ? html`<span class="rs" dir="auto">${highlightPieces(hit.snippet, hit.highlights).map(([s, marked]) => (marked ? html`<mark>${s}</mark>` : s))}</span>` : nothing
      }</a
    >`;
  }

  /** Whether searching is on: a bot id, not `search="off"`, and an endpoint that has search. */
  private _enabled() {
    const host = this._host;
    return !!host.botId && host.search != 'off' && !unavailable.has(this._url());
  }

  private _url() {
    return this._host.searchEndpoint || searchEndpoint(this._host.endpoint);
  }

  /** Whether the list is shown: open, with hits. */
  private _shown() {
    return this._open && this._hits.length > 0;
  }

  /** Listens to a question field (the box makes a new one when the mode changes). */
  private _attach(input: HTMLTextAreaElement) {
    this._input = input;
    this._reset();
    input.addEventListener('input', () => this._onInput());
    // On the form, in the capture phase: before the field's own Enter (which asks the question) sees the key.
    input.form!.addEventListener('keydown', (e) => e.target == input && this._onKey(e), true);
    input.addEventListener('focusout', (e) => {
      // Focus going to an option (a pointer pressing it) keeps the list, so the click follows the link.
      if (!this._root.contains(e.relatedTarget as Node | null)) this._close();
    });
    if (input.value) this._onInput();
  }

  private _onInput() {
    const q = this._input!.value.trim();
    clearTimeout(this._timer);
    this._active = -1;
    // The field's role follows its text.
    this._host.requestUpdate();
    if (q.length < MIN_CHARS || !this._enabled()) return this._reset();
    this._timer = setTimeout(() => this._search(q), DEBOUNCE) as unknown as number;
  }

  private async _search(q: string) {
    this._running?.abort();
    // Off the page meanwhile.
    if (!this._host.isConnected) return;
    const running = (this._running = new AbortController());
    const url = this._url();
    const host = this._host;
    try {
      const hits = await fetchSearch(url, host.botId, q, running.signal, host);
      // Only the latest search's hits, and only while the field still holds the text they were found for.
      if (running != this._running || this._input?.value.trim() != q) return;
      Object.assign(this, { _hits: hits, _query: q, _active: -1, _open: true });
    } catch (e) {
      if (running != this._running || (e as { code: string }).code == 'aborted') return;
      // Other failures hide the hits of this text only.
      if ((e as { code: string }).code == 'search_unavailable') unavailable.add(url);
      this._hits = [];
    }
    this._running = undefined;
    host.requestUpdate();
  }

  private _onKey(e: KeyboardEvent) {
    // Keys that an input method is composing with are its own.
    if (e.isComposing) return;
    const n = this._hits.length;
    const current = n > 0 && this._query == this._input!.value.trim();
    if (e.key == 'ArrowDown' || e.key == 'ArrowUp') {
      if (!current || e.altKey) return;
      e.preventDefault();
      const down = e.key == 'ArrowDown';
      // Opening (↓ on a closed list) activates nothing yet; then the active option wraps at both ends, as in the APG's example.
      if (!this._open) this._open = true;
      else this._active = down ? (this._active + 1) % n : this._active <= 0 ? n - 1 : this._active - 1;
      this._host.requestUpdate();
      this._scrollActive();
    } else if (e.key == 'Enter' && !e.shiftKey && this._shown() && this._active >= 0) {
      // Stops here: the field's own Enter would ask the question.
      e.preventDefault();
      e.stopPropagation();
      this._follow(this._active, e.ctrlKey || e.metaKey, true);
    } else if (e.key == 'Escape' && this._shown()) {
      // Cancelled, so a floating dialog stays open: the next Esc closes it.
      e.preventDefault();
      this._close();
    }
  }

  /**
   * Fires `bot-answer-search-result-click` for hit `i`; returns false when a listener cancelled it. From the
   * keyboard, opens the page too (a click follows the link by itself): here, or in a new tab.
   */
  private _follow(i: number, newTab = false, keyboard = false): boolean {
    const result = this._hits[i]!;
    const go = emit(this._host, 'bot-answer-search-result-click', { result, index: i, query: this._query });
    if (go && keyboard) newTab ? open(result.url, '_blank', 'noopener') : location.assign(result.url);
    return go;
  }

  private _scrollActive() {
    this._host.updateComplete.then(() => this._root.querySelector<HTMLElement>('#sr' + this._active)?.scrollIntoView({ block: 'nearest' }));
  }

  private _close() {
    if (!this._open && this._active < 0) return;
    this._open = false;
    this._active = -1;
    this._host.requestUpdate();
  }

  /** Forgets the hits and any pending search. */
  private _reset() {
    clearTimeout(this._timer);
    this._running?.abort();
    this._running = undefined;
    const changed = this._hits.length > 0 || this._open;
    Object.assign(this, { _hits: [], _query: '', _active: -1, _open: false });
    if (changed) this._host.requestUpdate();
  }
}
