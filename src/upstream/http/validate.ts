import type { AnswerRequest } from '../../protocol/types.js';

/** One validation problem, shaped like FastAPI's (pydantic's) 422 details. */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** A request body with the spec's defaults filled in. */
export type ValidAnswerRequest = Required<AnswerRequest>;

export type ValidationResult = { ok: true; request: ValidAnswerRequest } | { ok: false; detail: ValidationIssue[] };

/**
 * Validates the body of `POST /v1/answer`: JSON content type, a JSON object, `message` and
 * `bot_id` non-empty strings, `inline_sources` (default true) and `stream` (default false)
 * booleans when present. Every problem is reported at once; unknown fields are ignored.
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
  if (detail.length) return { ok: false, detail };
  return {
    ok: true,
    request: {
      message: fields.message as string,
      bot_id: fields.bot_id as string,
      inline_sources: (fields.inline_sources as boolean | undefined) ?? true,
      stream: (fields.stream as boolean | undefined) ?? false,
    },
  };
}

function isJsonContentType(header: string | undefined): boolean {
  return header?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

function fail(issue: ValidationIssue): ValidationResult {
  return { ok: false, detail: [issue] };
}
