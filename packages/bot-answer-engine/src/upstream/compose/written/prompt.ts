import type { HistoryMessage, Source } from '../../../../../bot-answer/src/protocol/types.js';
import type { Passage } from '../../folder/knowledge-base.js';
import { plainHeading } from '../../folder/markdown-text.js';
import type { ChatMessage } from '../../model/chat-completions.js';
import { cleanMarkdown } from '../../folder/clean-markdown.js';
import { mapped } from '../../retrieval/mapped.js';
import { snippetOf } from '../extractive.js';

/**
 * What the model writes, alone, when the passages do not answer: an exact word it cannot
 * mistake for prose, so the server can tell at the start of the stream, before anything is
 * sent, and answer with the standard "not found" text instead.
 */
export const NO_ANSWER_SENTINEL = 'NO_ANSWER';

/**
 * The system prompt. It keeps the model to the numbered passages (nothing from elsewhere, no
 * guessing), makes it cite by number so the server can check every citation against the
 * passages it gave, keeps URLs out of its text (the citations carry the links, and a URL the
 * model writes is one it may have made up), gives it one exact way to say that the passages
 * do not answer, and tells it what the earlier messages are for: reading a follow-up, not
 * answering from.
 */
export const SYSTEM_PROMPT = [
  'You answer questions about a documentation set, using only the numbered passages given with each question.',
  '',
  '- Base every statement on the passages. Do not add facts from elsewhere, and do not guess.',
  '- After each statement, cite the passages it comes from by number in square brackets, like [1] or [1][3]. Use only the numbers given.',
  '- Do not write links or URLs: the citations link to the sources.',
  `- If the passages do not answer the question, reply with exactly ${NO_ANSWER_SENTINEL} and nothing else.`,
  '- If they answer part of it, answer that part and say what they do not cover.',
  '- Answer in the language of the question, in Markdown: short paragraphs, lists or tables where they help; copy commands and code exactly, in fenced code blocks.',
  '- Earlier messages are the conversation so far: use them to understand what a question refers to, but answer only from the passages given with it.',
].join('\n');

/** One numbered source of a prompt: a URL (a document, or a section of it) and its passages. */
export interface PromptSource {
  /** The number the model cites it by (1-based). */
  n: number;
  url: string;
  /** The source as the answer lists it (title with its section, snippet). */
  source: Source;
  passages: Passage[];
  /** Each passage's text as the prompt gives it: cleaned as quotes are (no HTML comments, metadata blocks, MDX statements, badges). */
  texts: string[];
}

/** Longest passage text put in a prompt, in characters; a longer one is cut between blocks. */
const MAX_PASSAGE_CHARS = 2000;
/**
 * Passage text one prompt gives at most, in characters: about 2,000 tokens, which a small model
 * (a 3B one with a 4k or 8k context) reads with the system prompt, the conversation and room to
 * answer. The best passage always goes in; the next ones while they fit.
 */
export const PROMPT_PASSAGE_CHARS = 8000;
/** Earlier messages put in a prompt, newest kept. */
const MAX_HISTORY_MESSAGES = 6;
/** Longest earlier message put in a prompt, in characters (its start is kept). */
const MAX_HISTORY_MESSAGE_CHARS = 2000;

/**
 * The passages a prompt gives the model, best first (at most `max`, and as many as fit in
 * `PROMPT_PASSAGE_CHARS` once cleaned), numbered by URL: passages that share a URL (sections of
 * one document, when sources link to documents) are one source.
 */
export function numberSources(passages: Passage[], max: number): PromptSource[] {
  const byUrl = new Map<string, PromptSource>();
  let room = PROMPT_PASSAGE_CHARS;
  for (const passage of passages.slice(0, Math.max(1, max))) {
    const text = clip(cleanMarkdown(passage.markdown, { definitions: passage.document.links }).trim(), MAX_PASSAGE_CHARS);
    if (!text) continue;
    if (byUrl.size > 0 && text.length > room) continue;
    room -= text.length;
    const known = byUrl.get(passage.url);
    if (known) {
      known.passages.push(passage);
      known.texts.push(text);
      continue;
    }
    const { document } = passage;
    const section = passage.url === document.source.url ? undefined : passage.headings[passage.headings.length - 1];
    const title = section ? `${document.source.title} › ${plainHeading(section)}` : document.source.title;
    const source: Source = { ...document.source, title, url: passage.url, snippet: snippetOf(passage.markdown) };
    byUrl.set(passage.url, { n: byUrl.size + 1, url: passage.url, source, passages: [passage], texts: [text] });
  }
  return [...byUrl.values()];
}

/**
 * The conversation sent to the model: the system prompt, the earlier turns (the newest few,
 * their citation links taken out, roles alternating as some chat templates require), then the
 * question with its numbered passages, the question last.
 */
export function buildMessages(sources: PromptSource[], question: string, history: readonly HistoryMessage[] = []): ChatMessage[] {
  const passages = mapped(sources, ({ n, passages, texts }) => {
    const [first] = passages;
    const label = [first!.document.source.title, ...mapped(first!.headings, plainHeading)].join(' › ');
    const text = texts.join('\n\n');
    return `[${n}] ${label}\n${text}`;
  }).join('\n\n');
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    ...conversation(history),
    { role: 'user', content: `Documentation passages:\n\n${passages}\n\nQuestion: ${question.trim()}` },
  ];
}

/** Earlier turns as chat messages: user first, alternating, ending with the assistant. */
function conversation(history: readonly HistoryMessage[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const { role, content } of history.slice(-MAX_HISTORY_MESSAGES)) {
    const text = clip((role === 'assistant' ? withoutCitations(content) : content).trim(), MAX_HISTORY_MESSAGE_CHARS);
    if (!text) continue;
    const last = messages[messages.length - 1];
    if (last?.role === role) last.content += `\n\n${text}`;
    else if (last || role === 'user') messages.push({ role, content: text });
  }
  if (messages[messages.length - 1]?.role === 'user') messages.pop();
  return messages;
}

/** Text without the inline citations of an earlier answer (`[[1]](url)`), whose numbers meant that answer's sources. */
export function withoutCitations(markdown: string): string {
  return markdown.replace(/[ \t]?\[\[\d{1,4}\]\]\([^()\s]*\)/g, '');
}

/** At most `max` characters of `text`, cut at the last blank line (or line end) before the limit when there is one. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const at = Math.max(cut.lastIndexOf('\n\n'), cut.lastIndexOf('\n'));
  return `${at > max / 2 ? cut.slice(0, at) : cut}\n…`;
}
