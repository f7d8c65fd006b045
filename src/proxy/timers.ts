import { DeadlineTimer } from './deadline-timer.js';
import type { Failure } from './errors.js';

/**
 * Timeouts of one proxied request; when one fires it records why and aborts the upstream request.
 * The three deadlines (headers, idle, total) share one timer, armed for the earliest of them:
 * data arriving only moves the idle deadline, so a chunk costs a clock read, not a new timer.
 */
export class RequestTimers {
  /** Why the upstream request was stopped, if the proxy stopped it. */
  reason?: Failure;
  private headersAt = Infinity;
  private idleAt = Infinity;
  private readonly totalAt: number;
  private readonly timer = new DeadlineTimer(() => this.fire());
  private cleared = false;

  constructor(
    /** Aborts the upstream request: an `AbortController`, or a `LightSignal`. */
    private readonly upstream: { abort(): void },
    private readonly limits: { headersTimeoutMs: number; idleTimeoutMs: number; totalTimeoutMs: number },
    startedAt: number,
  ) {
    // Armed by startHeaders, which follows at once: one timer instead of two.
    this.totalAt = limits.totalTimeoutMs > 0 ? startedAt + limits.totalTimeoutMs : Infinity;
  }

  /** Starts waiting for the upstream's response headers. */
  startHeaders(): void {
    if (this.limits.headersTimeoutMs > 0) this.headersAt = Date.now() + this.limits.headersTimeoutMs;
    this.arm();
  }

  /** Headers arrived: from now on the idle timeout counts. */
  headersArrived(): void {
    this.headersAt = Infinity;
    this.touch();
  }

  /** Upstream data arrived: restart the idle timeout. */
  touch(): void {
    if (this.limits.idleTimeoutMs <= 0 || this.reason || this.cleared) return;
    this.idleAt = Date.now() + this.limits.idleTimeoutMs;
    // A later deadline needs no new timer: the armed one wakes up earlier and re-arms.
    this.arm();
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

  /** Stops every timeout for good. */
  clear(): void {
    this.cleared = true;
    this.timer.clear();
  }

  /** Arms the timer for the earliest deadline, unless it is already armed for that time or sooner. */
  private arm(): void {
    if (!this.cleared) this.timer.arm(Math.min(this.headersAt, this.idleAt, this.totalAt));
  }

  private fire(): void {
    const now = Date.now();
    // The deadline that passed first names the failure.
    let failure: Failure | undefined;
    let first = Infinity;
    if (this.headersAt <= now && this.headersAt < first) [failure, first] = ['upstream_headers_timeout', this.headersAt];
    if (this.idleAt <= now && this.idleAt < first) [failure, first] = ['upstream_idle_timeout', this.idleAt];
    if (this.totalAt <= now && this.totalAt < first) failure = 'total_timeout';
    if (failure) this.stop(failure);
    else this.arm();
  }
}
