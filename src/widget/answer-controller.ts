import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Owns the element's one running request: starting another, or disconnecting, aborts it. */
export class AnswerController implements ReactiveController {
  private ctrl?: AbortController;

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** Aborts the running request and returns the signal for the next one. */
  next(): AbortSignal {
    this.abort();
    return (this.ctrl = new AbortController()).signal;
  }

  /** Aborts the running request, if any. */
  abort() {
    this.ctrl?.abort();
  }

  hostDisconnected() {
    this.abort();
  }
}
