import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RequestTimers } from '../../packages/bot-answer-proxy/src/proxy/timers.js';
import { sleep } from './helpers.js';

/** Runs `timers` until the upstream is aborted or `waitMs` pass; returns the reason and when. */
async function watch(make: (abort: AbortController) => RequestTimers, steps: (timers: RequestTimers) => Promise<void> = async () => {}, waitMs = 1000) {
  const abort = new AbortController();
  const started = Date.now();
  const aborted = new Promise<number>((resolve) => abort.signal.addEventListener('abort', () => resolve(Date.now() - started)));
  const timers = make(abort);
  timers.startHeaders();
  await steps(timers);
  const at = await Promise.race([aborted, sleep(waitMs).then(() => undefined)]);
  timers.clear();
  return { reason: timers.reason, at };
}

describe('request timers (headers, idle and total deadlines)', () => {
  it('headers timeout', async () => {
    const { reason } = await watch((a) => new RequestTimers(a, { headersTimeoutMs: 50, idleTimeoutMs: 1000, totalTimeoutMs: 5000 }, Date.now()));
    assert.equal(reason, 'upstream_headers_timeout');
  });

  it('idle timeout with the headers timeout off, well before the total timeout', async () => {
    const { reason, at } = await watch(
      (a) => new RequestTimers(a, { headersTimeoutMs: 0, idleTimeoutMs: 60, totalTimeoutMs: 5000 }, Date.now()),
      async (t) => t.headersArrived(),
    );
    assert.equal(reason, 'upstream_idle_timeout');
    assert.ok(at !== undefined && at < 1000);
  });

  it('data arriving keeps the idle timeout from firing; quiet then fires it', async () => {
    const { reason, at } = await watch(
      (a) => new RequestTimers(a, { headersTimeoutMs: 40, idleTimeoutMs: 80, totalTimeoutMs: 5000 }, Date.now()),
      async (t) => {
        t.headersArrived();
        for (let i = 0; i < 8; i++) {
          await sleep(30);
          t.touch();
        }
      },
    );
    assert.equal(reason, 'upstream_idle_timeout');
    assert.ok(at !== undefined && at >= 240 + 80 - 20, `fired after ${at} ms`);
  });

  it('total timeout, whatever the data', async () => {
    const { reason, at } = await watch(
      (a) => new RequestTimers(a, { headersTimeoutMs: 1000, idleTimeoutMs: 1000, totalTimeoutMs: 120 }, Date.now()),
      async (t) => {
        t.headersArrived();
        for (let i = 0; i < 8; i++) {
          await sleep(25);
          t.touch();
        }
      },
    );
    assert.equal(reason, 'total_timeout');
    assert.ok(at !== undefined && at < 1000);
  });

  it('nothing fires after clear, and a touch does not re-arm', async () => {
    const abort = new AbortController();
    const timers = new RequestTimers(abort, { headersTimeoutMs: 30, idleTimeoutMs: 30, totalTimeoutMs: 30 }, Date.now());
    timers.startHeaders();
    timers.clear();
    timers.touch();
    await sleep(80);
    assert.equal(abort.signal.aborted, false);
    assert.equal(timers.reason, undefined);
  });
});
