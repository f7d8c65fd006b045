import type { Token } from 'marked';
import { collectLinks, exceedsCaps, lex, plainText, renderTokens, type Links, type RenderOptions } from './markdown.js';
import { stabilize } from './stabilize.js';

/** Options of a {@link StreamRenderer}. */
export interface StreamRendererOptions extends RenderOptions {
  /** Called after every DOM update (the element uses it to keep the view scrolled to the bottom). */
  onUpdate?: () => void;
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
 * Code blocks come out as `<pre tabindex="0"><code class="language-x">` (no button: DOMPurify would strip
 * it and the HTML is never edited). A copy control belongs to the element, outside this container, found
 * by delegation (`closest('pre')`). A live `pre` is replaced at every update until it is committed;
 * committed ones never change. Citations are `sup > a.citation[data-citation]`, also for delegation.
 */
export class StreamRenderer {
  /** Called after every DOM update. */
  onUpdate?: () => void;
  /** Characters lexed by the last flush, and the uncommitted length it started from (for tests and tuning). */
  lastFlush = { lexed: 0, tail: 0 };

  private opts: RenderOptions;
  private raw = '';
  /** `raw` with line endings normalised here (not by marked), so committed offsets index the string we lex. */
  private src = '';
  private cr = false;
  /** Length of `src` committed. */
  private done = 0;
  private links: Links = {};
  /** How many link definitions were known once the first blocks were committed. */
  private seen = 0;
  private live: ChildNode[] = [];
  private liveSrc: string | null = null;
  private frame = 0;
  private timer = 0;
  /** When the next streaming flush may start (see PACE). */
  private next = 0;
  private stale = false;

  /**
   * @param container The element the answer is rendered into; the renderer owns its children.
   * @param options `images` allows `<img>`; `onUpdate` is called after each DOM update.
   */
  constructor(readonly container: HTMLElement, options: StreamRendererOptions = {}) {
    this.opts = { images: options.images };
    this.onUpdate = options.onUpdate;
  }

  /** The whole text received so far, exactly as appended. */
  get text(): string {
    return this.raw;
  }

  /** Appends a chunk; the DOM follows on the next animation frame. */
  append(chunk: string): void {
    if (!chunk) return;
    this.raw += chunk;
    let s = chunk.replace(/\r\n?/g, '\n');
    if (this.cr && chunk[0] === '\n') s = s.slice(1);
    this.cr = chunk.endsWith('\r');
    this.src += s;
    this.schedule();
  }

  /**
   * Replaces the whole text (an upstream that resent the answer). Text that extends the current one is
   * appended; otherwise the old DOM stays until the next frame renders the new text.
   */
  replace(text: string): void {
    if (text.startsWith(this.raw)) return this.append(text.slice(this.raw.length));
    this.clear();
    this.stale = true;
    this.append(text);
    this.schedule();
  }

  /** Renders the pending text now instead of on the next frame (still streaming: the tail stays live). */
  flush(): void {
    const t = performance.now();
    this.render(false);
    const now = performance.now();
    this.next = now + Math.min(MAX_WAIT, PACE * (now - t));
  }

  /** Renders everything now, without stabilising: the end of the stream. Removes the streaming class. */
  finish(): void {
    this.render(true);
    this.next = 0;
  }

  /** Empties the container and forgets the text. */
  reset(): void {
    this.clear();
    this.container.replaceChildren();
    this.container.classList.remove(STREAMING_CLASS);
  }

  private schedule() {
    if (this.frame || this.timer) return;
    const wait = this.next - performance.now();
    const f = () => (this.frame = requestAnimationFrame(() => this.flush()));
    wait > 0 ? (this.timer = setTimeout(f, wait) as unknown as number) : f();
  }

  private clear() {
    this.cancel();
    this.next = 0;
    this.raw = this.src = '';
    this.cr = false;
    this.links = {};
    this.restart();
  }

  private cancel() {
    cancelAnimationFrame(this.frame);
    clearTimeout(this.timer);
    this.frame = this.timer = 0;
  }

  /** Forgets what was rendered (the caller empties the container). */
  private restart() {
    this.done = 0;
    this.live = [];
    this.liveSrc = null;
  }

  private render(final: boolean): void {
    const c = this.container;
    this.cancel();
    if (this.stale || (final && this.done && exceedsCaps(this.src))) {
      // A replaced text, or a whole answer beyond the caps: that one is plain text, as one render of it would be.
      c.replaceChildren();
      this.stale = false;
      this.restart();
    }
    c.classList.toggle(STREAMING_CLASS, !final);
    const tail = this.src.slice(this.done);
    const live = final ? tail : stabilize(tail);
    this.lastFlush = { lexed: 0, tail: tail.length };
    if (!final && live === this.liveSrc) return;
    const capped = exceedsCaps(live);
    const tokens = capped ? [] : lex(live, this.links);
    if (!capped) this.lastFlush.lexed = live.length;
    if (final && this.done && Object.keys(collectLinks(tokens, { ...this.links })).length > this.seen) {
      // A link definition arrived after the first blocks were committed, and they may use it: render it all again.
      this.stale = true;
      return this.render(true);
    }
    for (const n of this.live) n.remove();
    const commit = this.committable(tokens, live);
    let done = '';
    if (commit) {
      const blocks = tokens.slice(0, commit);
      done = blocks.map((t) => t.raw).join('');
      collectLinks(blocks, this.links);
      if (!this.done) this.seen = Object.keys(this.links).length;
      this.done += done.length;
      c.append(renderTokens(blocks, this.opts));
    }
    const frag = capped ? plainText(tail) : renderTokens(tokens.slice(commit), this.opts);
    this.live = [...frag.childNodes];
    c.append(frag);
    this.liveSrc = live.slice(done.length);
    this.onUpdate?.();
  }

  /** How many leading tokens later text can no longer change: up to the last blank line with two blocks after it. */
  private committable(tokens: Token[], src: string): number {
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
