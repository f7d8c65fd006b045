import type { AnswerRequest, HistoryMessage } from '../../../bot-answer/src/protocol/types.js';
import type { UpstreamHistory } from './config.js';

/** Longest earlier question, and answer, folded into a message, in characters (their start kept). */
const FOLD_QUESTION_CHARS = 500;
const FOLD_ANSWER_CHARS = 300;
/** Longest folded conversation in all, in characters: the newest turns that fit. */
const FOLD_MAX_CHARS = 2000;

/**
 * The request the upstream receives, by the `upstreamHistory` setting: the four fields of the
 * upstream spec, plus `history` only with `send`; with `fold`, the conversation is appended to
 * the message as text.
 */
export function upstreamRequest(body: AnswerRequest, policy: UpstreamHistory): AnswerRequest {
  const { history, ...spec } = body;
  if (!history?.length || policy === 'drop') return spec;
  if (policy === 'send') return { ...spec, history };
  return { ...spec, message: foldHistory(spec.message, history) };
}

/**
 * The message with the conversation before it appended, for an upstream that takes one message:
 *
 * ```text
 * And for contractors?
 *
 * Earlier in this conversation:
 * Q: How many vacation days do I get?
 * A: Full-time employees get 25 days…
 * ```
 *
 * The question stays first, so an upstream that searches the message finds its words first;
 * earlier answers lose their inline citations, whose numbers meant their own sources.
 */
export function foldHistory(message: string, history: readonly HistoryMessage[]): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const { role, content } = history[i]!;
    const text = role === 'user' ? clip(content, FOLD_QUESTION_CHARS) : clip(content.replace(/[ \t]?\[\[\d{1,4}\]\]\([^()\s]*\)/g, ''), FOLD_ANSWER_CHARS);
    if (!text) continue;
    const line = `${role === 'user' ? 'Q' : 'A'}: ${text}`;
    if (size + line.length > FOLD_MAX_CHARS) break;
    size += line.length + 1;
    lines.unshift(line);
  }
  return lines.length ? `${message}\n\nEarlier in this conversation:\n${lines.join('\n')}` : message;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}
