import type { Source } from '../../../packages/bot-answer/src/protocol/types.js';
import { chunkBytes, type Rng } from '../support/prng.js';
import type { Script } from '../support/hostile-upstream.js';

/**
 * Upstream stream dialects (every shape in the upstream notes), written by hand so each
 * byte is ours: random line endings (LF, CRLF, CR), a BOM, comments, unknown fields,
 * `data:` with and without the space, then split at random places.
 */
export const DIALECTS = ['named', 'typed', 'openai', 'cumulative', 'final', 'plain', 'json'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** What the proxy must deliver for a stream that ends well. */
export interface Expected {
  answer: string;
  /** Undefined when the dialect does not say. */
  answer_found?: boolean;
  /** Titles of the sources, in order; undefined when the dialect carries none. */
  sourceTitles?: string[];
}

const WORDS = ['policy', 'travel', 'Résumé', 'naïve', '日本語のテキスト', '😀', '👩‍💻', 'Ελληνικά', 'עברית', 'مرحبا', '\u202Eright', 'café', '∑x²', 'line', 'data:', 'event:', 'id:', '{"json":1}', '[DONE]', '\\n', '"quote"', ':colon', '`code`', '**bold**', '[[1]](https://wiki.example.com/a)', '\u00a0', 'tab\there', '0', 'true', 'null'];

/** A random answer: Markdown blocks with multi-byte characters, SSE-looking words and citations. */
export function randomAnswer(rng: Rng): { answer: string; sources: Source[]; answer_found: boolean } {
  const blocks: string[] = [];
  const nBlocks = rng.int(1, 4);
  for (let b = 0; b < nBlocks; b++) {
    const nWords = rng.int(1, 25);
    const words: string[] = [];
    for (let w = 0; w < nWords; w++) words.push(rng.pick(WORDS));
    const kind = rng.int(0, 4);
    const text = words.join(' ');
    blocks.push(kind === 0 ? `## ${text}` : kind === 1 ? `- ${text}\n- ${text}` : kind === 2 ? '```\n' + text + '\n```' : kind === 3 ? `| a | b |\n|---|---|\n| ${words[0]} | ${words.length} |` : text);
  }
  const nSources = rng.int(0, 3);
  const sources: Source[] = [];
  for (let i = 0; i < nSources; i++) sources.push({ title: `Source ${i} ${rng.pick(WORDS)}`, url: `https://wiki.example.com/doc/${i}`, app_name: 'Wiki', snippet: rng.pick(WORDS), modified_time: 1730243482 + i, author: { name: 'Dana Reyes', email: 'dana@example.com' } });
  return { answer: blocks.join('\n\n'), sources, answer_found: rng.chance(0.85) };
}

/** Splits text into pieces at random code-point boundaries (never inside a surrogate pair). */
export function splitText(text: string, rng: Rng): string[] {
  const chars = Array.from(text);
  const pieces: string[] = [];
  let i = 0;
  while (i < chars.length) {
    const n = rng.chance(0.2) ? 1 : rng.int(1, 40);
    pieces.push(chars.slice(i, i + n).join(''));
    i += n;
  }
  return pieces;
}

/** A plain-text piece that cannot be mistaken for JSON or an end marker (JSON.parse allows surrounding whitespace). */
const plainPiece = (piece: string) => (isJson(piece) || piece.trim() === '[DONE]' || /^\s*[{["]/.test(piece) ? '~' + piece : piece);

const isJson = (s: string) => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

/** SSE framing with a random (but per-stream consistent) style. */
class SseWriter {
  readonly parts: string[] = [];
  private readonly eol: string;
  private readonly space: string;
  constructor(private readonly rng: Rng) {
    this.eol = rng.pick(['\n', '\r\n', '\r', '\n', '\r\n']);
    this.space = rng.chance(0.7) ? ' ' : '';
    if (rng.chance(0.3)) this.parts.push('\uFEFF');
    if (rng.chance(0.3)) this.parts.push(`retry: 3000${this.eol}${this.eol}`);
  }
  /** One event; `data` may hold newlines (written as several `data:` lines). */
  event(data: string, name?: string): void {
    const lines: string[] = [];
    if (this.rng.chance(0.1)) lines.push(`: comment ${this.rng.int(0, 999)}`);
    if (this.rng.chance(0.1)) lines.push(`id: ${this.rng.int(0, 1e6)}`);
    if (name !== undefined) lines.push(`event:${this.space}${name}`);
    if (this.rng.chance(0.05)) lines.push('x-unknown-field: ignored');
    // Each data line keeps its leading spaces: one space after the colon is stripped by the parser.
    for (const line of data.split('\n')) lines.push(`data:${line === '' || line.startsWith(' ') || this.space ? ' ' : ''}${line}`);
    this.parts.push(lines.join(this.eol) + this.eol + this.eol);
  }
  comment(): void {
    this.parts.push(`:heartbeat${this.eol}${this.eol}`);
  }
}

export interface Encoded {
  /** Content type the upstream declares. */
  contentType: string;
  text: string;
  expected: Expected;
}

/**
 * The whole upstream body for one answer in one dialect. `withEnd` false leaves out the
 * end marker (a clean close of the body is then the end).
 */
export function encode(dialect: Dialect, answer: { answer: string; sources: Source[]; answer_found: boolean }, rng: Rng, withEnd = true): Encoded {
  const pieces = splitText(answer.answer, rng);
  const w = new SseWriter(rng);
  const titles = answer.sources.map((s) => s.title!);
  const sourcesKey = rng.pick(['sources', 'sources', 'citations', 'references', 'sourceDocuments']);
  let carriesSources = true;
  let carriesFound = true;
  switch (dialect) {
    case 'named': {
      const name = rng.pick(['answer', 'message', 'delta', 'token', 'chunk']);
      const field = rng.pick(['text', 'delta', 'content']);
      // One stream is either raw text or JSON throughout. Raw text is only unambiguous when it
      // does not look like JSON: a piece starting with { [ or " could be a broken JSON event.
      const raw = rng.chance(0.3) && pieces.every((p) => p.trim() === p && p !== '' && !isJson(p) && !/^[{["]/.test(p));
      for (const piece of pieces) {
        if (rng.chance(0.05)) w.comment();
        w.event(raw ? piece : JSON.stringify({ [field]: piece }), name);
      }
      if (titles.length) w.event(JSON.stringify(rng.chance(0.5) ? answer.sources : { [sourcesKey]: answer.sources }), 'sources');
      if (withEnd) w.event(JSON.stringify({ answer_found: answer.answer_found }), rng.pick(['done', 'end']));
      else carriesFound = false;
      break;
    }
    case 'typed': {
      for (const piece of pieces) {
        if (rng.chance(0.5)) w.event(JSON.stringify({ type: 'answer', text: piece }));
        else w.event(JSON.stringify({ event: 'token', data: piece }));
      }
      if (titles.length) w.event(JSON.stringify({ type: 'sources', sources: answer.sources }));
      if (withEnd) w.event(JSON.stringify({ type: 'end', answer_found: answer.answer_found }));
      else carriesFound = false;
      break;
    }
    case 'openai': {
      for (const piece of pieces) w.event(JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] }));
      w.event(JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
      if (withEnd) w.event('[DONE]');
      carriesSources = false;
      carriesFound = false;
      break;
    }
    case 'cumulative': {
      let soFar = '';
      for (const piece of pieces) {
        soFar += piece;
        w.event(JSON.stringify({ answer: soFar }));
      }
      if (titles.length) w.event(JSON.stringify({ answer: soFar, [sourcesKey]: answer.sources }));
      if (withEnd) w.event(JSON.stringify({ answer_found: answer.answer_found }), 'done');
      else carriesFound = false;
      break;
    }
    case 'final': {
      for (const piece of pieces) w.event(JSON.stringify({ type: 'answer', text: piece }));
      // The final complete object is authoritative, with or without an end marker after it.
      w.event(JSON.stringify({ answer: answer.answer, answer_found: answer.answer_found, sources: answer.sources }));
      if (withEnd) w.event(JSON.stringify({ type: 'end' }));
      break;
    }
    case 'plain': {
      for (const piece of pieces) {
        // An event whose data is JSON or an end marker would be read as such, not as text; plain upstreams send prose.
        w.event(plainPiece(piece));
      }
      carriesSources = false;
      carriesFound = false;
      break;
    }
    case 'json':
      return { contentType: 'application/json', text: JSON.stringify(answer), expected: { answer: answer.answer, answer_found: answer.answer_found, sourceTitles: titles } };
  }
  const expectedAnswer = dialect === 'plain' ? pieces.map(plainPiece).join('') : answer.answer;
  return {
    contentType: rng.pick(['text/event-stream', 'text/event-stream; charset=utf-8', 'text/event-stream;charset=UTF-8']),
    text: w.parts.join(''),
    expected: { answer: expectedAnswer, answer_found: carriesFound ? answer.answer_found : undefined, sourceTitles: carriesSources ? titles : undefined },
  };
}

const encoder = new TextEncoder();

/** The script that sends an encoded answer split at random byte boundaries. */
export function chunkedScript(encoded: Encoded, rng: Rng, ending: Script['ending'] = 'end'): Script {
  const bytes = encoder.encode(encoded.text);
  return { headers: { 'content-type': encoded.contentType }, chunks: chunkBytes(bytes, rng), gapMs: rng.chance(0.1) ? 0 : -1, ending };
}
