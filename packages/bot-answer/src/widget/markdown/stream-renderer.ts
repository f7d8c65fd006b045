import type { Token } from 'marked';
import { collectLinks, exceedsCaps, lex, plainText, renderTokens, type Links, type RenderOptions } from './markdown.js';
import { stabilize } from './stabilize.js';

/** Options of a {@link StreamRenderer}. */
export interface StreamRendererOptions extends RenderOptions {
  /** Called after every DOM update (the element uses it to keep the view scrolled to the bottom). */
  onUpdate?: () => void;
  /** With it, every code block that no longer changes gets a `button.cc` (first in its `pre`) labelled with what it returns. */
  copyLabel?: () => string;
}

/** Class set on the container while an answer is streaming (the element uses it for `table-layout: fixed`). */
export const STREAMING_CLASS = 'streaming';

const BLANK_END = /\n[ \t]*\n$/;
/**
 * Update cadence: after a streaming flush the next one waits at least PACE times what that flush cost
 * (at most MAX_WAIT ms), then an animation frame. A cheap answer updates every frame; a long one, whose
 * flushes cost more (layout grows with the page), updates less often, so rendering stays a small share
 * of the main thread however long the answer grows.
 */
const PACE = 50;
const MAX_WAIT = 250;

/**
 * Renders a growing Markdown answer into a container it owns (nothing else may write to its children).
 *
 * - `append()` only buffers; the DOM is updated in an animation frame however many chunks came, at the
 *   cadence set by PACE (every frame while flushes are cheap, less often as they grow costly).
 * - A flush lexes only the uncommitted tail, seeded with the link definitions seen before it. A block
 *   that ends with a blank line and has two more blocks after it is committed: rendered, sanitised and
 *   appended once, never touched again (same nodes, so a text selection in it survives).
 * - The rest, the live tail, is stabilised (see `stabilize`) and re-rendered as a whole (an open code
 *   fence is a code block in progress).
 * - `finish()` renders the tail now without stabilising; the DOM then equals one `renderMarkdown()` of
 *   the whole text (when a link definition arrived after the first blocks were committed, it renders the
 *   whole text again, as those blocks may use it).
 *   Text appended afterwards still renders correctly.
 *
 * Code blocks come out as `<pre tabindex="0"><code class="language-x">`. With `copyLabel`, a committed
 * block (or, at `finish()`, any block) also gets a copy button, made here with DOM APIs after sanitising,
 * never from HTML: `<pre><button class="cc">label</button><code>`. A live `pre` is replaced at every
 * update until it is committed, so it has none (a button there would vanish under the pointer or focus);
 * committed ones never change. The element handles the buttons, and citations
 * (`sup > a.citation[data-citation]`), by delegation.
 */
export class StreamRenderer {
  /** Characters lexed by the last flush, and the uncommitted length it started from (for tests and tuning). */
  lastFlush = { lexed: 0, tail: 0 };

  private _raw = '';
  /** `raw` with line endings normalised here (not by marked), so committed offsets index the string we lex. */
  private _src = '';
  private _endsWithCR = false;
  /** Length of `src` committed. */
  private _committed = 0;
  private _links: Links = {};
  /** How many link definitions were known once the first blocks were committed. */
  private _linksAtFirstCommit = 0;
  private _liveNodes: ChildNode[] = [];
  private _liveSource: string | null = null;
  private _frame = 0;
  private _timer = 0;
  /** When the next streaming flush may start (see PACE). */
  private _nextFlushAt = 0;
  private _stale = false;

  /**
   * @param container The element the answer is rendered into; the renderer owns its children.
   * @param options `images` allows `<img>`; `onUpdate` is called after each DOM update.
   */
  constructor(
    readonly container: HTMLElement,
    private readonly _options: StreamRendererOptions = {},
  ) {}

  /** The whole text received so far, exactly as appended. */
  get text(): string {
    return this._raw;
  }

  /** Appends a chunk; the DOM follows on the next animation frame. */
  append(chunk: string): void {
    if (!chunk) return;
    this._raw += chunk;
    let s = chunk.replace(/\r\n?/g, '\n');
    if (this._endsWithCR && chunk[0] === '\n') s = s.slice(1);
    this._endsWithCR = chunk.endsWith('\r');
    this._src += s;
    this._schedule();
  }

