import type { AnswerRequest } from '../protocol/types.js';

/**
 * The message as the cache compares it: trimmed, runs of white space as one space, case
 * folded (upper then lower case, so that `ß` and `SS`, `ς` and `σ` meet), in Unicode NFC.
 */
export function normaliseQuestion(message: string): string {
  return message.normalize('NFC').trim().replace(/\s+/gu, ' ').toUpperCase().toLowerCase();
}

const encoder = new TextEncoder();

/**
 * The cache key of a question: SHA-256 (hex) of the bot id, `inline_sources` and the
 * normalised message. Only the hash is stored or logged, never the question.
 */
export async function cacheKey(body: Pick<AnswerRequest, 'bot_id' | 'message' | 'inline_sources'>): Promise<string> {
  const text = JSON.stringify([body.bot_id, body.inline_sources !== false, normaliseQuestion(body.message)]);
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
