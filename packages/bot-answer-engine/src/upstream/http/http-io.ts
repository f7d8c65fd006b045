import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** The request body, or `tooLarge` once more than `maxBytes` arrived (counted while reading). */
export type BodyResult = { body: Buffer } | { tooLarge: true };

/**
 * Reads the request body up to `maxBytes`. Past the limit it stops keeping bytes and settles
 * at once; the rest of the body is still read and dropped, so the connection stays usable and
 * the client gets its 413 instead of a reset. Rejects when the client goes away mid-body.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyResult): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    if (Number.isFinite(declared) && declared > maxBytes) settle({ tooLarge: true });
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        settle({ tooLarge: true });
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => settle({ body: Buffer.concat(chunks) }));
    req.on('close', () => {
      if (!settled && !req.complete) {
        settled = true;
        reject(new Error('client closed the connection while sending the body'));
      }
    });
  });
}

/** Sends a JSON response with a length, so keep-alive clients know where it ends. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Parsed JSON when the body is JSON, else its text: what the recorded request shows. */
export function bodyForRecord(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
