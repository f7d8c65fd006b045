import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_CHARS, MAX_SEARCH_LIMIT } from '../../../../bot-answer/src/protocol/search.js';
import type { ValidationIssue } from './validate.js';

/** The path of search as you type. */
export const SEARCH_PATH = '/v1/search';

/** A search request's query string, checked: the bot, the typed text and how many hits. */
export type SearchQuery = { ok: true; botId: string; text: string; limit: number } | { ok: false; detail: ValidationIssue[] };

/**
 * Reads `?bot_id=<id>&q=<text>&limit=<n>`: `bot_id` non-empty, `q` not blank and at most
 * `MAX_SEARCH_CHARS` characters (code points), `limit` (default `DEFAULT_SEARCH_LIMIT`) a whole
 * number from 1 to `MAX_SEARCH_LIMIT`. Every problem is reported at once, shaped like the
 * answer route's validation details.
 */
export function readSearchQuery(params: URLSearchParams): SearchQuery {
  const detail: ValidationIssue[] = [];
  const botId = params.get('bot_id') ?? '';
  const text = params.get('q') ?? '';
  const limitText = params.get('limit');
  if (botId.trim() === '') detail.push({ loc: ['query', 'bot_id'], msg: 'Field required: the bot to search', type: 'missing' });
  if (text.trim() === '') detail.push({ loc: ['query', 'q'], msg: 'Field required: the text to search for, not blank', type: 'missing' });
  else if ([...text].length > MAX_SEARCH_CHARS) detail.push({ loc: ['query', 'q'], msg: `String should have at most ${MAX_SEARCH_CHARS} characters`, type: 'string_too_long' });
  let limit = DEFAULT_SEARCH_LIMIT;
  if (limitText !== null) {
    limit = /^\d{1,3}$/.test(limitText) ? Number(limitText) : Number.NaN;
    if (!(limit >= 1 && limit <= MAX_SEARCH_LIMIT)) detail.push({ loc: ['query', 'limit'], msg: `Input should be a whole number from 1 to ${MAX_SEARCH_LIMIT}`, type: 'int_range' });
  }
  return detail.length ? { ok: false, detail } : { ok: true, botId, text, limit };
}
