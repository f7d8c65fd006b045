/** The child side of lib/child.ts: answers the parent's questions and reports readiness. */
import { getHeapSpaceStatistics } from 'node:v8';

type Handler = (arg: unknown) => unknown | Promise<unknown>;

const handlers: Record<string, Handler> = {
  /**
   * Memory after a full GC (the child runs with --expose-gc), with the young generation's committed
   * size: V8 grows it once, up to its maximum, as allocation picks up, whatever stays alive.
   */
  mem() {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.physical_space_size ?? 0;
    return { ...process.memoryUsage(), young, gcExposed: gc !== undefined };
  },
  /** CPU time used so far (user and system, microseconds). */
  cpu() {
    return process.cpuUsage();
  },
};

process.on('message', (raw) => {
  const message = raw as { type: string; id: number; command: string; arg: unknown };
  if (message?.type !== 'ask') return;
  Promise.resolve()
    .then(() => {
      const handler = handlers[message.command];
      if (!handler) throw new Error(`unknown command ${message.command}`);
      return handler(message.arg);
    })
    .then(
      (value) => process.send?.({ type: 'reply', id: message.id, value }),
      (error: unknown) => process.send?.({ type: 'reply', id: message.id, value: { error: String(error) } }),
    );
});

/** Registers an extra command the parent may ask for. */
export function onAsk(command: string, handler: Handler): void {
  handlers[command] = handler;
}

/** Tells the parent the server listens at `url`. */
export function ready(url: string, keys: string[] = []): void {
  process.send?.({ type: 'ready', url, keys });
}

/** Reports a start-up failure to the parent and exits. */
export function fail(error: unknown): never {
  process.send?.({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
}
