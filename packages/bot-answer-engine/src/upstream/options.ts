/**
 * Options of the local Answer API. Shared as a contract with the proxy's tests, the
 * end-to-end tests and the benchmarks, which start it in-process.
 */

/**
 * Stream dialects the local Answer API can speak for `stream: true`, one per shape listed
 * in the upstream notes, so the proxy can be tested against each:
 * - `named`: named SSE events (`event: delta` / `sources` / `done` / `error`) with JSON data (default).
 * - `typed`: unnamed `data:` JSON with a type field (`{"type":"answer","text":...}`, `{"type":"sources",...}`, `{"type":"end"}`).
 * - `openai`: `{"choices":[{"delta":{"content":...}}]}` chunks, ending with `data: [DONE]`.
 * - `cumulative`: every event carries the whole answer so far (`{"answer": "...so far"}`).
 * - `final`: deltas, then one final complete `{answer, answer_found, sources}` object.
 * - `plain`: plain-text `data:` lines appended as text, no JSON.
 * - `json`: ignores `stream: true` and answers `application/json` in one piece.
 */
export type StreamDialect = 'named' | 'typed' | 'openai' | 'cumulative' | 'final' | 'plain' | 'json';

/** Faults for tests; all off by default, set only programmatically or by an explicit CLI flag. */
export interface FaultOptions {
  /** Wait this long before sending response headers. */
  headerDelayMs?: number;
  /** After this many answer pieces, stop writing (the connection stays open) for `stallMs` (default: forever). */
  stallAfterChunks?: number;
  stallMs?: number;
  /** Keep writing heartbeat comments during the stall (a live but silent upstream). Default false: the stall is silent. */
  heartbeatDuringStall?: boolean;
  /** After this many answer pieces, destroy the connection without a clean end. */
  closeAfterChunks?: number;
  /** Insert one event whose JSON data is malformed, after the first piece. */
  malformedEvent?: boolean;
  /** Insert one event of this many bytes of data, after the first piece. */
  oversizedEventBytes?: number;
  /** Write multi-byte UTF-8 characters split across separate socket writes. */
  splitMultibyte?: boolean;
  /** Answer every request with this status (e.g. 500, 502) and a JSON error body. */
  status?: number;
}

