/**
 * End to end, in headless Chromium: the demo page, served by the real proxy, asking the local
 * Answer API running in-process. A visitor asks by keyboard and sees the answer stream in with
 * citations, opens the sources and follows one, gets the no-answer state, stops an answer
 * mid-stream (and the upstream sees the abort), meets a rate limit (and sees the wait) and a
 * proxy that is down (and Retry works once it is back); the API key is found nowhere the
 * browser can see. One file, so the widget is built and Chromium started once.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createServer as createViteServer } from 'vite';
import type { RunningDemo } from '../../demo/server.js';
import { startAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { buildWidget, closeChromium, useChromium, openDemo, referenceAnswer, startDemo, within, type DemoPage } from './harness.js';

/** A hang becomes a failure with a name instead of a stuck run (the suite normally takes well under a minute). */
const SUITE_TIMEOUT_MS = 120_000;
const QUESTION = 'How many vacation days do I get per year?';
const NONSENSE = 'zxqv blorf quantum giraffe';

let bundle: Awaited<ReturnType<typeof buildWidget>>;
let browser: Browser;
let server: RunningDemo;
const logs: string[] = [];
const pages: DemoPage[] = [];
/** What the pages closed so far sent, received and showed, for the last test's search for the key. */
const seen: string[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
/** The key of every local Answer API the suite started. */
const keys: string[] = [];

/** Keeps every page of the suite, so the last test can search all of their traffic for the key. */
async function open(on: { url: string } = server): Promise<DemoPage> {
  const demo = await openDemo(browser, on);
  pages.push(demo);
  return demo;
}

/**
 * After each test: keeps what its pages sent, received and showed, then closes them. A page left open
 * costs nothing while idle, but a dozen of them made each new page dearer: about 0.5 core-s more each.
 */
async function closePages(): Promise<void> {
  for (const demo of pages.filter((each) => !each.page.isClosed())) {
    seen.push(...(await demo.traffic()), await demo.snapshot());
    await demo.close();
  }
}

/**
 * Starts recording, in the page, each new length of the inline widget's last answer while its
 * turn is still answering, and whether Stop was offered then: proof of streaming that does not
 * depend on polling from outside catching the right moment.
 */
const RECORD_STREAMING = `(() => {
  const root = document.getElementById('inline-widget').shadowRoot;
  window.streamSeen = { lengths: [], stop: false };
  new MutationObserver(() => {
    const turns = root.querySelectorAll('article.turn');
    const turn = turns[turns.length - 1];
    if (!turn || !turn.classList.contains('answering')) return;
    const length = (turn.querySelector('[part~="answer"]')?.textContent ?? '').length;
    const lengths = window.streamSeen.lengths;
    if (length > 0 && length !== lengths[lengths.length - 1]) lengths.push(length);
    if (root.querySelector('[part~="stop"]')) window.streamSeen.stop = true;
  }).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
})()`;

/** In the page: whether the floating widget's dialog is open. */
const DIALOG_OPEN = `document.getElementById('floating-widget').shadowRoot.querySelector('dialog').open`;

/** Starts recording `bot-answer-done` details in the page. */
const RECORD_DONE = `(() => { window.doneEvents = []; document.addEventListener('bot-answer-done', (e) => window.doneEvents.push(e.detail)); })()`;

before(async () => {
  bundle = await buildWidget();
  browser = await useChromium();
  // Paced so the stream is seen arriving: about a second for a typical answer.
  server = await startDemo(bundle.dir, { upstream: { paceMs: 15, wordsPerChunk: 2 }, log: (line) => logs.push(line) });
  keys.push(...server.upstream!.keys);
}, { timeout: SUITE_TIMEOUT_MS });

after(async () => {
  await Promise.all(pages.map((demo) => demo.close()));
  for (const cleanup of cleanups.reverse()) await cleanup();
  if (browser) await closeChromium();
  await server?.close();
  await bundle?.remove();
}, { timeout: SUITE_TIMEOUT_MS });

describe('the demo page through the real proxy', { timeout: SUITE_TIMEOUT_MS }, () => {
  afterEach(closePages);
  test('a question asked by keyboard streams in, with citations to its sources', async () => {
    const demo = await open();
    const { page } = demo;
    await page.evaluate(RECORD_DONE);
    await page.evaluate(RECORD_STREAMING);
    const widget = demo.widget('inline-widget');

    await widget.input.focus();
    await page.keyboard.type(QUESTION);
    await page.keyboard.press('Enter');
    await widget.root.locator('article.turn.done').waitFor();

    // Recorded in the page while the answer arrived: text grew in several steps, with Stop offered.
    const seen = await page.evaluate<{ lengths: number[]; stop: boolean }>('window.streamSeen');
    const final = (await widget.lastAnswer.textContent()) ?? '';
    assert.ok(seen.lengths.length >= 2, `the text appeared in steps while answering (${seen.lengths.join(', ')})`);
    assert.ok(seen.lengths.every((length, i) => i === 0 || length > seen.lengths[i - 1]!), 'and only grew');
    assert.ok(seen.lengths[0]! < final.length, `the first text shown (${seen.lengths[0]} characters) was part of the answer (${final.length})`);
    assert.equal(seen.stop, true, 'Stop was offered while answering');
    assert.equal(await widget.stop.count(), 0, 'Stop goes away once the answer is complete');
    assert.match((await widget.status.textContent()) ?? '', /Answer ready/);

    // The complete Markdown is exactly what the upstream answers to a direct, non-streamed request.
    const reference = await referenceAnswer(server.upstream!, QUESTION);
    const [done] = await page.evaluate<Array<{ answer: string; answer_found: boolean; sources: unknown[] }>>('window.doneEvents');
    assert.equal(done!.answer, reference.answer);
    assert.equal(done!.answer_found, true);
    assert.equal(done!.sources.length, reference.sources.length);

    // Inline citations became numbered links to the cited source.
    const citation = widget.lastAnswer.locator('a.citation').first();
    assert.equal(await citation.textContent(), '1');
    assert.equal(await citation.getAttribute('href'), reference.sources[0]!.url);
    // The question is shown as asked, and the event log lists the events in order.
    assert.equal((await widget.lastTurn.locator('[part="question"]').textContent())?.trim(), QUESTION);
    const logged = await page.locator('#event-log .event-name').allTextContents();
    assert.deepEqual(logged.reverse(), ['bot-answer-submit', 'bot-answer-start', 'bot-answer-done']);
    // The page ran all of that under a strict policy: no inline script, no eval, Trusted Types enforced.
    const csp = (await demo.context.request.get(`${server.url}/`)).headers()['content-security-policy'] ?? '';
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /require-trusted-types-for 'script'/);
    assert.deepEqual(demo.errors, [], 'no console errors (a CSP or Trusted Types violation would be one)');
  });

  test('the floating widget shows only its launcher until opened, and again after Escape', async () => {
    const demo = await open();
    const { page } = demo;
    const panel = demo.widget('floating-widget').root.locator('[part="panel"]');
    const launcher = demo.widget('floating-widget').root.locator('[part="launcher"]');
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      assert.equal(await panel.isVisible(), false, `closed panel hidden at ${width} px`);
      assert.equal(await launcher.isVisible(), true);
      await page.locator('#open-floating').click();
      await page.waitForFunction(`${DIALOG_OPEN} === true`);
      assert.equal(await panel.isVisible(), true, `open panel shown at ${width} px`);
      await page.keyboard.press('Escape');
      await page.waitForFunction(`${DIALOG_OPEN} === false`);
      assert.equal(await panel.isVisible(), false, `closed again at ${width} px`);
    }
    // The page's own Ctrl+K binding (the README's recipe) opens it from anywhere.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+k');
    await page.waitForFunction(`${DIALOG_OPEN} === true`);
    await page.keyboard.press('Escape');
    await page.waitForFunction(`${DIALOG_OPEN} === false`);
    assert.deepEqual(demo.errors, []);
  });

  test('a citation opens the sources panel, and a source can be followed', async () => {
    const demo = await open();
    const { page, context } = demo;
    const widget = demo.widget('inline-widget');

    // The widget's own suggestion buttons (from its `suggestions` attribute) ask too.
    const question = ((await widget.root.getAttribute('suggestions')) ?? '').split('|')[0]!;
    const suggestion = widget.root.getByRole('button', { name: question });
    const reference = await referenceAnswer(server.upstream!, question);
    assert.equal(reference.answer_found, true, `the sample knowledge base answers the suggestion "${question}"`);
    await suggestion.click();
    await widget.root.locator('article.turn.done').waitFor();
    assert.equal((await widget.lastTurn.locator('[part="question"]').textContent())?.trim(), question);

    const toggle = widget.lastTurn.locator('[part="sources-toggle"]');
    const list = widget.lastTurn.locator('[part="sources"]');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'sources start closed');
    assert.equal(await list.isVisible(), false);
    assert.match((await toggle.textContent()) ?? '', new RegExp(`Sources \\(${reference.sources.length}\\)`));
    assert.equal(await toggle.getAttribute('aria-controls'), await list.getAttribute('id'));

    // Following the inline citation opens the panel and moves focus to the cited source.
    await widget.lastAnswer.locator('a.citation').first().click();
    await list.waitFor({ state: 'visible' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const source = list.locator('[part="source"]').first();
    assert.equal(await source.evaluate((el) => el === (el.getRootNode() as unknown as { activeElement: unknown }).activeElement), true, 'the cited source has focus');
    assert.equal((await source.locator('a').textContent())?.trim(), reference.sources[0]!.title);

    // The toggle closes and reopens it.
    await toggle.click();
    await list.waitFor({ state: 'hidden' });
    await toggle.click();
    await list.waitFor({ state: 'visible' });

    // The title link opens the source in a new tab, safely, and the page hears about it.
    const link = source.locator('a');
    assert.equal(await link.getAttribute('target'), '_blank');
    assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
    const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await tab.waitForLoadState('domcontentloaded');
    assert.equal(tab.url(), reference.sources[0]!.url);
    assert.equal(await tab.evaluate('window.opener'), null, 'the source page cannot reach back into the demo');
    await tab.close();
    await page.locator('#event-log .event-name', { hasText: 'bot-answer-source-click' }).waitFor();
    assert.match((await page.locator('#event-log li').first().textContent()) ?? '', /"index":0/);
    assert.deepEqual(demo.errors, []);
  });

  test('every question the page suggests is answered by the sample knowledge base, with sources', async () => {
    const demo = await open();
    const attributes = await demo.page.locator('bot-answer[suggestions]').evaluateAll((els) => els.map((el) => el.getAttribute('suggestions') ?? ''));
    const inWidget = attributes.flatMap((value) => value.split('|'));
    const beside = (await demo.page.locator('#suggestions button').allTextContents()).map((text) => text.trim());
    assert.ok(inWidget.length >= 3 && beside.length >= 3, `suggestions in the widget (${inWidget.length}) and beside it (${beside.length})`);
    for (const question of [...inWidget, ...beside]) {
      const reference = await referenceAnswer(server.upstream!, question);
      assert.equal(reference.answer_found, true, `answered: ${question}`);
      assert.ok(reference.sources.length > 0, `with sources: ${question}`);
    }
    // A question beside the widget is asked through its public ask() method.
    await demo.page.locator('#suggestions button').first().click();
    await demo.widget('inline-widget').root.locator('article.turn.done').waitFor();
    assert.equal((await demo.widget('inline-widget').lastTurn.locator('[part="question"]').textContent())?.trim(), beside[0]);
    assert.deepEqual(demo.errors, []);
  });

  test('a question the knowledge base does not cover shows the no-answer state', async () => {
    const demo = await open();
    const widget = demo.widget('inline-widget');
    const reference = await referenceAnswer(server.upstream!, NONSENSE);
    assert.equal(reference.answer_found, false, 'the upstream has no answer for it');

    await widget.input.fill(NONSENSE);
    await widget.input.press('Enter');
    await widget.root.locator('article.turn.no-answer').waitFor();
    // A refusal: the upstream's own text says so, with no note beside it and nothing offered as related.
    assert.equal(reference.sources.length, 0, 'nothing related either');
    assert.equal((await widget.lastTurn.locator('[part="answer"]').textContent())?.trim(), reference.answer.trim());
    assert.equal(await widget.lastTurn.locator('[part="note"]').count(), 0);
    assert.match((await widget.status.textContent()) ?? '', /No answer found/);
    assert.equal(await widget.lastTurn.locator('[part="sources-toggle"]').count(), 0, 'no sources offered');
    assert.equal(await widget.lastTurn.locator('[part="related"]').count(), 0, 'no related pages');
    assert.equal(await widget.lastTurn.locator('[part="error"]').count(), 0, 'not shown as an error');
    assert.deepEqual(demo.errors, []);
  });

  test('Stop mid-stream keeps the partial answer, and the upstream sees the abort', async () => {
    // Slow enough that the answer is far from complete when Stop is pressed.
    const slow = await startDemo(bundle.dir, { upstream: { paceMs: 60, wordsPerChunk: 1 }, log: (line) => logs.push(line) });
    keys.push(...slow.upstream!.keys);
    try {
      const question = 'What should I do when I get paged for an incident?';
      const demo = await open(slow);
      const widget = demo.widget('inline-widget');
      await widget.input.fill(question);
      await widget.input.press('Enter');
      await widget.root.locator('article.turn.answering [part="answer"]').filter({ hasText: /\S/ }).waitFor();

      // Typing also sends searches to the upstream: the request to stop is the last answer.
      const lastAnswer = () => slow.upstream!.requests.filter((request) => request.path === '/v1/answer').at(-1)!;
      const upstreamRequest = lastAnswer();
      assert.equal(upstreamRequest.abortedAt, undefined, 'still streaming before Stop');
      const aborted = slow.upstream!.waitForAbort(upstreamRequest.id);
      await widget.stop.click();
      const seen = await within(5_000, 'the upstream to see the abort', aborted);
      assert.equal(seen.id, upstreamRequest.id);
      assert.equal(seen.finishedAt, undefined, 'the upstream had not finished its answer');

      await widget.root.locator('article.turn.stopped').waitFor();
      const kept = (await widget.lastAnswer.textContent()) ?? '';
      assert.ok(kept.trim().length > 0, 'the partial answer stays on screen');
      const reference = await referenceAnswer(slow.upstream!, question);
      assert.ok(kept.length < reference.answer.length, 'what is kept is only part of the answer');
      assert.match((await widget.lastTurn.locator('[part="note"]').textContent()) ?? '', /Stopped/);
      assert.match((await widget.status.textContent()) ?? '', /Stopped/);
      assert.equal(await widget.stop.count(), 0);
      // The widget asks again at once, and that answer can be stopped too.
      await widget.input.fill(QUESTION);
      await widget.input.press('Enter');
      await widget.root.locator('article.turn.answering [part="answer"]').filter({ hasText: /\S/ }).waitFor();
      const secondRequest = lastAnswer();
      assert.notEqual(secondRequest.id, upstreamRequest.id, 'the second question reached the upstream');
      const second = slow.upstream!.waitForAbort(secondRequest.id);
      await widget.stop.click();
      await within(5_000, 'the upstream to see the second abort', second);
      // The upstream can see the abort before the page has rendered the stopped state: wait for it.
      await widget.root.locator('article.turn.stopped').nth(1).waitFor();
      assert.equal(await widget.root.locator('article.turn.stopped').count(), 2);
      assert.deepEqual(demo.errors, []);
    } finally {
      await slow.close();
    }
  });
});

