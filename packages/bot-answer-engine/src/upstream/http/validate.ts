import type { AnswerRequest, HistoryMessage } from '../../../../bot-answer/src/protocol/types.js';

/** One validation problem, shaped like FastAPI's (pydantic's) 422 details. */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** A request body with the spec's defaults filled in. */
export type ValidAnswerRequest = Required<AnswerRequest>;

/**
 * A failed validation: 422 for the spec's fields (the status the real API documented for them),
 * 400 for a `history` of the wrong shape, 413 for one over the limits.
 */
export type ValidationResult = { ok: true; request: ValidAnswerRequest } | { ok: false; status: 400 | 413 | 422; detail: ValidationIssue[] };

/** Most earlier messages one request may carry. */
export const MAX_HISTORY_MESSAGES = 20;
/** Most characters in all of a request's earlier messages together. */
export const MAX_HISTORY_CHARS = 32_000;

/**
 * Validates the body of `POST /v1/answer`: JSON content type, a JSON object, `message` and
 * `bot_id` non-empty strings, `inline_sources` (default true) and `stream` (default false)
 * booleans when present, and `history` (beyond the spec; default none) a list of
 * `{role: "user" | "assistant", content: string}` within the limits. Every problem is reported
 * at once; unknown fields are ignored.
 */
export function validateAnswerRequest(contentType: string | undefined, body: Buffer): ValidationResult {
  if (!isJsonContentType(contentType)) {
    return fail({ loc: ['header', 'content-type'], msg: 'Content type must be application/json', type: 'content_type' });
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'the body is not valid UTF-8';
    return fail({ loc: ['body'], msg: `JSON decode error: ${reason}`, type: 'json_invalid' });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail({ loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', type: 'model_attributes_type' });
  }
  const fields = value as Record<string, unknown>;
  const detail: ValidationIssue[] = [];
  for (const name of ['message', 'bot_id'] as const) {
    const field = fields[name];
    if (field === undefined) detail.push({ loc: ['body', name], msg: 'Field required', type: 'missing' });
    else if (typeof field !== 'string') detail.push({ loc: ['body', name], msg: 'Input should be a valid string', type: 'string_type' });
    else if (field.trim() === '') detail.push({ loc: ['body', name], msg: 'String should have at least 1 non-blank character', type: 'string_too_short' });
  }
  for (const name of ['inline_sources', 'stream'] as const) {
    if (name in fields && typeof fields[name] !== 'boolean') {
      detail.push({ loc: ['body', name], msg: 'Input should be a valid boolean', type: 'bool_type' });
    }
  }
  if (detail.length) return { ok: false, status: 422, detail };
  const history = validateHistory(fields.history);
  if (!Array.isArray(history)) return { ok: false, ...history };
  return {
    ok: true,
    request: {
      message: fields.message as string,
      bot_id: fields.bot_id as string,
      inline_sources: (fields.inline_sources as boolean | undefined) ?? true,
      stream: (fields.stream as boolean | undefined) ?? false,
      history,
    },
  };
}

/** The earlier messages, or why they cannot be taken. */
function validateHistory(value: unknown): HistoryMessage[] | { status: 400 | 413; detail: ValidationIssue[] } {
  if (value === undefined || value === null) return [];
  const shape = 'History should be a list of {role: "user" | "assistant", content: string}, oldest first';
  if (!Array.isArray(value)) return { status: 400, detail: [{ loc: ['body', 'history'], msg: shape, type: 'list_type' }] };
  const detail: ValidationIssue[] = [];
  let chars = 0;
  value.forEach((item: unknown, i) => {
    const { role, content } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    if (role !== 'user' && role !== 'assistant') detail.push({ loc: ['body', 'history', i, 'role'], msg: 'Input should be "user" or "assistant"', type: 'literal_error' });
    if (typeof content !== 'string') detail.push({ loc: ['body', 'history', i, 'content'], msg: 'Input should be a valid string', type: 'string_type' });
    else chars += content.length;
  });
  if (detail.length) return { status: 400, detail };
  if (value.length > MAX_HISTORY_MESSAGES || chars > MAX_HISTORY_CHARS) {
    const msg = `History should have at most ${MAX_HISTORY_MESSAGES} messages and ${MAX_HISTORY_CHARS} characters in all`;
    return { status: 413, detail: [{ loc: ['body', 'history'], msg, type: 'too_long' }] };
  }
  return (value as HistoryMessage[]).map(({ role, content }) => ({ role, content }));
}

function isJsonContentType(header: string | undefined): boolean {
  return header?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

function fail(issue: ValidationIssue): ValidationResult {
  return { ok: false, status: 422, detail: [issue] };
}
