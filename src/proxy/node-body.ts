import type { Readable } from 'node:stream';

/** Bytes buffered from the socket before it is paused until the reader catches up. */
const MAX_BUFFERED = 16 * 1024;

/**
 * A Node readable (an `IncomingMessage`) as a pull-based Web stream. Unlike a stream that
 * errors as soon as the connection breaks, it first hands over every byte that arrived, then
 * the error, so nothing received is lost. Cancelling it runs `onCancel` (default: destroy).
 */
export function webStreamOf(readable: Readable & { complete?: boolean }, onCancel: () => void = () => readable.destroy()): ReadableStream<Uint8Array> {
  const queue: Uint8Array[] = [];
  let buffered = 0;
  let ended = false;
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
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (queue.length === 0 && !ended && !failure) await new Promise<void>((resolve) => (wake = resolve));
        const chunk = queue.shift();
        if (chunk) {
          buffered -= chunk.byteLength;
          if (buffered < MAX_BUFFERED && readable.isPaused()) readable.resume();
          controller.enqueue(chunk);
        } else if (ended) controller.close();
        else controller.error(failure);
      },
      cancel() {
        queue.length = 0;
        onCancel();
      },
    },
    { highWaterMark: 0 },
  );
}
