import type { Failure } from './errors.js';

type Timer = ReturnType<typeof setTimeout>;

/** `promise`, or after `ms` what `late()` gives, whichever comes first; the timer is cleared either way. */
export function deadline<T>(promise: Promise<T>, ms: number, late: () => T | Promise<T>): Promise<T> {
  let timer: Timer | undefined;
  const timeout = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(late()), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Timeouts of one proxied request (headers, idle, total), for any upstream client; when one fires
 * it records why and aborts the upstream request. Data arriving costs a clock read, not a new timer:
 * the idle timer, when it wakes, re-arms itself for whatever quiet time is left.
 */
export class RequestTimers {
  /** Why the upstream request was stopped, if the proxy stopped it. */
  reason?: Failure;
  private headers?: Timer;
  private idle?: Timer;
  private readonly total?: Timer;
  private lastDataAt = 0;
  private cleared = false;

  constructor(
    /** Aborts the upstream request. */
    private readonly upstream: { abort(): void },
    private readonly limits: { headersTimeoutMs: number; idleTimeoutMs: number; totalTimeoutMs: number },
    startedAt: number,
  ) {
    if (limits.totalTimeoutMs > 0) this.total = setTimeout(() => this.stop('total_timeout'), startedAt + limits.totalTimeoutMs - Date.now());
  }

  /** Starts waiting for the upstream's response headers. */
  startHeaders(): void {
    if (this.limits.headersTimeoutMs > 0 && !this.cleared) this.headers = setTimeout(() => this.stop('upstream_headers_timeout'), this.limits.headersTimeoutMs);
  }

  /** Headers arrived: from now on the idle timeout counts. */
  headersArrived(): void {
    clearTimeout(this.headers);
    this.touch();
  }

  /** Upstream data arrived: restart the idle timeout. */
  touch(): void {
    if (this.limits.idleTimeoutMs <= 0 || this.reason || this.cleared) return;
    this.lastDataAt = Date.now();
    this.idle ??= setTimeout(this.idleCheck, this.limits.idleTimeoutMs);
  }

  /** Stops the upstream request for `failure` (the first reason wins). */
  stop(failure: Failure): void {
    if (!this.reason) this.reason = failure;
    this.abortUpstream();
  }

  /** Aborts the upstream request without a failure (the client left, or the answer is complete). */
  abortUpstream(): void {
    this.clear();
    this.upstream.abort();
  }

  /** Stops every timeout for good. */
  clear(): void {
    this.cleared = true;
    clearTimeout(this.headers);
    clearTimeout(this.idle);
    clearTimeout(this.total);
  }

  private readonly idleCheck = (): void => {
    const left = this.lastDataAt + this.limits.idleTimeoutMs - Date.now();
    this.idle = left > 0 ? setTimeout(this.idleCheck, left) : undefined;
    if (left <= 0) this.stop('upstream_idle_timeout');
  };
}
