/**
 * A local HTTP server speaking the Chat Completions API's streaming format as the providers
 * document it (OpenAI's `chat.completion.chunk` frames, a role-only first delta, a last chunk
 * with `finish_reason`, the `stream_options.include_usage` chunk with empty `choices`, then
 * `data: [DONE]`; Ollama's OpenAI-compatible variant repeats the role in every delta), driven
 * by a script per request so tests can split frames at awkward bytes, fail, hang or break off.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** One request the model server received. */
export interface ModelRequest {
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    messages: Array<{ role: string; content: string }>;
    temperature?: number;
    max_tokens?: number;
  };
  /** performance.now() when its body had arrived. */
  receivedAt: number;
  /** performance.now() when the client closed the connection before the response ended. */
  abortedAt?: number;
}

/** A step of a scripted response body: bytes to write, a pause, what to do to the connection, or a call (the benchmark's clock). */
export type Step = string | Buffer | { waitMs: number } | { hang: true } | { destroy: true } | { call: () => void };

/** How to answer one request: a status, headers, and the body's steps (the end follows the last one). */
export interface Script {
  status?: number;
  headers?: Record<string, string>;
  steps: Step[];
}

export interface FakeModel {
  /** The base URL to configure, ending in `/v1`. */
  url: string;
  requests: ModelRequest[];
  /** The script for the next requests (each request takes the first; the last stays). */
  answer(...scripts: Script[]): void;
  /** Resolves when request `index` (0-based) was aborted by the client. */
  waitForAbort(index: number): Promise<ModelRequest>;
  close(): Promise<void>;
}

export async function startFakeModel(): Promise<FakeModel> {
  const requests: ModelRequest[] = [];
  let scripts: Script[] = [stream(['Hello.'])];
  const abortWaiters = new Map<number, (r: ModelRequest) => void>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found","type":"invalid_request_error"}}');
        return;
      }
      const record: ModelRequest = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), receivedAt: performance.now() };
      const index = requests.push(record) - 1;
      res.on('close', () => {
        if (!res.writableFinished) {
          record.abortedAt = performance.now();
          abortWaiters.get(index)?.(record);
        }
      });
      const script = scripts.length > 1 ? scripts.shift()! : scripts[0]!;
      void play(res, script);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    answer: (...next) => {
      scripts = next;
    },
    waitForAbort: (index) =>
      new Promise((resolve) => {
        const record = requests[index];
        if (record?.abortedAt !== undefined) resolve(record);
        else abortWaiters.set(index, resolve);
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function play(res: ServerResponse, script: Script): Promise<void> {
  res.writeHead(script.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...script.headers });
  res.flushHeaders();
  for (const step of script.steps) {
    if (res.destroyed) return;
    if (typeof step === 'string' || Buffer.isBuffer(step)) {
      res.write(step);
      // A pause between writes, so each arrives in its own read.
      await sleep(2);
    } else if ('call' in step) step.call();
    else if ('waitMs' in step) await sleep(step.waitMs);
    else if ('hang' in step) return;
    else if ('destroy' in step) {
      res.destroy();
      return;
    }
  }
  res.end();
}

/** Options of a scripted stream. */
export interface StreamOptions {
  /** Ollama's shape: the role in every delta. Default: OpenAI's, a role-only first delta. */
  ollama?: boolean;
  /** The usage chunk (default on). */
  usage?: { prompt_tokens: number; completion_tokens: number } | false;
  finishReason?: string;
  /** Leave out `data: [DONE]`. */
  noDone?: boolean;
}

const frame = (data: unknown): string => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** A chat completion streamed as the providers send it: one chunk per token in `tokens`. */
export function frames(tokens: string[], options: StreamOptions = {}): string[] {
  const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1767225600, model: 'test-model', system_fingerprint: 'fp_test' };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => frame({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null });
  const out: string[] = [];
  if (!options.ollama) out.push(chunk({ role: 'assistant', content: '', refusal: null }));
  for (const token of tokens) out.push(chunk(options.ollama ? { role: 'assistant', content: token } : { content: token }));
  out.push(chunk(options.ollama ? { role: 'assistant', content: '' } : {}, options.finishReason ?? 'stop'));
  const usage = options.usage ?? { prompt_tokens: 812, completion_tokens: tokens.length };
  if (usage) out.push(frame({ ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }));
  if (!options.noDone) out.push(frame('[DONE]'));
  return out;
}

/** A script streaming `tokens` as {@link frames}. */
export function stream(tokens: string[], options: StreamOptions = {}): Script {
  return { steps: frames(tokens, options) };
}

/**
 * The frames' bytes cut where a careless reader breaks: inside every multi-byte character,
 * inside `data:`, between the two line ends of a frame, and inside the JSON.
 */
export function awkward(framesText: string[]): Buffer[] {
  const bytes = Buffer.from(framesText.join(''), 'utf8');
  const cuts = new Set<number>();
  // A continuation byte (10xxxxxx): the cut falls inside a character.
  for (let i = 1; i < bytes.length; i++) if ((bytes[i]! & 0xc0) === 0x80) cuts.add(i);
  for (let at = bytes.indexOf('data:'); at >= 0; at = bytes.indexOf('data:', at + 1)) cuts.add(at + 3);
  for (let at = bytes.indexOf('\n\n'); at >= 0; at = bytes.indexOf('\n\n', at + 1)) cuts.add(at + 1);
  for (let at = bytes.indexOf('"content"'); at >= 0; at = bytes.indexOf('"content"', at + 1)) cuts.add(at + 5);
  const sorted = [...cuts].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let start = 0;
  for (const cut of sorted) {
    parts.push(bytes.subarray(start, cut));
    start = cut;
  }
  parts.push(bytes.subarray(start));
  return parts;
}

/** An error response as OpenAI-compatible servers send one. */
export function httpError(status: number, body: unknown = { error: { message: 'failed', type: 'server_error', code: null } }, headers: Record<string, string> = {}): Script {
  return { status, headers: { 'content-type': 'application/json', ...headers }, steps: [JSON.stringify(body)] };
}