/** Starts a demo server closed after the suite. */
async function serve(options: Parameters<typeof startDemo>[1]): Promise<RunningDemo> {
  const server = await startDemo(bundle.dir, { upstream: { paceMs: 0 }, log: (line) => logs.push(line), ...options });
  keys.push(...server.upstream!.keys);
  cleanups.push(() => server.close());
  return server;
}

/** The browser reports a failed resource load as a console error; those are expected here, nothing else is. */
const unexpected = (errors: string[]) => errors.filter((text) => !/Failed to load resource/.test(text));

describe('failures a visitor can meet', { timeout: SUITE_TIMEOUT_MS }, () => {
  afterEach(closePages);
  test('the proxy answering 429 shows how long to wait, and nothing is retried', async () => {
    const server = await serve({ rateLimitPerMinute: 1 });
    const demo = await open(server);
    const widget = demo.widget('inline-widget');

    await widget.input.fill(QUESTION);
    await widget.input.press('Enter');
    await widget.root.locator('article.turn.done').waitFor();

    const limited = demo.page.waitForResponse((response) => response.url().endsWith('/api/answer') && response.status() === 429);
    await widget.input.fill('How do I verify a webhook signature?');
    await widget.input.press('Enter');
    const response = await limited;
    const wait = Number(response.headers()['retry-after']);
    assert.ok(Number.isInteger(wait) && wait > 0 && wait <= 60, `Retry-After is a number of seconds (${wait})`);

    await widget.root.locator('article.turn.error').waitFor();
    const message = `Too many questions. Try again in ${wait} seconds.`;
    assert.match((await widget.lastTurn.locator('[part="error"]').textContent()) ?? '', new RegExp(message.replace(/\./g, '\\.')));
    assert.match((await widget.status.textContent()) ?? '', new RegExp(message.replace(/\./g, '\\.')));
    assert.equal(await widget.lastTurn.getByRole('button', { name: 'Retry' }).count(), 1, 'a Retry control is offered');
    await demo.page.locator('#event-log .event-name', { hasText: 'bot-answer-error' }).waitFor();
    assert.match((await demo.page.locator('#event-log li').first().textContent()) ?? '', /"code":"rate_limited"/);

    // The refused question never reached the upstream, and the widget did not try again on its own
    // (searches sent while the question was typed go to the upstream too: only answers count here).
    assert.equal(server.upstream!.requests.filter((r) => r.path === '/v1/answer').length, 1);
    const answerRequests = (await demo.traffic()).filter((text) => text.startsWith(`${server.url}/api/answer\n`));
    assert.equal(answerRequests.length, 4, 'two requests and two responses, no more');
    assert.deepEqual(unexpected(demo.errors), []);
  });

  test('the proxy down shows a network error, and Retry works once it is back', async () => {
    let server = await serve({});
    const { port } = server;
    const demo = await open(server);
    const widget = demo.widget('inline-widget');

    // The visitor is in the box (its chat has loaded) when the proxy goes down.
    assert.equal(await demo.page.evaluate<boolean>(`document.getElementById('inline-widget').load()`), true);
    await server.close();
    await widget.input.fill(QUESTION);
    await widget.input.press('Enter');
    await widget.root.locator('article.turn.error').waitFor();
    assert.match((await widget.lastTurn.locator('[part="error"]').textContent()) ?? '', /Could not reach the service/);
    assert.match((await widget.status.textContent()) ?? '', /Could not reach the service/);
    assert.equal(await widget.lastAnswer.textContent(), '', 'no answer text on a failed request');

    // Back on the same address: Retry asks the same question again, and it is answered.
    server = await serve({ port });
    await widget.lastTurn.getByRole('button', { name: 'Retry' }).click();
    await widget.root.locator('article.turn.done').waitFor();
    assert.equal(await widget.root.locator('article.turn').count(), 1, 'the retry reuses the failed turn');
    assert.equal((await widget.lastTurn.locator('[part="question"]').textContent())?.trim(), QUESTION);
    assert.ok(((await widget.lastAnswer.textContent()) ?? '').includes('vacation'), 'the answer arrived');
    assert.equal(await widget.lastTurn.locator('[part="error"]').count(), 0, 'the error is gone');
    assert.equal(server.upstream!.requests.filter((r) => r.path === '/v1/answer').length, 1);
    assert.deepEqual(unexpected(demo.errors), []);
  });
});

