import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Source } from '../../packages/bot-answer/src/protocol/types.js';
import { normaliseSource } from '../../packages/bot-answer-proxy/src/proxy/sources.js';
import { splitText } from './corpus/dialects.js';
import { buildCorpus, type Payload } from './corpus/payloads.js';
import { bundleDir, CHECK, launchChromium, PROBE } from './support/browser.js';
import { startHostileUpstream, type HostileUpstream, type Script } from './support/hostile-upstream.js';
import { RUN } from './support/options.js';
import { chunkBytes, createRng, type Rng } from './support/prng.js';
import { findKey, KEY } from './support/secret.js';
import { startProxy, type RunningProxy } from './support/system.js';
import { count } from './support/tally.js';

/**
 * Hostile content end to end: hostile upstream -> real proxy -> real element in headless
 * Chromium. Each payload sits in the answer Markdown or one Source field, between sentinels.
 */

/**
 * Payloads per page. A page (context, renderer, the element's three files) costs about 0.85 core-s
 * before any payload renders: 40 a page rather than 20 took 53 core-s instead of 63 for the default
 * run. Every payload still gets its own element and its own checks, and page-wide signs (a script
 * run, a stray request, a long task) still send the batch back one payload per page to name it.
 */
const BATCH = 40;
/** No payload may make the page load anything elsewhere, author photos included: the element never shows them. */
const CSP = ["default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self'", "connect-src 'self'", "frame-src 'none'", "object-src 'none'", "base-uri 'none'", "form-action 'none'", "media-src 'self'"].join('; ');

/** Upstream replies by message; a function sees the request body (e.g. to answer JSON when the element asked for JSON). */
const scripts = new Map<string, Script | ((body: { stream?: boolean }) => Script)>();
let upstream: HostileUpstream;
let proxy: RunningProxy;
let browser: Browser;
/** The element's built files, by URL path. */
const files = new Map<string, string>();
const pageTexts: string[] = [];

