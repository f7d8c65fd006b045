import GithubSlugger from 'github-slugger';

/** An ATX heading line: `## Text`, optionally closed by `#`s. */
export const HEADING = /^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
/**
 * The opening or closing line of a fenced code block. A backtick fence's info string holds no
 * backtick (CommonMark): a line such as ```` ```f({min: 1})``` would return 1 ```` is prose
 * starting with a code span.
 */
export const FENCE = /^[ \t]{0,3}(`{3,}(?![^`]*`)|~{3,})/;
// `## Text {#custom-id}`: an explicit id, as Docusaurus, VitePress and MkDocs (attr_list) accept,
// and as built HTML pages' heading ids are carried (Sphinx's may hold `.` and `:`).
const EXPLICIT_ID = /[ \t]*\{[ \t]*#([\w.:-]+)[^}]*\}[ \t]*$/;
// `### <a name="device-schema"></a> Schema`: an empty anchor element in the heading gives it the
// id the docs link to (`_schemas.md#device-schema`), as GitHub and every site serve it.
const ANCHOR_ELEMENT = /[ \t]*<a[ \t]+(?:name|id)[ \t]*=[ \t]*(?:"([^"\s]+)"|'([^'\s]+)')[ \t]*(?:\/>|>[ \t]*<\/a[ \t]*>)[ \t]*/i;

/** A heading's text as written (without an explicit `{#id}` or empty `<a id>` anchor) and its anchor id, if it gave one. */
export function headingText(raw: string): { text: string; id?: string } {
  const match = EXPLICIT_ID.exec(raw);
  if (match) return { text: raw.slice(0, match.index).trim(), id: match[1]! };
  const anchor = ANCHOR_ELEMENT.exec(raw);
  if (anchor) return { text: `${raw.slice(0, anchor.index)} ${raw.slice(anchor.index + anchor[0].length)}`.trim(), id: anchor[1] ?? anchor[2]! };
  return { text: raw.trim() };
}

/** A heading as a reader sees it: inline Markdown, backslash escapes and HTML tags removed, link text kept. */
export function plainHeading(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, '')
    // An underscore inside a word (`receive_payment_as_a_merchant`, `MAX_RETRIES`) is no emphasis
    // (CommonMark): it is kept, as GitHub's anchors keep it.
    .replace(/(\*\*|\*|`|~~)(?=\S)([\s\S]*?\S)\1|(?<![\p{L}\p{N}_])(__|_)(?=\S)([\s\S]*?\S)\3(?![\p{L}\p{N}_])/gu, (...groups: string[]) => groups[2] ?? groups[4]!)
    .replace(/`/g, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .trim();
}

/**
 * Heading anchors the way GitHub, Docusaurus and VitePress make them (github-slugger, over the
 * heading's plain text): one per page, so a repeated heading gets `-1`, `-2`, ... in order.
 */
export class HeadingSlugger {
  readonly #slugger = new GithubSlugger();

  /** The anchor of the next heading of the page, in document order. */
  slug(raw: string): string {
    const { text, id } = headingText(raw);
    if (id) {
      // An explicit id is taken as written, and taken: a later heading whose slug is the same gets `-1`.
      if (!Object.hasOwn(this.#slugger.occurrences, id)) this.#slugger.occurrences[id] = 0;
      return id;
    }
    return this.#slugger.slug(plainHeading(text));
  }
}

/**
 * Follows fenced code blocks line by line: the function returned is called with each line in
 * turn and says whether that line is code (a fence opening or closing a block, or a line inside
 * one). A block closes on a fence of the same character at least as long as the one that opened
 * it. `open` is what a fence line looks like (Markdown's, indented up to 3 spaces, by default).
 */
export function fencedCode(open: RegExp = FENCE): (line: string) => boolean {
  let fence: string | undefined;
  return (line) => {
    const marker = open.exec(line)?.[1];
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === undefined ? marker : undefined;
      return true;
    }
    return fence !== undefined || marker !== undefined;
  };
}

/**
 * Calls `text` on every stretch of lines outside fenced code blocks and `code` on each fenced
 * block (fences included), and joins what they return. Used to rewrite prose without touching code.
 */
export function mapOutsideFences(markdown: string, text: (lines: string) => string, code: (lines: string) => string = (lines) => lines): string {
  const out: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  const flush = (inFence: boolean): void => {
    if (current.length) out.push(inFence ? code(current.join('\n')) : text(current.join('\n')));
    current = [];
  };
  for (const line of markdown.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (marker && fence === undefined) {
      flush(false);
      fence = marker;
      current.push(line);
    } else if (marker && fence !== undefined && marker[0] === fence[0] && marker.length >= fence.length) {
      current.push(line);
      flush(true);
      fence = undefined;
    } else {
      current.push(line);
    }
  }
  flush(fence !== undefined);
  return out.join('\n');
}

const LIST_ITEM = /^[ \t]{0,3}(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)/;
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})/;
const INDENTED = /^(?: {4}|\t)/;

/**
 * Calls `prose` on every run of lines outside code blocks, fenced (to a closing line of the same
 * character at least as long, or to the end) or indented (after a blank line, outside a list),
 * and joins what it returns with the code as written. Code spans lie inside the prose: the
 * caller skips them.
 */
export function mapProse(markdown: string, prose: (text: string) => string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length) out.push(prose(run.join('\n')));
    run = [];
  };
  let inList = false;
  let previousBlank = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const blank = line.trim() === '';
    const fence = FENCE_OPEN.exec(line);
    if (fence && !(fence[1]![0] === '`' && line.slice(fence[0].length).includes('`'))) {
      const marker = fence[1]!;
      const close = new RegExp(`^[ \\t]*\\${marker[0]}{${marker.length},}[ \\t]*$`);
      let end = i + 1;
      while (end < lines.length && !close.test(lines[end]!)) end++;
      flush();
      out.push(...lines.slice(i, end + 1));
      i = end;
      previousBlank = false;
      continue;
    }
    if (!blank && previousBlank && !inList && i > 0 && INDENTED.test(line)) {
      let end = i;
      while (end + 1 < lines.length && (INDENTED.test(lines[end + 1]!) || lines[end + 1]!.trim() === '')) end++;
      flush();
      out.push(...lines.slice(i, end + 1));
      i = end;
      previousBlank = lines[end]!.trim() === '';
      continue;
    }
    run.push(line);
    if (LIST_ITEM.test(line)) inList = true;
    else if (!blank && previousBlank && !/^[ \t]/.test(line)) inList = false;
    previousBlank = blank;
  }
  flush();
  return out.join('\n');
}
