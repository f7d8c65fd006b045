import type { AnswerHost } from './answer-controller.js';
import { h } from './dom.js';
import { LOADER_STRINGS, type Strings } from './strings.js';

/**
 * What the box and the chat use of the element that loads them (`<bot-answer>`). Declared here, not
 * imported from the element, so that the element's module and this contract do not import each other.
 */
export type StageHost = HTMLElement & AnswerHost & {
  readonly mode: 'inline' | 'floating';
  readonly placeholder: string;
  readonly heading: string;
  readonly suggestions: string[];
  readonly images: boolean;
  readonly persist: boolean;
  open: boolean;
  /** `idle`, or the latest turn's state (`answering` while a question waits for the chat). */
  readonly state: string;
  readonly history?: string;
  /** `off`: no search as you type. */
  readonly search?: string;
  /** Where searches go; empty: beside `endpoint`. */
  readonly searchEndpoint?: string;
  readonly updateComplete: Promise<boolean>;
  ask(message: string): boolean;
  stop(): void;
  clear(): void;
  hide(): void;
};

/**
 * The element's files after the loader, each fetched once per page when first needed, and what each
 * exports to the loader. They are built separately (the build shortens `_private` names per file), so
 * this contract uses public names only.
 */
export interface Stages {
  /** `bot-answer-box.js`: the box around the thread. Inline boxes need it at once (and a box without a bot id, for its message); floating ones on intent. */
  box: BoxModule;
  /** `bot-answer-chat.js`: the thread, its requests, Markdown and sanitising, and search as you type. Loaded on intent. */
  chat: ChatModule;
}

export interface BoxModule {
  /** The box's default strings (the element puts the translation and `strings` over them). */
  strings: Partial<Strings>;
  Shell: new (host: StageHost, root: ShadowRoot) => Box;
}

/** The inline panel or the floating dialog, with its heading, suggestions, question field and status line. */
export interface Box {
  /** The conversation's container: the chat renders the turns into it. */
  readonly thread: HTMLElement;
  /** The question field. */
  readonly input: HTMLTextAreaElement;
  /**
   * Draws the panel for the element's properties, the strings in use and the chat's view (none before the chat
   * is here; `note`, the message that loading failed, goes in it), or the configuration message while there
   * is no bot id.
   */
  render(t: Strings, view: ShellView | undefined, note?: HTMLElement): HTMLElement;
  /** After the panel is in the page: opens or closes the dialog as `open` says. */
  updated(): void;
}

/** What the box shows around the thread, and the status line. */
export interface ShellView {
  /** Whether the thread has a turn (then the hint and Start over replace the suggestions). */
  turns: boolean;
  /** `idle`, or the latest turn's state (`answering` shows Stop). */
  state: string;
  /** The status line's text. */
  status: string;
}

export interface ChatModule {
  /** The chat's default strings. */
  strings: Partial<Strings>;
  /** Starts the chat of one element, with its search as you type. */
  attach(host: StageHost): Chat;
}

/** One element's search as you type: the box's question field as a combobox, and the pages found under it. */
export interface Search {
  /** Wires the box's question field (again, when the box made a new one) and draws the hits, with the strings in use. */
  render(box: Box, t: Strings): void;
}

/** One element's chat: its thread, its requests, and their rendering. */
export interface Chat {
  readonly state: string;
  /** The box's view of the thread, with the strings in use. */
  view(t: Strings): ShellView;
  /** Asks `message` (already checked and announced by `bot-answer-submit`), aborting any running question. */
  send(message: string): void;
  stop(): void;
  clear(): void;
  /**
   * Renders the thread into the box's thread container with the strings and language in use, then follows its
   * end, and the pages found as the visitor types under the box's question field.
   */
  render(box: Box, t: Strings, lang: string): void;
}

type Loaders = { [K in keyof Stages]: () => Promise<Stages[K]> };
let loaders: Loaders;
const pending: { [K in keyof Stages]?: Promise<unknown> } = {};
/** The files loaded so far (every element on the page shares them). */
export const loaded: Partial<Stages> = {};
/** The default strings of the loader and the files loaded so far. */
export const defaults = { ...LOADER_STRINGS } as Strings;

/** Sets how the files are loaded: bundler-visible `import()`s for the ES module, URLs beside the classic script. */
export function setLoaders(l: Loaders) {
  loaders = l;
}

/** Loads `stage` once for the page; after a failure, the next call tries again. */
export function loadStage<K extends keyof Stages>(stage: K): Promise<Stages[K]> {
  return (pending[stage] ??= loaders[stage]().then(
    // Its evaluation was one task; what uses it starts in the next, so neither blocks the page for long.
    (m) => new Promise((resolve) => setTimeout(() => resolve((Object.assign(defaults, m.strings), (loaded[stage] = m))))),
    (e) => {
      pending[stage] = undefined;
      throw e;
    },
  )) as Promise<Stages[K]>;
}
