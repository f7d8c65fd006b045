import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chunkedScript, DIALECTS, encode, randomAnswer, type Dialect, type Expected } from './corpus/dialects.js';
import { startHostileUpstream, type HostileUpstream, type Script } from './support/hostile-upstream.js';
import { RUN } from './support/options.js';
import { mapPool, waitFor } from './support/pool.js';
import { createRng, type Rng } from './support/prng.js';
import { ask, replay, type ProxyReply, type Shown } from './support/proxy-client.js';
import { findKey, KEY } from './support/secret.js';
import { startProxy, type RunningProxy } from './support/system.js';
import { count } from './support/tally.js';

/**
 * Hostile and broken upstream streams through the real proxy, checked at the HTTP level:
 * every dialect x many seeded chunkings must arrive exactly; every broken stream must end
 * in a clear error and never in a clean `done`.
 */

const IDLE_MS = 1500;
const TOTAL_MS = 30_000;
/** The never-ending stream test uses a second proxy with a short total limit. */
const SHORT_TOTAL_MS = 2500;
const scripts = new Map<string, Script>();
let upstream: HostileUpstream;
let proxy: RunningProxy;
let shortProxy: RunningProxy;
let trapHits = 0;
let trap: HostileUpstream;

before(async () => {
  upstream = await startHostileUpstream({ key: KEY, script: (body) => scripts.get((body as { message?: string })?.message ?? '') ?? { status: 404, headers: { 'content-type': 'application/json' }, chunks: ['{"detail":"no such bot"}'] } });
  trap = await startHostileUpstream({ key: KEY, script: () => (trapHits++, { chunks: ['event: delta\ndata: {"text":"TRAP"}\n\n'] }) });
  proxy = await startProxy({ apiKey: KEY, baseUrl: upstream.url, rateLimitPerMinute: 0, idleTimeoutMs: IDLE_MS, headersTimeoutMs: 1000, totalTimeoutMs: TOTAL_MS, heartbeatMs: 200 });
  shortProxy = await startProxy({ apiKey: KEY, baseUrl: upstream.url, rateLimitPerMinute: 0, idleTimeoutMs: IDLE_MS, totalTimeoutMs: SHORT_TOTAL_MS });
});

after(async () => {
  await proxy?.close();
  await shortProxy?.close();
  await upstream?.close();
  await trap?.close();
});

/** Everything a reply shows must be free of the key; returns the parsed view. */
function view(reply: ProxyReply, where: string): Shown {
  const leaks = findKey(JSON.stringify(reply.headers) + reply.body, where);
  assert.deepEqual(leaks, [], `key leaked in ${where}`);
  return replay(reply.events);
}

/** Checks a stream that ended well upstream; returns a description of what is wrong, or undefined. */
function checkComplete(reply: ProxyReply, expected: Expected): string | undefined {
  if (reply.status !== 200) return `status ${reply.status} ${reply.body.slice(0, 200)}`;
  const shown = view(reply, 'stream reply');
  if (shown.protocolFaults.length) return shown.protocolFaults.join('; ');
  if (shown.terminal !== 'done') return `terminal ${shown.terminal ?? 'none'} ${JSON.stringify(shown.error)}`;
  if (shown.text !== expected.answer) return `text differs at ${firstDiff(shown.text, expected.answer)}: got ${JSON.stringify(shown.text.slice(0, 120))} want ${JSON.stringify(expected.answer.slice(0, 120))}`;
  if (expected.answer_found !== undefined && shown.answer_found !== expected.answer_found) return `answer_found ${shown.answer_found} want ${expected.answer_found}`;
  if (expected.sourceTitles) {
    const titles = (shown.sources ?? []).map((s) => s.title);
    if (JSON.stringify(titles) !== JSON.stringify(expected.sourceTitles)) return `sources ${JSON.stringify(titles)} want ${JSON.stringify(expected.sourceTitles)}`;
  }
  return undefined;
}