describe('the copy-paste snippet on a site owner\'s page', { timeout: SUITE_TIMEOUT_MS }, () => {
  afterEach(closePages);
  /** Serves one page on another loopback port: another origin than the proxy's. */
  async function siteServer(): Promise<{ origin: string; html: { value: string } }> {
    const html = { value: '' };
    const site = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html.value));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => (site.close(resolve), site.closeAllConnections())));
    return { origin: `http://127.0.0.1:${(site.address() as AddressInfo).port}`, html };
  }

  /** Copies the snippet from the demo page served by `proxy`, pastes it into the site's page, and asks a question there. */
  async function askOnSite(proxy: { url: string }, site: { origin: string; html: { value: string } }) {
    const demo = await open(proxy);
    const snippet = (await demo.page.locator('#snippet').textContent()) ?? '';
    assert.ok(snippet.includes(`${proxy.url}/bot-answer.js`) && snippet.includes(`${proxy.url}/api/answer`), 'the snippet points at the proxy');
    site.html.value = `<!doctype html><html lang="en"><title>A site</title><h1>Our site</h1>\n${snippet}\n</html>`;
    const page = await demo.context.newPage();
    await page.goto(`${site.origin}/`);
    const widget = page.locator('bot-answer');
    await widget.locator('[part="input"]').fill(QUESTION);
    await widget.locator('[part="input"]').press('Enter');
    await widget.locator('article.turn.done, article.turn.error').first().waitFor();
    return widget;
  }

  test('works on another origin once that origin is in ALLOWED_ORIGINS, and not before', async () => {
    const site = await siteServer();
    const allowing = await serve({ allowedOrigins: [site.origin] });
    const answered = await askOnSite(allowing, site);
    assert.equal(await answered.locator('article.turn.done').count(), 1, 'answered through the allowing proxy');
    assert.ok(((await answered.locator('[part="answer"]').textContent()) ?? '').includes('vacation'));
    assert.equal(allowing.upstream!.requests.filter((r) => r.path === '/v1/answer').length, 1);

    // The same snippet copied from a proxy that does not list the site: the browser is refused at the preflight.
    const refused = await askOnSite(server, site);
    assert.equal(await refused.locator('article.turn.error').count(), 1);
    assert.match((await refused.locator('[part="error"]').textContent()) ?? '', /Could not reach the service/);
  });
});