before(async () => {
  // The loader, and the box and the chat it fetches from beside itself.
  for (const file of ['bot-answer.iife.js', 'bot-answer-box.js', 'bot-answer-chat.js']) files.set(`/${file}`, readFileSync(join(bundleDir(), file), 'utf8'));
  upstream = await startHostileUpstream({ key: KEY, script: (body) => {
      const found = scripts.get((body as { message?: string })?.message ?? '');
      if (typeof found === 'function') return found(body as { stream?: boolean });
      return found ?? { status: 404, headers: { 'content-type': 'application/json' }, chunks: ['{}'] };
    },
  });
  proxy = await startProxy({
    apiKey: KEY,
    baseUrl: upstream.url,
    rateLimitPerMinute: 0,
    idleTimeoutMs: 1500,
    heartbeatMs: 500,
    compose: (handler) => async (request, context) => {
      const url = new URL(request.url);
      if (request.method === 'GET' && url.pathname === '/') return new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy-report-only': CSP } });
      if (request.method === 'GET' && files.has(url.pathname)) return new Response(files.get(url.pathname), { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
      if (request.method === 'POST' && url.pathname === '/direct') {
        // A compromised or buggy proxy: the project's own protocol carrying raw hostile sources, so the element's own checks are tested alone.
        const { message } = (await request.json()) as { message: string };
        return new Response(direct.get(message) ?? 'event: error\ndata: {"code":"internal","message":"no case"}\n\n', { headers: { 'content-type': 'text/event-stream' } });
      }
      return handler(request, context);
    },
  });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await proxy?.close();
  await upstream?.close();
  assert.deepEqual(findKey(proxy?.logs.join('\n') ?? '', 'proxy log'), []);
  assert.deepEqual(findKey(pageTexts.join('\n'), 'pages'), []);
});

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>adversarial</title>
<style>body{margin:0;padding:16px;font:16px sans-serif}bot-answer{width:640px;margin:0 0 24px;border:1px solid #ccc}</style>
<script src="/bot-answer.iife.js"></script></head><body><main id="cases"></main></body></html>`;

// Browser-side steps, as script text (the Node type-check has no DOM library).
const MOUNT = `(ids) => {
  const main = document.getElementById('cases');
  for (const [i, [id, direct]] of ids.entries()) {
    const el = document.createElement('bot-answer');
    el.setAttribute('bot-id', 'demo');
    if (direct) el.setAttribute('endpoint', '/direct');
    // Every fifth element uses the JSON mode, so both of the proxy's and the element's paths meet each payload class.
    else if (i % 5 === 4) el.setAttribute('stream', 'false');
    el.dataset.case = id;
    main.append(el);
  }
  return Promise.all([...main.children].map(async (el) => {
    await customElements.whenDefined('bot-answer');
    await el.updateComplete;
    el.ask(el.dataset.case);
  }));
}`;
const SETTLED = `(want) => want.every((id) => id in window.__adv.done || id in window.__adv.errors)`;
const OPEN_SOURCES = `(() => {
  for (const host of document.querySelectorAll('bot-answer'))
    for (const t of host.shadowRoot ? host.shadowRoot.querySelectorAll('[part~="sources-toggle"][aria-expanded="false"]') : []) t.click();
  return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
})()`;
const READ_ADV = `(() => ({ hits: window.__adv.hits, longest: window.__adv.longest, done: Object.keys(window.__adv.done), errors: window.__adv.errors }))()`;
const SHADOW_HTML = `[...document.querySelectorAll('bot-answer')].map((h) => h.shadowRoot ? h.shadowRoot.innerHTML : '').join('\\n')`;
const ASK_ONE = `async (caseId) => {
  const el = document.createElement('bot-answer');
  el.setAttribute('bot-id', 'demo');
  el.dataset.case = caseId;
  document.getElementById('cases').append(el);
  await customElements.whenDefined('bot-answer');
  await el.updateComplete;
  const settled = new Promise((resolve) => {
    el.addEventListener('bot-answer-done', (e) => resolve('done:' + e.detail.answer));
    el.addEventListener('bot-answer-error', () => resolve('error'));
    setTimeout(() => resolve('timeout'), 20000);
  });
  el.ask(caseId);
  const result = await settled;
  // The element renders its last text and its state as it fires the event: the next update shows both.
  await el.updateComplete;
  const answers = el.shadowRoot.querySelectorAll('[part~="answer"]');
  const last = answers[answers.length - 1];
  const shown = (last ? last.textContent : '').replace(/\\s+/g, ' ').trim();
  const err = el.shadowRoot.querySelector('[part~="error"]');
  const errorShown = !!(err && err.textContent.trim());
  const state = el.state;
  el.remove();
  return { result, shown, errorShown, state };
}`;

/** Project-protocol streams served at /direct, by case id. */
const direct = new Map<string, string>();

interface Case {
  id: string;
  /** Ask the /direct endpoint (no proxy in between) instead of the real proxy. */
  direct?: boolean;
  payload: Payload;
  before: string;
  after?: string;
  sourceSentinel?: string;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const [head, tail] = path.split('.') as [string, string | undefined];
  if (tail === undefined) target[head] = value;
  else target[head] = { ...(target[head] as object | undefined), [tail]: value };
}

/** The upstream's source carrying a source-field payload: the payload itself, or a plain source with the payload in one field. */
function hostileSource(payload: Payload): unknown {
  if (payload.field === 'source') return payload.value;
  const base: Record<string, unknown> = { title: 'Hostile source', url: 'https://wiki.example.com/hostile', app_name: 'Wiki', snippet: 'snippet', author: { name: 'Dana Reyes', email: 'dana@example.com' }, modified_time: 1730243482 };
  setPath(base, payload.field, payload.value);
  return base;
}

/**
 * The upstream script for one payload: the answer streamed in random pieces, or one JSON
 * body for huge ones and when the element asked for JSON (`stream="false"`).
 */
function scriptFor(c: Case, rng: Rng): (body: { stream?: boolean }) => Script {
  const { payload } = c;
  let answer: string;
  let sources: unknown[];
  if (payload.field === 'answer') {
    answer = `${c.before}\n\n${String(payload.value)}\n\n${c.after ?? ''}`;
    sources = [{ title: 'Travel policy', url: 'https://wiki.example.com/travel', app_name: 'Wiki' }];
  } else {
    answer = `${c.before} is the answer [[1]](https://wiki.example.com/travel) ${c.after}`;
    sources = [hostileSource(payload), { title: c.sourceSentinel, url: 'https://wiki.example.com/travel', app_name: 'Wiki' } satisfies Source];
  }
  const json: Script = { headers: { 'content-type': 'application/json' }, chunks: chunkBytes(new TextEncoder().encode(JSON.stringify({ answer, answer_found: true, sources })), rng, 40) };
  const asJson = answer.length > 200_000 || rng.chance(0.15);
  const pieces = answer.length > 5_000 ? chop(answer, Math.ceil(answer.length / 200)) : splitText(answer, rng);
  let text = pieces.map((p) => `event: delta\ndata: ${JSON.stringify({ text: p })}\n\n`).join('');
  text += `event: sources\ndata: ${JSON.stringify({ sources })}\n\nevent: done\ndata: {"answer_found":true}\n\n`;
  const sse: Script = { headers: { 'content-type': 'text/event-stream' }, chunks: chunkBytes(new TextEncoder().encode(text), rng, 60) };
  if (c.direct) direct.set(c.id, text);
  return (body) => (asJson || body.stream === false ? json : sse);
}

function chop(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** A frozen page never answers `evaluate`: every page step gets a deadline, and missing it is a finding. */
class Unresponsive extends Error {}
function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Unresponsive(`page unresponsive for ${ms} ms during ${what}`)), ms)));
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