/** A broken stream passes when it ends in an error (event or status) and shows a prefix of the truth, never a clean done. */
function checkBroken(reply: ProxyReply, expectedText: string | undefined): string | undefined {
  if (reply.status >= 400) {
    view(reply, 'error reply');
    return /"error":\{"code":"[a-z_]+","message":"[^"]+"/.test(reply.body) ? undefined : `status ${reply.status} without a clear JSON error: ${reply.body.slice(0, 200)}`;
  }
  if (reply.status !== 200) return `status ${reply.status}`;
  const shown = view(reply, 'broken stream reply');
  if (shown.protocolFaults.length) return shown.protocolFaults.join('; ');
  if (shown.terminal === 'done') {
    count('falseDones');
    return `clean done for a broken stream (text ${JSON.stringify(shown.text.slice(0, 80))})`;
  }
  if (shown.terminal !== 'error') return `no terminal event (network: ${reply.networkError ?? 'clean end'})`;
  if (!shown.error?.code || !shown.error.message) return `unclear error ${JSON.stringify(shown.error)}`;
  if (expectedText !== undefined && !expectedText.startsWith(shown.text)) {
    count('textMismatches');
    return `shown text is not a prefix of what was sent: got ${JSON.stringify(shown.text.slice(-80))}`;
  }
  return undefined;
}