/** How the local Answer API is started. Every field is optional. */
export interface AnswerApiOptions {
  /** Port to listen on; 0 (default in-process) picks a free one. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Accepted API keys. Empty or unset: one random key is generated. */
  keys?: string[];
  /** Keys rejected with 401 like deleted keys. */
  revokedKeys?: string[];
  /** Folder of documents (Markdown, built HTML) for bot `demo`. Default: the sample knowledge base. */
  kb?: string;
  /** A live site bot `demo` answers from instead of `kb`: crawled (sitemap, robots.txt) into the index, refreshed on schedule. */
  kbSite?: string;
  /** Most pages kept of `kbSite`. Default 1000. */
  kbSiteMaxPages?: number;
  /** Milliseconds between crawls that refresh `kbSite` (conditional requests); 0: only at start. Default one day. */
  kbSiteRefreshMs?: number;
  /**
   * For a folder used as it is (files without `url` front-matter): the address it is published
   * at; a file's URL is this plus its path (`guide/setup.md` -> `${kbBaseUrl}/guide/setup`).
   */
  kbBaseUrl?: string;
  /** What replaces `.md` / `.mdx` in formed URLs: `''` drops it (default), `'.html'`, or `'/'`. */
  kbUrlExtension?: string;
  /** `app_name` of documents that do not set one. Default: the folder's name. */
  kbAppName?: string;
  /**
   * Sources link to the passage's section (`url#heading-slug`). Default `'auto'`: for URLs
   * formed from `kbBaseUrl`, not for URLs written in front-matter.
   */
  kbAnchors?: boolean | 'auto';
  /**
   * The folder the on-disk indexes go in, one SQLite file per bot (`<bot>-<hash>.sqlite`, the
   * hash of its documents folder and settings). Default: `node_modules/.cache/bot-answer/`
   * under the current folder when it has a `node_modules`, else the user's cache folder.
   */
  kbIndex?: string;
  /** Watch the knowledge-base folders and re-index when files change. Default true. */
  watch?: boolean;
  /** Path of a bots config file defining more bots, each with its own folder. */
  botsFile?: string;
  /** Stream dialect for `stream: true`. Default `named`. */
  dialect?: StreamDialect;
  /** When false, streams end by closing the body, without any end marker. Default true. */
  endMarker?: boolean;
  /** Milliseconds between streamed pieces; 0 turns pacing off. Default about 30. */
  paceMs?: number;
  /** Words per streamed piece. Default a few (3). */
  wordsPerChunk?: number;
  /** Heartbeat comment after this many quiet milliseconds while streaming. Default 15000. */
  heartbeatMs?: number;
  /** Requests per minute per workspace (all keys and bots); unset or 0: no limit. The real service allowed 1. */
  rateLimitPerMinute?: number;
  /** Largest request body in bytes before 413. Default 64 KiB. */
  maxBodyBytes?: number;
  faults?: FaultOptions;
  /**
   * Written answers (opt-in): the OpenAI-compatible base (ending in `/v1` for most servers:
   * OpenAI, Ollama's `http://127.0.0.1:11434/v1`, vLLM, llama.cpp's server, LM Studio) of the
   * model that writes answers from the passages retrieval finds. Needs `llmModel`. Unset: answers
   * quote the docs.
   */
  llmBaseUrl?: string;
  /** The model that writes answers, as its server names it (`gpt-4o-mini`, `llama3.2`). */
  llmModel?: string;
  /** The model server's API key, if it needs one. Never logged or sent anywhere else. */
  llmApiKey?: string;
  /** Longest wait for the model's first token, and then between tokens; past it the docs answer (before any text) or the answer ends with an error. Default 20000. */
  llmTimeoutMs?: number;
  /** Sampling temperature; unset: the model's default (some models take only theirs). */
  llmTemperature?: number;
  /** Most tokens one answer may take (`max_tokens`); unset: the model's default. */
  llmMaxTokens?: number;
  /** Most passages given to the model for one question (the best retrieval found, within about 2,000 tokens of text). Default 8. */
  llmPassages?: number;
  /**
   * Whether a question retrieval is "not sure" of goes to the model too, with the closest pages'
   * passages: the model answers from them, citing them, or says they do not answer and the
   * visitor gets the "not sure" answer as without it. Off by default: such questions cost no
   * model call and get their related pages. A refused (off-topic) question never reaches the model.
   */
  llmAskWhenNotSure?: boolean;
  /** Log lines go here; default: nowhere in-process, stdout from the CLI. */
  log?: (line: string) => void;
}

/** How one request was answered (with a model set up): its log line's last part. */
export interface AnswerNote {
  /** `written` once the model's text is being sent; `docs` for the extractive answer. */
  mode: 'docs' | 'written';
  /** Why the docs answered although a model is set up. */
  fallback?: string;
  /** Why a written answer broke off after it began. */
  failed?: string;
  /** Tokens the model's server counted (`stream_options.include_usage`). */
  usage?: { prompt: number; completion: number };
  /** Why the model stopped (`stop`, `length`, ...). */
  finish?: string;
}

/** One request as the local Answer API saw it; tests read these to check what the proxy sent. */
export interface RecordedRequest {
  id: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, else its text; undefined when empty or over the size limit. */
  body: unknown;
  startedAt: number;
  /** Set when the client went away before the response ended. */
  abortedAt?: number;
  finishedAt?: number;
  /** How it was answered, when a model is set up. */
  answer?: AnswerNote;
}

/** A running local Answer API. */
export interface RunningAnswerApi {
  /** Base URL, e.g. `http://127.0.0.1:40123` (requests go to `${url}/v1/answer`). */
  url: string;
  /** The accepted keys (the generated one when none was given). */
  keys: string[];
  /** How it answers: quoting the docs, or written by a model (named). */
  answers: { mode: 'extractive' } | { mode: 'written'; model: string };
  /** The bots it answers for: id, knowledge-base folder, index file and how many documents it holds now. */
  bots: ReadonlyArray<{ id: string; kb: string; index: string; documents: number }>;
  /** Every request seen, in order. Callers may empty it (ids keep counting). */
  requests: RecordedRequest[];
  /**
   * Resolves when the given request (by id) is aborted by its client, at once if it already
   * was; rejects if it finishes normally. Without an id: the earliest aborted request not yet
   * returned by an id-less call, waiting for the next abort when there is none (so an abort
   * that happened just before the call is not missed). Pending waits reject on `close()`.
   */
  waitForAbort(id?: number): Promise<RecordedRequest>;
  /** Stops listening, ends open connections, clears every timer. */
  close(): Promise<void>;
}