interface BatchResult {
  hits: string[];
  requests: string[];
  longest: number;
  perCase: Array<{ id: string; problems: string[] }>;
}

/** One page with one element per case: ask, wait for every answer to settle, open the sources, check. */
async function runBatch(cases: Case[], rng: Rng): Promise<BatchResult> {
  for (const c of cases) scripts.set(c.id, scriptFor(c, rng));
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const page: Page = await context.newPage();
  const origin = new URL(proxy.url).origin;
  const requests: string[] = [];
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin === origin) return route.continue();
    requests.push(url.href.slice(0, 120));
    return route.abort();
  });
  page.on('websocket', (ws) => requests.push(`websocket ${ws.url()}`));
  page.on('popup', (p) => requests.push(`popup ${p.url()}`));
  page.on('dialog', (d) => void d.dismiss());
  await page.addInitScript({ content: PROBE });
  try {
    await withDeadline(page.goto(proxy.url + '/'), 30_000, 'load');
    await withDeadline(page.evaluate(`(${MOUNT})(${JSON.stringify(cases.map((c) => [c.id, !!c.direct]))})`), 30_000, 'mount');
    const ids = cases.map((c) => c.id);
    // Polled from Node: waitForFunction would compile its predicate in the page, which the CSP reports as eval.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !(await withDeadline(page.evaluate(`(${SETTLED})(${JSON.stringify(ids)})`), 30_000, 'answering'))) await page.waitForTimeout(100);
    // Open every sources panel so the source fields are rendered and checked too.
    await withDeadline(page.evaluate(OPEN_SOURCES), 30_000, 'opening sources');
    await page.waitForTimeout(150);
    const perCase = (await withDeadline(page.evaluate(`(${CHECK})(${JSON.stringify(cases.map(({ id, before, after, sourceSentinel }) => ({ id, before, after, sourceSentinel })))})`), 60_000, 'checking')) as Array<{ id: string; problems: string[]; state: string }>;
    const adv = (await withDeadline(page.evaluate(READ_ADV), 30_000, 'reading probes')) as { hits: string[]; longest: number; done: string[]; errors: Record<string, unknown> };
    for (const r of perCase) {
      if (!adv.done.includes(r.id)) r.problems.push(`no bot-answer-done (state ${r.state}${adv.errors[r.id] ? `, error ${JSON.stringify(adv.errors[r.id])}` : ''})`);
    }
    pageTexts.push(await withDeadline(page.content(), 30_000, 'reading the page'), (await withDeadline(page.evaluate(SHADOW_HTML), 30_000, 'reading the page')) as string);
    return { hits: adv.hits, requests, longest: adv.longest, perCase };
  } catch (error) {
    if (!(error instanceof Unresponsive)) throw error;
    return { hits: [error.message], requests, longest: Infinity, perCase: [] };
  } finally {
    await withDeadline(context.close(), 10_000, 'closing').catch(() => {});
    for (const c of cases) {
      scripts.delete(c.id);
      direct.delete(c.id);
    }
  }
}

/**
 * Whether the proxy passes this source-field payload on changed (a URL or a time dropped, a wrong type
 * left out): the element then meets the raw value only when a proxy does not stand in between. A source
 * the proxy passes on as it came reaches the element the same either way, and is checked through the proxy.
 */
