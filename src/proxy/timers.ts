import type { Failure } from './errors.js';

/** Timeouts of one proxied request; when one fires it records why and aborts the upstream request. */
export class RequestTimers {
  /** Why the upstream request was stopped, if the proxy stopped it. */
  reason?: Failure;
  private headers?: ReturnType<typeof setTimeout>;
  private idle?: ReturnType<typeof setTimeout>;
  private total?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly upstream: AbortController,
    private readonly limits: { headersTimeoutMs: number; idleTimeoutMs: number; totalTimeoutMs: number },
    startedAt: number,
  ) {
    if (limits.totalTimeoutMs > 0) {
      this.total = setTimeout(() => this.stop('total_timeout'), Math.max(0, startedAt + limits.totalTimeoutMs - Date.now()));
    }
  }

  /** Starts waiting for the upstream's response headers. */
  startHeaders(): void {
    if (this.limits.headersTimeoutMs > 0) this.headers = setTimeout(() => this.stop('upstream_headers_timeout'), this.limits.headersTimeoutMs);
  }

  /** Headers arrived: from now on the idle timeout counts. */
  headersArrived(): void {
    clearTimeout(this.headers);
    this.headers = undefined;
    this.touch();
  }

  /** Upstream data arrived: restart the idle timeout. */
  touch(): void {
    if (this.limits.idleTimeoutMs <= 0 || this.reason) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.stop('upstream_idle_timeout'), this.limits.idleTimeoutMs);
  }

  /** Stops the upstream request for `failure` (the first reason wins). */
  stop(failure: Failure): void {
    if (!this.reason) this.reason = failure;
    this.clear();
    this.upstream.abort();
  }

  /** Aborts the upstream request without a failure (the client left, or the answer is complete). */
  abortUpstream(): void {
    this.clear();
    this.upstream.abort();
  }

  clear(): void {
    clearTimeout(this.headers);
    clearTimeout(this.idle);
    clearTimeout(this.total);
    this.headers = this.idle = this.total = undefined;
  }
}
