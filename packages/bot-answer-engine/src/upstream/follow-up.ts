import type { HistoryMessage } from '../../../bot-answer/src/protocol/types.js';

/** The visitor's questions before this one that a follow-up is searched with, newest last. */
const CONTEXT_QUESTIONS = 2;
/** Longest context, in characters (the newest text kept). */
const MAX_CONTEXT_CHARS = 1000;

/**
 * The retrieval context of a question asked after others: the visitor's last questions
 * before it. A follow-up ("Does that work on Windows too?") names too little to be found on its
 * own; the question it follows names what "that" is. Earlier answers are left out: they quote
 * whole passages, whose words would outweigh the question's.
 */
export function retrievalContext(history: readonly HistoryMessage[]): string | undefined {
  const questions = history.filter((m) => m.role === 'user' && m.content.trim() !== '').slice(-CONTEXT_QUESTIONS);
  const context = questions.map((m) => m.content.trim()).join('\n');
  return context ? context.slice(-MAX_CONTEXT_CHARS) : undefined;
}