const proxyChanges = (payload: Payload) => payload.field !== 'answer' && !isDeepStrictEqual(normaliseSource(hostileSource(payload)), hostileSource(payload));

/** Every payload through the real proxy, and every source-field payload the proxy changes a second time straight to the element (/direct). */
function makeCases(payloads: Payload[]): Case[] {
  const viaProxy = payloads.map((payload, n) => ({ payload, n, direct: false }));
  const straight = payloads.map((payload, n) => ({ payload, n: n + payloads.length, direct: true })).filter((c) => proxyChanges(c.payload));
  return [...viaProxy, ...straight].map(({ payload, n, direct }) => ({
    id: `${direct ? 'd' : 'p'}${n}-${payload.id}`.slice(0, 120),
    direct,
    payload,
    before: `zqxbefore${n}`,
    after: payload.swallowsRest ? undefined : `zqxafter${n}`,
    sourceSentinel: payload.field === 'answer' ? undefined : `zqxsource${n}`,
  }));
}

describe('hostile content through the whole chain renders inert', () => {
  const corpus = buildCorpus(RUN.fuzzPayloads, RUN.seed);

  test('the page probes catch what they look for (self-check on a deliberately broken element)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const stray: string[] = [];
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin === new URL(proxy.url).origin) return route.continue();
      stray.push(url.href);
      return route.abort();
    });
    await page.addInitScript({ content: PROBE });
    try {
      await page.goto(proxy.url + '/');
      await page.evaluate(`(async () => {
        const el = document.createElement('bot-answer');
        el.setAttribute('bot-id', 'demo');
        el.dataset.case = 'control';
        document.getElementById('cases').append(el);
        await customElements.whenDefined('bot-answer');
        await el.updateComplete;
        const box = document.createElement('div');
        box.setAttribute('part', 'answer');
        box.innerHTML = '<a href=" JaVa\\tscript:alert(1)">x</a><div style="position:fixed;left:0;top:0;width:3000px;height:10px">wide</div><img src="https://evil.example/p.gif" onerror="alert(2)">';
        el.shadowRoot.append(box);
        const start = performance.now();
        while (performance.now() - start < 1100) {}
      })()`);
      await page.waitForTimeout(500);
      const [result] = (await page.evaluate(`(${CHECK})([{ id: 'control', before: 'never-shown', after: 'never-shown' }])`)) as Array<{ problems: string[] }>;
      const hits = (await page.evaluate('window.__adv.hits')) as string[];
      const problems = result!.problems.join('\n');
      assert.match(problems, /a href=/);
      assert.match(problems, /handler attribute onerror/);
      assert.match(problems, /escapes the box|position:fixed/);
      assert.match(problems, /text before the payload is not shown/);
      assert.ok(hits.some((h) => h.startsWith('alert')), `alert not caught: ${hits.join(', ')}`);
      assert.ok(hits.some((h) => h.startsWith('longtask')), `long task not caught: ${hits.join(', ')}`);
      assert.ok(stray.some((u) => u.includes('evil.example')), 'stray request not caught');
    } finally {
      await context.close();
    }
  });

  test('the corpus is big and covers every field and category', () => {
    assert.ok(corpus.length >= 150, `${corpus.length} payloads`);
    for (const field of ['answer', 'url', 'title', 'snippet', 'app_name', 'author.name', 'author.email', 'author.photo', 'modified_time']) assert.ok(corpus.some((p) => p.field === field), field);
    assert.ok(corpus.filter((p) => p.category === 'shared-vectors').length >= 60);
  });

  test(`${corpus.length} payloads (and the ${corpus.filter(proxyChanges).length} source payloads the proxy changes again without it): no script, no bad URL, no stray request, no escape, responsive, rest shown`, { timeout: (RUN.full ? 60 : 15) * 60_000 }, async () => {
    const cases = makeCases(corpus);
    const rng = createRng(RUN.seed + 99);
    const failures: string[] = [];
    for (let i = 0; i < cases.length; i += BATCH) {
      const batch = cases.slice(i, i + BATCH);
      const result = await runBatch(batch, rng);
      count('payloadsTried', batch.length);
      count('payloadPagesChecked');
      for (const r of result.perCase) for (const p of r.problems) failures.push(`${r.id}: ${p}`);
      const pageLevel = [...result.hits, ...result.requests.map((r) => `request to ${r}`)];
      if (pageLevel.length) {
        // Page-wide signs cannot name their payload: replay the batch one payload per page to find it.
        for (const c of batch) {
          const alone = await runBatch([c], rng);
          const signs = [...alone.hits, ...alone.requests.map((r) => `request to ${r}`)];
          for (const s of signs) failures.push(`${c.id}: ${s}`);
          count('scriptsExecuted', alone.hits.filter((h) => !h.startsWith('longtask') && !h.startsWith('csp: img') && !h.startsWith('csp: media')).length);
          count('unexpectedRequests', alone.requests.length);
          count('longTasks', alone.hits.filter((h) => h.startsWith('longtask')).length);
        }
      }
      count('badUrlsFound', result.perCase.flatMap((r) => r.problems).filter((p) => /=|srcset/.test(p) && !/escapes/.test(p)).length);
      count('layoutEscapes', result.perCase.flatMap((r) => r.problems).filter((p) => /escapes the box|position:fixed/.test(p)).length);
    }
    assert.equal(failures.length, 0, `${failures.length} problems:\n${failures.slice(0, 200).join('\n')}`);
  });
});

