import assert from 'node:assert/strict';
import { request, type IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { KEY, ask, readLive, startFixtureApi } from './helpers.js';

/** Servers, sockets and timers this process holds, by kind. */
function resources(): Record<string, number> {
  const counts: Record<string, number> = { TCPServerWrap: 0, TCPSocketWrap: 0, Timeout: 0 };
  for (const kind of process.getActiveResourcesInfo()) if (kind in counts) counts[kind]! += 1;
  return counts;
}

/** The counts once sockets closed by earlier tests are gone (no change for 50 ms). */
async function settledResources(): Promise<Record<string, number>> {
  let last = JSON.stringify(resources());
  for (let i = 0; i < 100; i++) {
    await sleep(50);
    const now = JSON.stringify(resources());
    if (now === last) break;
    last = now;
  }
  return JSON.parse(last) as Record<string, number>;
}

/**
 * Waits (up to a second) for the counts to come down to `baseline`, then checks that none is above
 * it: what the test made must be gone, while something held before it (an earlier test's timer)
 * may end meanwhile, which is no leak.
 */
async function assertBackTo(baseline: Record<string, number>): Promise<void> {
  const over = (): Record<string, number> => Object.fromEntries(Object.entries(resources()).filter(([kind, count]) => count > baseline[kind]!));
  for (let i = 0; i < 100 && Object.keys(over()).length; i++) await sleep(10);
  assert.deepEqual(over(), {}, `more held than before the test (before: ${JSON.stringify(baseline)})`);
}

/** A raw POST /v1/answer on its own connection (no pooling), resolving with the response once headers arrive. */
function rawPost(url: string, body: unknown): { response: Promise<IncomingMessage>; destroy: () => void } {
  const req = request(`${url}/v1/answer`, {
    method: 'POST',
    agent: false,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', resolve);
    req.on('error', reject);
  });
  response.catch(() => {});
  req.end(JSON.stringify(body));
  return { response, destroy: () => req.destroy() };
}

const STREAM = { message: 'How do I roll back a release or book a flight?', bot_id: 'demo', stream: true };

describe('lifecycle', { timeout: 20_000 }, () => {
  it('records each request: method, path, headers, parsed body, start and finish', async () => {
    const api = await startFixtureApi();
    try {
      const response = await ask(api, { message: 'How do I book a flight?', bot_id: 'demo' });
      await response.arrayBuffer();
      await fetch(`${api.url}/nope`).then((r) => r.arrayBuffer());
      await sleep(10);
      const [answer, notFound] = api.requests;
      assert.equal(api.requests.length, 2);
      assert.equal(answer!.id, 1);
      assert.equal(answer!.method, 'POST');
      assert.equal(answer!.path, '/v1/answer');
      assert.equal(answer!.headers.authorization, `Bearer ${KEY}`);
      assert.deepEqual(answer!.body, { message: 'How do I book a flight?', bot_id: 'demo' });
      assert.ok(answer!.finishedAt! >= answer!.startedAt);
      assert.equal(answer!.abortedAt, undefined);
      assert.deepEqual([notFound!.id, notFound!.method, notFound!.path], [2, 'GET', '/nope']);
    } finally {
      await api.close();
    }
  });

  it('sees a client abort mid-stream at once, stops writing and leaves no timer', async () => {
    const baseline = await settledResources();
    const api = await startFixtureApi({ paceMs: 40, heartbeatMs: 20 });
    try {
      const controller = new AbortController();
      const response = await ask(api, STREAM, {}, { signal: controller.signal });
      const { abortedAt } = await readLive(response, { stopAfter: 2, controller });
      const record = await api.waitForAbort();
      // Seen as an abort while the answer was still being paced out: the stream never reached its end.
      assert.ok(record.abortedAt! >= abortedAt!, 'the abort was recorded after the client left');
      assert.equal(record.finishedAt, undefined);
    } finally {
      await api.close();
    }
    await assertBackTo(baseline);
  });

  it('waitForAbort: finds an abort that came before the call, once; by id rejects for a finished request', async () => {
    const api = await startFixtureApi({ faults: { stallAfterChunks: 1 } });
    try {
      const first = rawPost(api.url, STREAM);
      await first.response;
      first.destroy();
      await sleep(50);
      const record = await api.waitForAbort();
      assert.equal(record.id, 1);
      assert.equal(await api.waitForAbort(1), record);

      const later = api.waitForAbort();
      const second = rawPost(api.url, STREAM);
      await second.response;
      second.destroy();
      assert.equal((await later).id, 2);

      // A caller may empty the log to save memory: ids go on, and so do the waits.
      api.requests.splice(0);
      const third = rawPost(api.url, STREAM);
      await third.response;
      third.destroy();
      assert.equal((await api.waitForAbort()).id, 3);

      const done = await startFixtureApi();
      try {
        await (await ask(done, { message: 'hi', bot_id: 'demo' })).arrayBuffer();
        await sleep(10);
        await assert.rejects(done.waitForAbort(1), /finished without being aborted/);
      } finally {
        await done.close();
      }
      const pending = api.waitForAbort();
      await api.close();
      await assert.rejects(pending, /closed/);
    } finally {
      await api.close();
    }
  });

  it('close() ends open streams, delayed requests and idle connections, leaving no socket or timer', async (t) => {
    const baseline = await settledResources();
    const stalled = await startFixtureApi({ heartbeatMs: 10, faults: { stallAfterChunks: 1, heartbeatDuringStall: true } });
    const delayed = await startFixtureApi({ faults: { headerDelayMs: 60_000 } });
    const limited = await startFixtureApi({ rateLimitPerMinute: 5 });
    // Whatever fails below, the servers must not outlive the test.
    t.after(() => Promise.all([stalled.close(), delayed.close(), limited.close()]));
    const streaming = rawPost(stalled.url, STREAM);
    const waiting = rawPost(delayed.url, STREAM);
    const idle = await ask(limited, { message: 'How do I book a flight?', bot_id: 'demo' });
    await idle.arrayBuffer();
    const res = await streaming.response;
    res.resume();
    await sleep(40);
    // The stall never ends and the delay outlasts the test's timeout: close() returns only by ending them.
    await Promise.all([stalled.close(), delayed.close(), limited.close()]);
    await assert.rejects(waiting.response);
    await assertBackTo(baseline);
    // Closing twice is harmless.
    await stalled.close();
  });

  it('close() right after start, with nothing served, is clean', async (t) => {
    const baseline = await settledResources();
    const api = await startFixtureApi();
    t.after(() => api.close());
    await api.close();
    await assertBackTo(baseline);
  });
});
