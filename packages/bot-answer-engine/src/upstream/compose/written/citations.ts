/**
 * Checks a model's Markdown as it streams, so that only what the server vouches for links
 * anywhere:
 * - a citation `[n]` (also `[n, m]`, `[^n]`, `[Source n]`) of a source given becomes
 *   `[[k]](url)`, k its place among the sources cited (the order of first citation), with
 *   inline sources; without, it is removed with the space before it; a number outside the
 *   sources given is dropped either way;
 * - a link, image, autolink or reference definition to a URL that is not one of the sources'
 *   keeps its text and loses the link (a bare URL, which Markdown renderers link by
 *   themselves, becomes code: its text stays, unlinked);
 * - code (fenced blocks, code spans) passes untouched: `items[1]` is not a citation.
 *
 * Text is held back only while it may still become one of these (a `[` not yet closed, a URL
 * not yet ended), so the rest streams as it comes; whatever is held when the stream breaks is
 * never sent.
 */
export class CitationFilter {
  #pending = '';
  /** Spaces and tabs not yet sent: a removed citation takes the space before it along. */
  #spaces = '';
  /** The last character sent (for word boundaries). */
  #last = '\n';
  #lineStart = true;
  #fence: { char: string; length: number } | undefined;
  /** Backticks of the open code span; 0 outside one. */
  #ticks = 0;
  /** Source index (0-based) -> its number in the answer (1-based), in the order of first citation. */
  readonly #cited = new Map<number, number>();
  readonly #allowed: Set<string>;

  /**
   * @param urls the sources' URLs, source `n` at index `n - 1`
   * @param otherUrls more URLs a link may point to (a source's document, when the source is a section of it)
   * @param inline write citations as `[[k]](url)`; false removes them
   */
  constructor(
    private readonly urls: readonly string[],
    otherUrls: readonly string[],
    private readonly inline: boolean,
  ) {
    this.#allowed = new Set([...urls, ...otherUrls].flatMap((url) => [comparable(url), comparable(linkTarget(url))]));
  }