describe('broken streams through the browser', () => {
  const WORDS = ['alpha', 'βeta', '日本語', '😀', 'naïve', 'עברית', 'data:', 'event:', 'end'];
  const plain = (rng: Rng, n: number) => Array.from({ length: n }, () => rng.pick(WORDS)).join(' ');

  test(`${RUN.browserStreamSamples} complete and broken streams: exact text, or an error and a prefix, never a false done`, { timeout: 10 * 60_000 }, async () => {
    const rng = createRng(RUN.seed + 7);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript({ content: PROBE });
    await page.goto(proxy.url + '/');
    const failures: string[] = [];
    try {
      for (let i = 0; i < RUN.browserStreamSamples; i++) {
        const answer = plain(rng, rng.int(5, 60));
        const kind = (['complete', 'reset', 'stall', 'complete', 'endless-event'] as const)[i % 5]!;
        const pieces = splitText(answer, rng);
        let text = pieces.map((p) => `event: delta\ndata: ${JSON.stringify({ text: p })}\n\n`).join('');
        const bytes = new TextEncoder().encode(text + 'event: done\ndata: {"answer_found":true}\n\n');
        const id = `stream-${i}-${kind}`;
        if (kind === 'complete') scripts.set(id, { chunks: chunkBytes(bytes, rng, 80), gapMs: 0 });
        else if (kind === 'endless-event') scripts.set(id, { chunks: [text.slice(0, 0)], forever: () => 'data: ' + 'q'.repeat(32 * 1024), gapMs: 1 });
        else scripts.set(id, { chunks: chunkBytes(bytes.subarray(0, rng.int(0, bytes.length - 45)), rng, 40), ending: kind });
        const outcome = (await page.evaluate(`(${ASK_ONE})(${JSON.stringify(id)})`)) as { result: string; shown: string; errorShown: boolean; state: string; doneEvents: number };
        scripts.delete(id);
        count('streamsChecked');
        const norm = answer.replace(/\s+/g, ' ').trim();
        if (kind === 'complete') {
          if (outcome.result !== 'done:' + answer) failures.push(`${id}: ${outcome.result.slice(0, 80)} (want done with the exact answer)`);
          else if (outcome.shown !== norm) failures.push(`${id}: shows ${JSON.stringify(outcome.shown.slice(0, 80))}, want ${JSON.stringify(norm.slice(0, 80))}`);
        } else {
          count('faultsSurvived');
          if (outcome.result.startsWith('done')) {
            count('falseDones');
            failures.push(`${id}: a broken stream ended in done`);
          } else if (outcome.result !== 'error' || !outcome.errorShown || outcome.state !== 'error') failures.push(`${id}: ${outcome.result}, error shown ${outcome.errorShown}, state ${outcome.state}`);
          else if (!norm.startsWith(outcome.shown)) failures.push(`${id}: shows ${JSON.stringify(outcome.shown.slice(-60))}, not a prefix of what was sent`);
        }
      }
    } finally {
      await context.close();
    }
    assert.equal(failures.length, 0, failures.join('\n'));
  });
});