  /**
   * Replaces the whole text (an upstream that resent the answer). Text that extends the current one is
   * appended; otherwise the old DOM stays until the next frame renders the new text.
   */
  replace(text: string): void {
    if (text.startsWith(this._raw)) return this.append(text.slice(this._raw.length));
    this._clear();
    this._stale = true;
    this.append(text);
    this._schedule();
  }

  /** Renders the pending text now instead of on the next frame (still streaming: the tail stays live). */
  flush(): void {
    const t = performance.now();
    this._render(false);
    const now = performance.now();
    this._nextFlushAt = now + Math.min(MAX_WAIT, PACE * (now - t));
  }

  /** Renders everything now, without stabilising: the end of the stream. Removes the streaming class. */
  finish(): void {
    this._render(true);
    this._nextFlushAt = 0;
  }

  /** Empties the container and forgets the text. */
  reset(): void {
    this._clear();
    this.container.replaceChildren();
    this.container.classList.remove(STREAMING_CLASS);
  }

  private _schedule() {
    if (this._frame || this._timer) return;
    const wait = this._nextFlushAt - performance.now();
    const f = () => (this._frame = requestAnimationFrame(() => this.flush()));
    wait > 0 ? (this._timer = setTimeout(f, wait) as unknown as number) : f();
  }

  private _clear() {
    this._cancel();
    this._nextFlushAt = 0;
    this._raw = this._src = '';
    this._endsWithCR = false;
    this._links = {};
    this._restart();
  }

  private _cancel() {
    cancelAnimationFrame(this._frame);
    clearTimeout(this._timer);
    this._frame = this._timer = 0;
  }

  /** Forgets what was rendered (the caller empties the container). */
  private _restart() {
    this._committed = 0;
    this._liveNodes = [];
    this._liveSource = null;
  }

  private _render(final: boolean): void {
    const c = this.container;
    this._cancel();
    if (this._stale || (final && this._committed && exceedsCaps(this._src))) {
      // A replaced text, or a whole answer beyond the caps: that one is plain text, as one render of it would be.
      c.replaceChildren();
      this._stale = false;
      this._restart();
    }
    c.classList.toggle(STREAMING_CLASS, !final);
    const tail = this._src.slice(this._committed);
    const live = final ? tail : stabilize(tail);
    this.lastFlush = { lexed: 0, tail: tail.length };
    if (!final && live === this._liveSource) return;
    const capped = exceedsCaps(live);
    const tokens = capped ? [] : lex(live, this._links);
    if (!capped) this.lastFlush.lexed = live.length;
    if (final && this._committed && Object.keys(collectLinks(tokens, { ...this._links })).length > this._linksAtFirstCommit) {
      // A link definition arrived after the first blocks were committed, and they may use it: render it all again.
      this._stale = true;
      return this._render(true);
    }
    for (const n of this._liveNodes) n.remove();
    const commit = this._committable(tokens, live);
    let done = '';
    if (commit) {
      const blocks = tokens.slice(0, commit);
      done = blocks.map((t) => t.raw).join('');
      collectLinks(blocks, this._links);
      if (!this._committed) this._linksAtFirstCommit = Object.keys(this._links).length;
      this._committed += done.length;
      c.append(this._addCopyButtons(renderTokens(blocks, this._options)));
    }
    const frag = capped ? plainText(tail) : renderTokens(tokens.slice(commit), this._options);
    if (final) this._addCopyButtons(frag);
    this._liveNodes = [...frag.childNodes];
    c.append(frag);
    this._liveSource = live.slice(done.length);
    this._options.onUpdate?.();
  }

  /** Puts a copy button first in each code block of `frag` (with `copyLabel`). */
  private _addCopyButtons(frag: DocumentFragment) {
    const label = this._options.copyLabel;
    if (label)
      for (const pre of frag.querySelectorAll('pre')) {
        const button = document.createElement('button');
        button.className = 'cc';
        button.textContent = label();
        pre.prepend(button);
      }
    return frag;
  }

  /** How many leading tokens later text can no longer change: up to the last blank line with two blocks after it. */
  private _committable(tokens: Token[], src: string): number {
    let end = src.length;
    let after = 0;
    for (let i = tokens.length - 1; i > 0; i--) {
      end -= tokens[i].raw.length;
      if (tokens[i].type !== 'space') after++;
      if (after > 1 && BLANK_END.test(src.slice(Math.max(0, end - 8), end))) return i;
    }
    return 0;
  }
}