function firstDiff(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

let caseNo = 0;
/** Registers a script and asks the proxy to play it. */
async function play(script: Script, extra: Partial<Parameters<typeof ask>[1]> = {}, via = proxy): Promise<ProxyReply> {
  const message = `case-${++caseNo}`;
  scripts.set(message, script);
  try {
    return await ask(via.url, { message, timeoutMs: TOTAL_MS + 5000, ...extra });
  } finally {
    scripts.delete(message);
  }
}

function report(failures: string[], what: string): void {
  assert.equal(failures.length, 0, `${failures.length} ${what} failed; first:\n${failures.slice(0, 8).join('\n')}`);
}

describe('every upstream dialect x random chunkings, through the proxy', () => {
  for (const [d, dialect] of DIALECTS.entries()) {
    test(`${dialect}: ${RUN.chunkingsPerDialect} chunkings arrive exactly, once, in order`, async () => {
      const seeds = Array.from({ length: RUN.chunkingsPerDialect }, (_, i) => RUN.seed * 7919 + d * 1_000_003 + i);
      const failures: string[] = [];
      await mapPool(seeds, 24, async (seed) => {
        const rng = createRng(seed);
        const encoded = encode(dialect, randomAnswer(rng), rng, dialect === 'json' || rng.chance(0.8));
        const reply = await play(chunkedScript(encoded, rng), { stream: true });
        const problem = checkComplete(reply, encoded.expected);
        count('streamsChecked');
        if (problem) {
          count('textMismatches');
          failures.push(`${dialect} seed ${seed}: ${problem}`);
        }
      });
      report(failures, `${dialect} streams`);
    });
  }
});

/** A dialect's bytes cut at a random point before the end, then `ending`. */
function cutScript(dialect: Dialect, rng: Rng, ending: 'reset' | 'stall'): { script: Script; expected: Expected } {
  const encoded = encode(dialect, randomAnswer(rng), rng, true);
  const bytes = new TextEncoder().encode(encoded.text);
  const cut = rng.int(0, Math.max(0, bytes.length - 2));
  const script = chunkedScript({ ...encoded, text: '' }, rng, ending);
  script.chunks = [bytes.subarray(0, cut)].filter((c) => c.length > 0);
  return { script, expected: encoded.expected };
}

describe('broken upstream streams end in a clear error, never a clean done', () => {
  const perDialect = RUN.full ? 200 : 30;
  test(`connection reset at a random byte, ${perDialect} per dialect`, async () => {
    const failures: string[] = [];
    const cases = DIALECTS.flatMap((dialect, d) => Array.from({ length: perDialect }, (_, i) => ({ dialect, seed: RUN.seed + 31 * d + 7 * i + 1 })));
    await mapPool(cases, 16, async ({ dialect, seed }) => {
      const { script, expected } = cutScript(dialect, createRng(seed), 'reset');
      const reply = await play(script);
      // Once the complete answer object of the `final` dialect has arrived it is authoritative: a reset after it loses nothing.
      const authoritative = dialect === 'final' && checkComplete(reply, expected) === undefined;
      const problem = authoritative ? undefined : checkBroken(reply, dialect === 'json' ? undefined : expected.answer);
      count('faultsSurvived');
      if (problem) failures.push(`${dialect} reset seed ${seed}: ${problem}`);
    });
    report(failures, 'reset streams');
  });

  test('upstream stalls mid-stream: idle timeout ends it with an error, upstream request aborted', async () => {
    const failures: string[] = [];
    const cases = DIALECTS.filter((d) => d !== 'json').flatMap((dialect) => Array.from({ length: RUN.full ? 20 : 4 }, (_, i) => ({ dialect, seed: RUN.seed + i * 13 })));
    await mapPool(cases, 24, async ({ dialect, seed }) => {
      const { script, expected } = cutScript(dialect, createRng(seed), 'stall');
      const started = Date.now();
      const reply = await play(script);
      const problem = checkBroken(reply, expected.answer);
      count('faultsSurvived');
      if (problem) failures.push(`${dialect} stall seed ${seed}: ${problem}`);
      if (Date.now() - started > TOTAL_MS + 2000) failures.push(`${dialect} stall took ${Date.now() - started} ms`);
    });
    report(failures, 'stalled streams');
    await upstream.settled(3000);
  });

  test('headers and then nothing', async () => {
    const reply = await play({ chunks: [], ending: 'stall' });
    assert.equal(checkBroken(reply, ''), undefined);
    count('faultsSurvived');
  });

  test('headers that never come: 504 or an error event', async () => {
    const reply = await play({ headerDelayMs: 3000, chunks: ['event: delta\ndata: {"text":"late"}\n\n'] });
    assert.equal(checkBroken(reply, ''), undefined);
    if (reply.status >= 400) assert.equal(reply.status, 504);
    count('faultsSurvived');
  });

  test('garbage bytes between events: exact text or a clear error', async () => {
    const failures: string[] = [];
    const seeds = Array.from({ length: RUN.full ? 300 : 60 }, (_, i) => RUN.seed + 5000 + i);
    await mapPool(seeds, 16, async (seed) => {
      const rng = createRng(seed);
      const encoded = encode('named', randomAnswer(rng), rng, true);
      const eol = encoded.text.includes('\r\n') ? '\r\n' : encoded.text.includes('\r') ? '\r' : '\n';
      // Garbage lines whose field name is unknown (so a spec-following parser ignores them), random bytes incl. invalid UTF-8.
      const events = encoded.text.split(eol + eol);
      const withGarbage: Uint8Array[] = [];
      for (const e of events) {
        withGarbage.push(new TextEncoder().encode(e + eol + eol));
        if (rng.chance(0.3)) {
          const junk = Array.from({ length: rng.int(1, 200) }, () => rng.int(0, 255)).filter((b) => b !== 10 && b !== 13);
          withGarbage.push(Uint8Array.from([0x7a, ...junk, 10]));
        }
      }
      const reply = await play({ headers: { 'content-type': 'text/event-stream' }, chunks: withGarbage });
      // Lines with unknown field names are ignored by the SSE rules: the exact answer, or else a clear error.
      const complete = checkComplete(reply, encoded.expected);
      const broken = complete === undefined ? undefined : checkBroken(reply, encoded.expected.answer);
      count('faultsSurvived');
      if (broken) failures.push(`garbage seed ${seed}: ${complete}; ${broken}`);
    });
    report(failures, 'garbage streams');
  });

  test('a malformed JSON event: exact text around it, or a clear error', async () => {
    const failures: string[] = [];
    for (const bad of ['{"text": "unterminated', '{text: 1}', 'undefined', '{"text": 5}', '{"text": null}', '\u0000\u0001', '{"text":"\\ud800"}']) {
      const reply = await play({ chunks: ['event: delta\ndata: {"text":"Hello "}\n\n', `event: delta\ndata: ${bad}\n\n`, 'event: delta\ndata: {"text":"world"}\n\n', 'event: done\ndata: {"answer_found":true}\n\n'] });
      const shown = view(reply, 'malformed event reply');
      count('faultsSurvived');
      // Data that is not JSON may be raw text in a named-event stream: shown as sent, or skipped, or a clear error.
      const asText = bad === '{"text":"\\ud800"}' ? '\ud800' : bad.startsWith('{') ? '' : bad;
      const ok = (shown.terminal === 'done' && (shown.text === 'Hello world' || shown.text === `Hello ${asText}world`)) || (shown.terminal === 'error' && 'Hello world'.startsWith(shown.text));
      if (!ok) failures.push(`${JSON.stringify(bad)}: ${shown.terminal} ${JSON.stringify(shown.text)}`);
    }
    report(failures, 'malformed-event streams');
  });

  test('a 5 MB event: passed whole or refused with a clear error; the proxy lives on', async () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    const reply = await play({ chunks: ['event: delta\ndata: {"text":"start "}\n\n', `event: delta\ndata: ${JSON.stringify({ text: big })}\n\n`, 'event: done\ndata: {"answer_found":true}\n\n'] });
    const shown = view(reply, '5 MB reply');
    count('faultsSurvived');
    assert.ok((shown.terminal === 'done' && shown.text === 'start ' + big) || (shown.terminal === 'error' && shown.text === 'start '), `terminal ${shown.terminal}, ${shown.text.length} chars`);
    const health = await ask(proxy.url, { method: 'GET', path: '/healthz', rawBody: '' });
    assert.equal(health.status, 200);
  });

  test('a never-ending event is cut off with an error and the upstream request aborted', async () => {
    const slab = 'y'.repeat(64 * 1024);
    const before = upstream.requests.length;
    const reply = await play({ chunks: ['event: delta\ndata: {"text":"'], forever: () => slab, gapMs: 1 });
    const shown = view(reply, 'never-ending event reply');
    count('faultsSurvived');
    assert.equal(shown.terminal, 'error');
    const seen = upstream.requests[before]!;
    assert.ok(await waitFor(() => seen.abortedAt !== undefined, 2000), 'upstream request not aborted');
  });

  test('a never-ending stream of small events is ended by the total timeout', async () => {
    const before = upstream.requests.length;
    const started = Date.now();
    const reply = await play({ chunks: [], forever: () => 'event: delta\ndata: {"text":"z"}\n\n', gapMs: 20 }, {}, shortProxy);
    assert.ok(Date.now() - started < SHORT_TOTAL_MS + 3000, `took ${Date.now() - started} ms`);
    const shown = view(reply, 'endless stream reply');
    count('faultsSurvived');
    assert.equal(shown.terminal, 'error');
    assert.ok(/^z*$/.test(shown.text));
    const seen = upstream.requests[before]!;
    assert.ok(await waitFor(() => seen.abortedAt !== undefined, 2000), 'upstream request not aborted');
  });

  test('events after the upstream said done are not passed on', async () => {
    const reply = await play({ chunks: ['event: delta\ndata: {"text":"one"}\n\nevent: done\ndata: {"answer_found":true}\n\nevent: delta\ndata: {"text":"two"}\n\nevent: done\ndata: {"answer_found":false}\n\n'] });
    const shown = view(reply, 'after-done reply');
    count('faultsSurvived');
    assert.deepEqual(shown.protocolFaults, []);
    assert.equal(shown.terminal, 'done');
    assert.equal(shown.text, 'one');
  });

  test('an upstream error event mid-stream becomes a terminal error without upstream internals', async () => {
    const reply = await play({ chunks: ['event: delta\ndata: {"text":"part"}\n\n', `event: error\ndata: {"message":"Traceback (most recent call last): key=${KEY}","detail":"/srv/app/secret.py line 3"}\n\n`] });
    const shown = view(reply, 'upstream error event reply');
    count('faultsSurvived');
    assert.equal(shown.terminal, 'error');
    assert.equal(shown.text, 'part');
    assert.doesNotMatch(reply.body, /Traceback|secret\.py/);
  });
});