describe('with ANSWER_API_KEY and ANSWER_BASE_URL', { timeout: SUITE_TIMEOUT_MS }, () => {
  afterEach(closePages);
  test('the same page answers from the configured upstream, and says so', async () => {
    // Any service speaking the upstream spec: here a separately started local Answer API with a key of our choosing.
    const key = `sk-e2e-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
    const upstream = await startAnswerApi({ port: 0, keys: [key], paceMs: 0 });
    cleanups.push(() => upstream.close());
    keys.push(key);
    const configured = await startDemo(bundle.dir, { apiKey: key, baseUrl: upstream.url, log: (line) => logs.push(line) });
    cleanups.push(() => configured.close());
    assert.equal(configured.demo, false);

    const demo = await open(configured);
    await demo.page.locator('#mode', { hasText: 'Connected to the Answer API configured on the server' }).waitFor();
    const widget = demo.widget('inline-widget');
    await widget.input.fill(QUESTION);
    await widget.input.press('Enter');
    await widget.root.locator('article.turn.done').waitFor();
    // The answer (searches as the visitor typed go to /v1/search and carry the key the same way).
    const answers = upstream.requests.filter((r) => r.path === '/v1/answer');
    assert.equal(answers.length, 1);
    assert.equal(answers[0]!.headers.authorization, `Bearer ${key}`, 'the proxy added the key on the server side');
    for (const r of upstream.requests) assert.equal(r.headers.authorization, `Bearer ${key}`);
    assert.deepEqual(demo.errors, []);
  });
});

describe('npm run dev', { timeout: SUITE_TIMEOUT_MS }, () => {
  afterEach(closePages);
  test('Vite serves the same page with the element from its sources, answering through the in-process proxy', async () => {
    // The dev backend logs like `npm start` does; keep its lines for the secrecy check rather than in the test output.
    const print = console.log;
    console.log = (...args: unknown[]) => void logs.push(args.join(' '));
    try {
      const dev = await createViteServer({
        configFile: join(import.meta.dirname, '..', '..', 'demo', 'vite.config.ts'),
        server: { host: '127.0.0.1', port: 0, hmr: false },
        logLevel: 'silent',
      });
      cleanups.push(() => dev.close());
      await dev.listen();
      const url = `http://127.0.0.1:${(dev.httpServer!.address() as AddressInfo).port}`;
      const demo = await open({ url });
      const widget = demo.widget('inline-widget');
      await demo.page.locator('#mode', { hasText: 'Demo mode' }).waitFor();
      await widget.input.fill(QUESTION);
      await widget.input.press('Enter');
      await widget.root.locator('article.turn.done').waitFor();
      assert.equal(await widget.lastAnswer.locator('a.citation').count() > 0, true, 'streamed with citations');
      const module = await demo.context.request.get(`${url}/bot-answer.js`);
      assert.match(await module.text(), /src\/widget\/bot-answer\.ts/, 'the element comes from its TypeScript sources');
      assert.deepEqual(demo.errors, []);
    } finally {
      console.log = print;
    }
  });
});