  /** The sources cited so far (0-based indexes), in the order of first citation. */
  get cited(): number[] {
    return [...this.#cited.keys()];
  }

  /** Takes the next piece of the model's text; returns what can be sent now (maybe empty). */
  push(text: string): string {
    this.#pending += text;
    return this.#drain(false);
  }

  /** The stream ended cleanly: everything still held, decided as it stands. */
  end(): string {
    const out = this.#drain(true);
    const spaces = this.#spaces;
    this.#spaces = '';
    return out + spaces;
  }

  #drain(final: boolean): string {
    const s = this.#pending;
    let out = '';
    let i = 0;
    const emit = (text: string): void => {
      if (text === '') return;
      out += this.#spaces + text;
      this.#spaces = '';
      this.#last = text[text.length - 1]!;
    };
    // Whether more text may still change how the rest reads; past the hold limit, it may not.
    const undecided = (from: number): boolean => !final && s.length - from < HOLD_LIMIT;

    scan: while (i < s.length) {
      if (this.#fence) {
        const nl = s.indexOf('\n', i);
        const line = nl < 0 ? s.slice(i) : s.slice(i, nl + 1);
        if (this.#lineStart) {
          if (nl < 0 && undecided(i) && /^ {0,3}[`~]*[ \t]*$/.test(line)) break;
          const close = /^ {0,3}(`{3,}|~{3,})[ \t]*\n?$/.exec(line);
          if (close && close[1]![0] === this.#fence.char && close[1]!.length >= this.#fence.length) this.#fence = undefined;
        }
        emit(line);
        i += line.length;
        this.#lineStart = line.endsWith('\n');
        continue;
      }

      if (this.#ticks > 0) {
        const closer = /`+|\n[ \t]*\n/g;
        closer.lastIndex = i;
        for (let m = closer.exec(s); m; m = closer.exec(s)) {
          if (m[0][0] === '\n') {
            // A blank line ends the paragraph, and with it a code span never closed.
            emit(s.slice(i, m.index));
            i = m.index;
            this.#ticks = 0;
            continue scan;
          }
          if (m.index + m[0].length === s.length && undecided(m.index)) {
            emit(s.slice(i, m.index));
            i = m.index;
            break scan;
          }
          if (m[0].length === this.#ticks) {
            emit(s.slice(i, closer.lastIndex));
            i = closer.lastIndex;
            this.#ticks = 0;
            continue scan;
          }
        }
        // No closer yet: send the code, holding back a line end that may start a blank line.
        const tail = /\n[ \t]*$/.exec(s.slice(i));
        const upTo = tail && undecided(i + tail.index) ? i + tail.index : s.length;
        emit(s.slice(i, upTo));
        i = upTo;
        break;
      }

      if (this.#lineStart) {
        const nl = s.indexOf('\n', i);
        const line = nl < 0 ? s.slice(i) : s.slice(i, nl + 1);
        // A fence, and a link reference definition (`[label]: url`), are lines of their own: wait for one to end.
        const fence = /^ {0,3}(`{3,}|~{3,})([^\n]*)/.exec(line);
        const opens = fence !== null && !(fence[1]![0] === '`' && fence[2]!.includes('`'));
        if (nl < 0 && undecided(i) && (opens || /^ {0,3}(?:[`~]*|\[[^\]\n]*(?:\](?::.*)?)?)$/.test(line))) break;
        this.#lineStart = false;
        if (opens) {
          this.#fence = { char: fence[1]![0]!, length: fence[1]!.length };
          emit(line);
          i += line.length;
          this.#lineStart = line.endsWith('\n');
          continue;
        }
        const definition = /^ {0,3}\[[^\]\n]+\]:[ \t]*<?((?:[a-z][\w+.-]*:|www\.|\/|#)[^\s<>]*)>?/i.exec(line);
        if (definition) {
          if (this.#isAllowed(definition[1]!)) emit(line);
          i += line.length;
          this.#lineStart = line.endsWith('\n');
          continue;
        }
      }

      const c = s[i]!;
      if (c === '\n') {
        emit(c);
        i++;
        this.#lineStart = true;
      } else if (c === ' ' || c === '\t') {
        this.#spaces += c;
        i++;
      } else if (c === '\\') {
        if (i + 1 >= s.length && undecided(i)) break;
        emit(s.slice(i, i + 2));
        if (s[i + 1] === '\n') this.#lineStart = true;
        i += 2;
      } else if (c === '`') {
        const run = /`+/y;
        run.lastIndex = i;
        const ticks = run.exec(s)![0].length;
        if (i + ticks === s.length && undecided(i)) break;
        emit(s.slice(i, i + ticks));
        i += ticks;
        this.#ticks = ticks;
      } else if (c === '[' || (c === '!' && s[i + 1] === '[')) {
        const result = this.#bracket(s, c === '!' ? i + 1 : i, c === '!', undecided);
        if (result === undefined) break;
        if (result.citation !== undefined) {
          // A citation removed (or only dropped numbers) takes the space before it along.
          if (result.citation === '') this.#spaces = '';
          else emit(result.citation);
        } else {
          emit(result.text);
        }
        i = result.end;
      } else if (c === '!' && i + 1 === s.length && undecided(i)) {
        break;
      } else if (c === '<') {
        const auto = /<((?:https?|mailto):[^\s<>]*)>/iy;
        auto.lastIndex = i;
        const m = auto.exec(s);
        if (m) {
          emit(this.#isAllowed(m[1]!) ? m[0] : code(m[1]!));
          i += m[0].length;
        } else if (/^<[\w.+:/?#=&%~@-]*$/.test(s.slice(i)) && undecided(i)) {
          break;
        } else {
          emit(c);
          i++;
        }
      } else if (/[hHwW]/.test(c) && !/[\p{L}\p{N}_]/u.test(this.#spaces ? ' ' : this.#last)) {
        const bare = /(?:https?:\/\/|www\.)[^\s<]*/iy;
        bare.lastIndex = i;
        const m = bare.exec(s);
        if (m && m.index + m[0].length === s.length && undecided(i)) break;
        if (!m && isPrefixOfUrlStart(s.slice(i)) && undecided(i)) break;
        if (m) {
          const url = trimTrailing(m[0]);
          emit(this.#isAllowed(url) ? url : code(url));
          i += url.length;
        } else {
          emit(c);
          i++;
        }
      } else {
        const plain = /[^\n \t\\`[!<hHwW]+/y;
        plain.lastIndex = i + 1;
        const more = plain.exec(s)?.[0] ?? '';
        emit(c + more);
        i += 1 + more.length;
      }
    }
    this.#pending = s.slice(i);
    return out;
  }

  /**
   * The construct opening with the `[` at `i` (after `!` for an image): a citation, a link, or a
   * `[` that is only text. `undefined`: more text is needed to tell.
   */
  #bracket(s: string, i: number, image: boolean, undecided: (from: number) => boolean): { end: number; text: string; citation?: string } | undefined {
    const start = image ? i - 1 : i;
    if (!image) {
      const cite = /\[\^?(?:(?:sources?|passages?)[ \t]*)?(\d{1,3}(?:[ \t]*[,;][ \t]*\d{1,3})*)\]/iy;
      cite.lastIndex = i;
      const m = cite.exec(s);
      const after = m ? i + m[0].length : -1;
      if (after === s.length && undecided(start)) return undefined;
      // `[1](url)` is a link whose text is 1; otherwise `[1]` is a citation.
      if (m && s[after] !== '(') return { end: after, text: '', citation: this.#cite(m[1]!.split(/[,;]/).map(Number)) };
    }
    const literal = { end: i + 1, text: s.slice(start, i + 1) };
    const close = matchingBracket(s, i);
    if (close === 'open') return undecided(start) ? undefined : literal;
    if (close === 'none') return literal;
    if (close + 1 === s.length && undecided(start)) return undefined;
    if (s[close + 1] !== '(') return literal;
    const destination = linkDestination(s, close + 2);
    if (destination === 'open') return undecided(start) ? undefined : literal;
    if (destination === 'none') return literal;
    if (this.#isAllowed(destination.url)) return { end: destination.end, text: s.slice(start, destination.end) };
    // The link goes; its text stays, read as any other text (a citation in it still counts).
    return { end: destination.end, text: this.#plain(s.slice(i + 1, close)) };
  }

  /** Link text kept without its link: checked the same way, citations numbered with this answer's. */
  #plain(text: string): string {
    const saved = [this.#pending, this.#spaces, this.#last, this.#lineStart, this.#ticks, this.#fence] as const;
    this.#pending = text;
    this.#spaces = '';
    this.#lineStart = false;
    this.#ticks = 0;
    this.#fence = undefined;
    const out = this.#drain(true) + this.#spaces;
    [this.#pending, this.#spaces, this.#last, this.#lineStart, this.#ticks, this.#fence] = saved;
    return out;
  }

  /** A citation's replacement: `[[k]](url)` for each number of a source given (none without inline sources). */
  #cite(numbers: number[]): string {
    let out = '';
    const seen = new Set<number>();
    for (const n of numbers) {
      const index = n - 1;
      if (index < 0 || index >= this.urls.length || seen.has(index)) continue;
      seen.add(index);
      let k = this.#cited.get(index);
      if (k === undefined) this.#cited.set(index, (k = this.#cited.size + 1));
      if (this.inline) out += `[[${k}]](${linkTarget(this.urls[index]!)})`;
    }
    return out;
  }

  #isAllowed(url: string): boolean {
    return this.#allowed.has(comparable(url));
  }
}

/** Longest text held back waiting to tell what it is; past it, it is read as it stands. */
const HOLD_LIMIT = 2048;

/** Index of the `]` closing the `[` at `i` (nested brackets counted, escapes skipped); `open` if not yet seen, `none` if a blank line comes first. */
function matchingBracket(s: string, i: number): number | 'open' | 'none' {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s[j];
    if (c === '\\') j++;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return j;
    else if (c === '\n' && /^\n[ \t]*\n/.test(s.slice(j, j + 80))) return 'none';
  }
  return 'open';
}

/** The destination (and optional title) of an inline link starting after its `(` at `i`, up to its `)`. */
function linkDestination(s: string, i: number): { url: string; end: number } | 'open' | 'none' {
  const m = /[ \t]*(?:<([^<>\n]*)>|((?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*))(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*\)/y;
  m.lastIndex = i;
  const found = m.exec(s);
  if (found) return { url: found[1] ?? found[2] ?? '', end: m.lastIndex };
  // Not a whole link yet: it may still become one if nothing so far rules it out.
  const partial = /[ \t]*(?:<[^<>\n]*|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\)?)*(?:[ \t]+(?:"[^"\n]*"?|'[^'\n]*'?|\([^()\n]*)?)?[ \t]*)$/y;
  partial.lastIndex = i;
  return partial.test(s) ? 'open' : 'none';
}

/** Whether `text` is the start of `http://`, `https://` or `www.` (it may still become a bare URL). */
function isPrefixOfUrlStart(text: string): boolean {
  const t = text.toLowerCase();
  return ['http://', 'https://', 'www.'].some((start) => t.length < start.length && start.startsWith(t));
}

/** A bare URL as Markdown renderers (GFM) end it: without trailing punctuation or an unmatched `)`. */
function trimTrailing(url: string): string {
  let end = url.length;
  for (;;) {
    const c = url[end - 1];
    if (c && '?!.,:*_~\'";'.includes(c)) end--;
    else if (c === ')' && count(url.slice(0, end), '(') < count(url.slice(0, end), ')')) end--;
    else return url.slice(0, end);
  }
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/** Text as a code span: shown as it is, never linked. */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${longest ? ' ' : ''}${text}${longest ? ' ' : ''}${fence}`;
}

/** A URL as it compares with a source's: without a trailing slash before its end or fragment. */
function comparable(url: string): string {
  return url.trim().replace(/\/+(?=#|$)/, '');
}

/** A URL usable as a Markdown link target: spaces and parentheses would end it early. */
export function linkTarget(url: string): string {
  return url.replace(/[ ()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