describe('upstream statuses and headers are mapped, never passed raw', () => {
  const cases: Array<{ status: number; want: number; headers?: Record<string, string>; body: string }> = [
    { status: 401, want: 502, body: JSON.stringify({ detail: `Invalid API key ${KEY}` }) },
    { status: 403, want: 502, body: `Forbidden for Bearer ${KEY}` },
    { status: 402, want: 502, body: '{"detail":"Payment required"}' },
    { status: 404, want: 404, body: '{"detail":"Bot not found"}' },
    { status: 422, want: 400, body: JSON.stringify({ detail: [{ loc: ['header', 'authorization'], msg: `bad ${KEY}`, type: 'value_error' }] }) },
    { status: 429, want: 429, headers: { 'retry-after': '7' }, body: '{"detail":"Rate limit exceeded"}' },
    { status: 500, want: 502, body: `Traceback (most recent call last):\n  File "/srv/app.py"\nKeyError: ${KEY}` },
    { status: 503, want: 502, body: '<html>Service Unavailable</html>' },
  ];
  for (const c of cases) {
    test(`upstream ${c.status} -> ${c.want}, no key, no upstream body`, async () => {
      for (const stream of [true, false]) {
        const reply = await play({ status: c.status, headers: { 'content-type': 'application/json', 'set-cookie': 'upstream=1', ...c.headers }, chunks: [c.body] }, { stream });
        view(reply, `upstream ${c.status} reply`);
        count('faultsSurvived');
        assert.equal(reply.status, c.want, reply.body);
        assert.match(reply.body, /^\{"error":\{"code":"[a-z_]+","message":"[^"]+"/);
        assert.doesNotMatch(reply.body, /Traceback|srv|Rate limit exceeded|Bot not found|Payment/);
        assert.equal(reply.headers['set-cookie'], undefined);
        if (c.want === 429) assert.ok(Number(reply.headers['retry-after']) >= 1);
      }
    });
  }

  test('a redirect is not followed', async () => {
    const before = trapHits;
    for (const status of [301, 302, 307, 308]) {
      const reply = await play({ status, headers: { location: `${trap.url}/v1/answer` }, chunks: [] });
      view(reply, 'redirect reply');
      count('faultsSurvived');
      assert.ok(reply.status >= 500 && reply.status < 600, `status ${reply.status}`);
    }
    assert.equal(trapHits, before, 'the proxy followed a redirect');
  });

  test('200 with HTML, or an empty body: a clear error or an empty answer, never a crash', async () => {
    for (const script of [{ headers: { 'content-type': 'text/html' }, chunks: ['<html><script>alert(1)</script></html>'] }, { headers: { 'content-type': 'text/event-stream' }, chunks: [] }, { headers: { 'content-type': 'application/json' }, chunks: ['{"answer": 5}'] }, { headers: { 'content-type': 'application/json' }, chunks: ['{"answer": "trunc'] }] as Script[]) {
      const reply = await play(script);
      count('faultsSurvived');
      const shown = view(reply, 'odd 200 reply');
      assert.doesNotMatch(reply.body, /<script>/);
      const ok = reply.status >= 500 || shown.terminal === 'error' || (shown.terminal === 'done' && shown.text === '');
      assert.ok(ok, `status ${reply.status} ${reply.body.slice(0, 200)}`);
    }
  });

  test('no client header reaches the upstream except what it needs', async () => {
    const before = upstream.requests.length;
    await play({ chunks: ['event: done\ndata: {}\n\n'] }, { headers: { cookie: 'session=s3cret', authorization: 'Bearer visitor-token', 'x-forwarded-for': '6.6.6.6', 'proxy-authorization': 'Basic eA==' } });
    const seen = upstream.requests[before]!;
    assert.equal(seen.headers.cookie, undefined);
    assert.equal(seen.headers.authorization, `Bearer ${KEY}`);
    assert.equal(seen.headers['proxy-authorization'], undefined);
  });

  test('debug logs never hold the key either, even when the upstream echoes it encoded or cut short', async () => {
    const debugProxy = await startProxy({ apiKey: KEY, baseUrl: upstream.url, rateLimitPerMinute: 0, idleTimeoutMs: IDLE_MS, debug: true });
    try {
      const echoes = [
        `Invalid token ${encodeURIComponent(KEY)}`,
        `Invalid header ${Buffer.from(`Bearer ${KEY}`).toString('base64')}`,
        // Long enough that a 200-character note would cut the key in the middle.
        `${'padding '.repeat(22)}${KEY}`,
      ];
      for (const echo of echoes) {
        for (const script of [
          { chunks: ['event: delta\ndata: {"text":"a"}\n\n', `event: error\ndata: ${JSON.stringify({ message: echo })}\n\n`] },
          { status: 500, headers: { 'content-type': 'application/json' }, chunks: [JSON.stringify({ detail: echo })] },
        ] as Script[]) {
          const reply = await play(script, {}, debugProxy);
          view(reply, 'debug proxy reply');
          count('faultsSurvived');
        }
      }
      assert.deepEqual(findKey(debugProxy.logs.join('\n'), 'debug proxy log'), []);
    } finally {
      await debugProxy.close();
    }
  });

  test('proxy log lines never hold the key', () => {
    assert.deepEqual(findKey(proxy.logs.join('\n'), 'proxy log'), []);
    assert.ok(proxy.logs.length > 0, 'the proxy logged nothing to check');
  });
});
