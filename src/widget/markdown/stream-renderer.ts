import type { Token } from 'marked';
import { collectLinks, exceedsCaps, lex, plainText, renderTokens, type Links, type RenderOptions } from './markdown.js';
import { stabilize } from './stabilize.js';

/** Options of a {@link StreamRenderer}. */
export interface StreamRendererOptions extends RenderOptions {
  /** Called after every DOM update (the element uses it to keep the view scrolled to the bottom). */
  onUpdate?: () => void;
}

/** A committed block: its source and the sanitised nodes it put in the container. */
interface Block {
  src: string;
  nodes: Node[];
  /** How many link definitions were known when it was rendered. */
  links: number;
}

/** Class set on the container while an answer is streaming (the element uses it for `table-layout: fixed`). */
export const STREAMING_CLASS = 'streaming';

const BLANK_END = /\n[ \t]*\n$/;

/**
 * Renders a growing Markdown answer into a container it owns (nothing else may write to it).
 *
 * - `append()` only buffers; the DOM is updated once per animation frame however many chunks came.
 * - A flush lexes only the uncommitted tail (seeded with link definitions seen before). A block followed
 *   by a blank line and two more blocks is committed: rendered, sanitised and appended once, never touched
 *   again (same nodes, so a text selection in it survives).
 * - The rest (the live tail) is stabilised before rendering (see `stabilize`) and replaced as a whole.
 * - `finish()` renders the tail now without stabilising; the DOM then equals one `renderMarkdown()` of the
 *   whole text (blocks committed before a link definition they use arrived are re-rendered then). More text
 *   may still be appended afterwards (the tail stays uncommitted until it is safe).
 */
export class StreamRenderer {
  /** Called after every DOM update. */
  onUpdate?: () => void;
  /** Characters lexed by the last flush, and the uncommitted length it started from (for tests and tuning). */
  lastFlush = { lexed: 0, tail: 0 };

  #opts: RenderOptions;
  #raw = '';
  #src = '';
  #cr = false;
  #done = 0;
  #links: Links = {};
  #blocks: Block[] = [];
  #live: Node[] = [];
  #liveSrc: string | null = null;
  #frame = 0;
  #stale = false;

  /**
   * @param container The element the answer is rendered into; the renderer owns its children.
   * @param options `images` allows `<img>`; `onUpdate` is called after each DOM update.
   */
  constructor(readonly container: HTMLElement, options: StreamRendererOptions = {}) {
    this.#opts = { images: options.images };
    this.onUpdate = options.onUpdate;
  }

  /** The whole text received so far, exactly as appended. */
  get text(): string {
    return this.#raw;
  }

  /** Appends a chunk; the DOM follows on the next animation frame. */
  append(chunk: string): void {
    if (!chunk) return;
    this.#raw += chunk;
    // Line endings normalised here (not by marked) so committed offsets index the same string we lex.
    let s = chunk.replace(/\r\n?/g, '\n');
    if (this.#cr && chunk[0] === '\n') s = s.slice(1);
    this.#cr = chunk.endsWith('\r');
    this.#src += s;
    this.#schedule();
  }

  /** Replaces the whole text (e.g. an upstream that resends the answer); the old DOM stays until the next frame. */
  replace(text: string): void {
    if (text.startsWith(this.#raw)) return this.append(text.slice(this.#raw.length));
    this.#clear();
    this.#stale = true;
    this.append(text);
    this.#schedule();
  }

  /** Renders the pending text now instead of on the next frame (still streaming: the tail stays live). */
  flush(): void {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#flush(false);
  }

  /** Renders everything now, without stabilising: the end of the stream. */
  finish(): void {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#flush(true);
  }

  /** Empties the container and forgets the text. */
  reset(): void {
    this.#clear();
    this.container.replaceChildren();
    this.container.classList.remove(STREAMING_CLASS);
  }

  #clear() {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#raw = this.#src = '';
    this.#cr = false;
    this.#done = 0;
    this.#links = {};
    this.#blocks = [];
    this.#live = [];
    this.#liveSrc = null;
  }

  #schedule() {
    this.#frame ||= requestAnimationFrame(() => this.flush());
  }

  #flush(final: boolean) {
    const c = this.container;
    if (this.#stale) {
      c.replaceChildren();
      this.#stale = false;
    }
    c.classList.toggle(STREAMING_CLASS, !final);
    if (final && this.#done && exceedsCaps(this.#src)) {
      // Beyond the caps the whole answer is plain text, as one render of it would be.
      c.replaceChildren();
      this.#blocks = [];
      this.#live = [];
      this.#done = 0;
    }
    const tail = this.#src.slice(this.#done);
    const live = final ? tail : stabilize(tail);
    this.lastFlush = { lexed: 0, tail: tail.length };
    if (!final && live === this.#liveSrc) return;
    for (const n of this.#live) (n as ChildNode).remove();
    const capped = exceedsCaps(live);
    const tokens = capped ? [] : lex(live, this.#links);
    if (!capped) this.lastFlush.lexed = live.length;
    const commit = this.#committable(tokens, live);
    let done = '';
    if (commit) {
      const blocks = tokens.slice(0, commit);
      done = blocks.map((t) => t.raw).join('');
      collectLinks(blocks, this.#links);
      this.#done += done.length;
      this.#append(blocks, done);
    }
    const rest = tokens.slice(commit);
    const frag = capped ? plainText(live) : renderTokens(rest, this.#opts);
    this.#live = [...frag.childNodes];
    c.append(frag);
    this.#liveSrc = live.slice(done.length);
    if (final) this.#relink(collectLinks(rest, { ...this.#links }));
    this.onUpdate?.();
  }

  /** Number of leading tokens that later text can no longer change. */
  #committable(tokens: Token[], src: string): number {
    let n = 0;
    let end = 0;
    let best = 0;
    // Walk back from the end: a boundary qualifies once two non-space blocks follow it.
    const offsets: number[] = [];
    for (const t of tokens) offsets.push((end += t.raw.length));
    for (let i = tokens.length - 1; i > 0; i--) {
      if (tokens[i].type !== 'space') n++;
      if (n >= 2 && BLANK_END.test(src.slice(Math.max(0, offsets[i - 1] - 8), offsets[i - 1]))) {
        best = i;
        break;
      }
    }
    return best;
  }

  #append(tokens: Token[], src: string) {
    const frag = renderTokens(tokens, this.#opts);
    const nodes = [...frag.childNodes];
    this.container.append(frag);
    this.#blocks.push({ src, nodes, links: Object.keys(this.#links).length });
  }

  /** Re-renders committed blocks that may use a link definition which arrived after them. */
  #relink(links: Links) {
    const count = Object.keys(links).length;
    for (const b of this.#blocks) {
      if (b.links < count && b.nodes.length && b.src.includes('[')) {
        const frag = renderTokens(lex(b.src, links), this.#opts);
        const nodes = [...frag.childNodes];
        (b.nodes[0] as ChildNode).before(frag);
        for (const n of b.nodes) (n as ChildNode).remove();
        b.nodes = nodes;
      }
      b.links = count;
    }
  }
}
