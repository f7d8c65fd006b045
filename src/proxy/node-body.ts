import type { Readable } from 'node:stream';
import type { BodyReader, BodyReadResult } from './config.js';

/** Bytes buffered from the socket before it is paused until the reader catches up. */
const MAX_BUFFERED = 16 * 1024;

/**
 * A reader over a Node readable (an `IncomingMessage`), without a Web stream in between. Unlike
 * a stream that errors as soon as the connection breaks, it first hands over every byte that
 * arrived, then the error, so nothing received is lost. Cancelling it runs `onCancel` (default: destroy).
 */
export function nodeReader(readable: Readable & { complete?: boolean }, onCancel: () => void = () => readable.destroy()): BodyReader {
  const queue: Uint8Array[] = [];
  let buffered = 0;
  let ended = false;
  let cancelled = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  readable.on('data', (chunk: Buffer) => {
    queue.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    buffered += chunk.byteLength;
    if (buffered >= MAX_BUFFERED) readable.pause();
    notify();
  });
  readable.once('end', () => {
    ended = true;
    notify();
  });
  readable.once('error', (error) => {
    failure ??= error;
    notify();
  });
  readable.once('close', () => {
    if (!ended && readable.complete !== true) failure ??= new Error('The connection closed before the message ended.');
    notify();
  });
  return {
    async read(): Promise<BodyReadResult> {
      while (queue.length === 0 && !ended && !failure && !cancelled) await new Promise<void>((resolve) => (wake = resolve));
      const chunk = queue.shift();
      if (chunk) {
        buffered -= chunk.byteLength;
        if (buffered < MAX_BUFFERED && readable.isPaused()) readable.resume();
        return { done: false, value: chunk };
      }
      if (ended || cancelled) return { done: true, value: undefined };
      throw failure;
    },
    async cancel(): Promise<void> {
      if (cancelled) return;
      cancelled = true;
      queue.length = 0;
      notify();
      onCancel();
    },
  };
}

/** {@link nodeReader} as a pull-based Web stream. */
export function webStreamOf(readable: Readable & { complete?: boolean }, onCancel?: () => void): ReadableStream<Uint8Array> {
  const reader = nodeReader(readable, onCancel);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let result: BodyReadResult;
        try {
          result = await reader.read();
        } catch (error) {
          controller.error(error);
          return;
        }
        if (result.done) controller.close();
        else controller.enqueue(result.value);
      },
      cancel() {
        return reader.cancel();
      },
    },
    { highWaterMark: 0 },
  );
}
