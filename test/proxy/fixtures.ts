/** Upstream stream fixtures, one per dialect in the upstream notes, all carrying the same answer. */

/** The answer, in pieces: multi-byte characters (2, 3 and 4 bytes), a citation, blank lines. */
export const PIECES = ['Hello', ' wörld', ' 😀', ' — 日本', '語 [[1]](https://a.example/x)', '\n\nSecond line: “quoted”.'];
export const ANSWER = PIECES.join('');

export const RAW_SOURCES = [
  { url: 'https://a.example/x', title: 'Travel policy', app_name: 'Confluence', author: { name: 'Dana Reyes', email: 'dana@example.com', photo: 'https://avatars.example.com/dana.png' }, snippet: 'Book through the portal…', modified_time: 1730243482 },
  { url: 'https://b.example/y', title: 'Expenses 💶' },
];
export const SOURCES = RAW_SOURCES;

const ev = (name: string | undefined, data: unknown) => `${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
const raw = (name: string | undefined, text: string) => `${name ? `event: ${name}\n` : ''}${text.split('\n').map((line) => `data: ${line}\n`).join('')}\n`;
const soFar = (i: number) => PIECES.slice(0, i + 1).join('');

export interface Fixture {
  name: string;
  wire: string;
  answer: string;
  sources: unknown[];
  answerFound: boolean;
  /** The outcome the proxy derives: not found with sources is `not_sure`. */
  outcome: 'answered' | 'not_sure' | 'refused';
}

export const FIXTURES: Fixture[] = [
  {
    name: 'named events with JSON text',
    wire: ': hello\n\n' + PIECES.map((p) => ev('delta', { text: p })).join('') + ev('sources', { sources: RAW_SOURCES }) + ev('done', { answer_found: true }),
    answer: ANSWER,
    sources: SOURCES,
    answerFound: true,
    outcome: 'answered',
  },
  {
    name: 'named token events with raw text, citations array, end',
    wire: PIECES.map((p, i) => raw(i % 2 ? 'token' : 'chunk', p)).join('') + ev('citations', RAW_SOURCES) + ev('end', { answer_found: false }),
    answer: ANSWER,
    sources: SOURCES,
    answerFound: false,
    outcome: 'not_sure',
  },
  {
    name: 'named answer/message events with content and delta fields',
    wire: PIECES.map((p, i) => ev(i % 2 ? 'message' : 'answer', i % 2 ? { delta: p } : { content: p })).join('') + ev('sources', RAW_SOURCES) + ev('done', {}),
    answer: ANSWER,
    sources: SOURCES,
    answerFound: true,
    outcome: 'answered',
  },
  {
    name: 'unnamed JSON with a type field',
    wire: ev(undefined, { type: 'start' }) + PIECES.map((p) => ev(undefined, { type: 'answer', text: p })).join('') + ev(undefined, { type: 'sources', sources: RAW_SOURCES }) + ev(undefined, { type: 'end' }),
    answer: ANSWER,
    sources: SOURCES,
    answerFound: true,
    outcome: 'answered',
  },
  {
    name: 'unnamed JSON with an event field and data',
    wire: PIECES.map((p) => ev(undefined, { event: 'token', data: p })).join('') + ev(undefined, { event: 'sources', data: RAW_SOURCES }) + ev(undefined, { event: 'done', answer_found: true }),
    answer: ANSWER,
    sources: SOURCES,
    answerFound: true,
    outcome: 'answered',
  },
  {
    name: 'OpenAI-style chunks ending with [DONE]',
    wire:
      ev(undefined, { id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] }) +
      PIECES.map((p) => ev(undefined, { id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: p }, finish_reason: null }] })).join('') +
      ev(undefined, { id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], citations: ['https://a.example/x', 'javascript:alert(1)'] }) +
      'data: [DONE]\n\n',
    answer: ANSWER,
    sources: [{ url: 'https://a.example/x' }],
    answerFound: true,
    outcome: 'answered',
  },
  {
    name: 'cumulative answers, no end marker',
    wire: PIECES.map((_, i) => ev(undefined, { answer: soFar(i) })).join('') + ev(undefined, { references: RAW_SOURCES }),
    answer: ANSWER,
    sources: SOURCES,
    answerFound: true,
    outcome: 'answered',
  },
  {
    name: 'pieces then a final complete object (authoritative)',
    wire: PIECES.map((p) => ev(undefined, { text: p })).join('') + ev(undefined, { answer: ANSWER, answer_found: true, sources: RAW_SOURCES }) + ev('end', {}),
    answer: ANSWER,
    sources: SOURCES,
    answerFound: true,
    outcome: 'answered',
  },
  {
    name: 'plain-text data lines, no end marker',
    wire: PIECES.map((p) => raw(undefined, p)).join(''),
    answer: ANSWER,
    sources: [],
    answerFound: true,
    outcome: 'answered',
  },
  {
    name: 'plain-text data lines with CRLF line endings and a sources event',
    wire: (PIECES.map((p) => raw(undefined, p)).join('') + ev('sourceDocuments', RAW_SOURCES.map((s) => ({ pageContent: s.snippet, metadata: { source: s.url, title: s.title } })))).replace(/\n/g, '\r\n'),
    answer: ANSWER,
    sources: RAW_SOURCES.map((s) => ({ url: s.url, title: s.title, ...(s.snippet ? { snippet: s.snippet } : {}) })),
    answerFound: true,
    outcome: 'answered',
  },
];