describe('secrecy, over every page of this suite', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('the API key is nowhere in the pages, their requests and responses, or the logs', async () => {
    // One more round that touches every widget and both transports, then search everything the suite saw.
    const demo = await open();
    const { page } = demo;
    await demo.widget('inline-widget').input.fill(QUESTION);
    await demo.widget('inline-widget').input.press('Enter');
    await demo.widget('dark-widget').root.evaluate((el) => el.setAttribute('stream', 'false'));
    await demo.widget('dark-widget').input.fill('How do I verify a webhook signature?');
    await demo.widget('dark-widget').input.press('Enter');
    await page.locator('#open-floating').click();
    await demo.widget('floating-widget').input.fill(NONSENSE);
    await demo.widget('floating-widget').input.press('Enter');
    await demo.widget('inline-widget').root.locator('article.turn.done').waitFor();
    await demo.widget('dark-widget').root.locator('article.turn.done').waitFor();
    await demo.widget('floating-widget').root.locator('article.turn.no-answer').waitFor();

    // The search must be able to see what it looks for: a marker planted inside a shadow root and in a request is found.
    const canary = `canary-${Math.random().toString(36).slice(2)}`;
    await demo.widget('dark-widget').root.evaluate((el, text) => el.shadowRoot!.append(text), canary);
    await page.evaluate(`fetch('/healthz?marker=${canary}').then((r) => r.text())`);
    assert.ok((await demo.snapshot()).includes(canary), 'the snapshot covers shadow roots');
    assert.ok((await demo.traffic()).some((text) => text.includes(canary)), 'the traffic covers the page\'s requests');

    assert.ok(keys.length >= 5 && keys.every((key) => key.length >= 16), 'real keys were in use');
    const forms = keys.flatMap((key) => [key, Buffer.from(key).toString('base64'), encodeURIComponent(key)]);
    let searched = 0;
    // The earlier tests' pages were kept in `seen` as they closed; this one is still open.
    for (const text of [...seen, ...(await demo.traffic()), await demo.snapshot()]) {
      searched += text.length;
      for (const form of forms) assert.equal(text.includes(form), false, `a key (or an encoding of it) leaked into: ${text.slice(0, 120)}`);
    }
    for (const line of logs) for (const form of forms) assert.equal(line.includes(form), false, `the key leaked into a log line: ${line}`);
    assert.ok(searched > 50_000, `enough was searched to mean something (${searched} characters)`);
    assert.ok(logs.length > 0, 'the proxy logged requests');
    assert.ok(pages.every((each) => each.external.every((url) => !new URL(url).hostname.startsWith('127.'))), 'only made-up hosts were stubbed');
    assert.deepEqual(demo.errors, []);
  });
});
