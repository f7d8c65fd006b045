/**
 * One timer for a deadline that moves: `arm(at)` re-arms it only when `at` is sooner than the armed
 * time, so pushing a deadline later costs nothing; the owner checks what is due when it fires and
 * arms again.
 */
export class DeadlineTimer {
  private timer?: ReturnType<typeof setTimeout>;
  /** When the armed timer fires (Infinity: not armed). */
  private at = Infinity;

  constructor(private readonly onFire: () => void) {}

  /** Makes the timer fire at `at` (ms since the epoch), unless it is armed for then or sooner already. */
  arm(at: number): void {
    if (at >= this.at) return;
    clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.at = Infinity;
      this.onFire();
    }, Math.max(0, at - Date.now()));
  }

  /** Disarms the timer. */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.at = Infinity;
  }
}
