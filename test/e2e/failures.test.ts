/**
 * End to end, in headless Chromium: what a visitor sees when the proxy says no. A rate limit
 * shows how long to wait; a proxy that is down shows a network error, and Retry works once it
 * is back. The widget never retries by itself.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { RunningDemo } from '../../demo/server.js';
import { buildWidget, launchChromium, openDemo, startDemo, type DemoPage } from './harness.js';

const QUESTION = 'How many vacation days do I get per year?';

let bundle: Awaited<ReturnType<typeof buildWidget>>;
let browser: Browser;
const cleanups: Array<() => Promise<unknown>> = [];

before(async () => {
  bundle = await buildWidget();
  browser = await launchChromium();
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
  await bundle?.remove();
});

/** Starts a demo server closed after the suite. */
async function serve(options: Parameters<typeof startDemo>[1]): Promise<RunningDemo> {
  const server = await startDemo(bundle.dir, { upstream: { paceMs: 0 }, ...options });
  cleanups.push(() => server.close());
  return server;
}

async function open(server: { url: string }): Promise<DemoPage> {
  const demo = await openDemo(browser, server);
  cleanups.push(() => demo.close());
  return demo;
}

/** The browser reports a failed resource load as a console error; those are expected here, nothing else is. */
const unexpected = (errors: string[]) => errors.filter((text) => !/Failed to load resource/.test(text));

describe('failures a visitor can meet', () => {
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

    // The refused question never reached the upstream, and the widget did not try again on its own.
    assert.equal(server.upstream!.requests.length, 1);
    const answerRequests = (await demo.traffic()).filter((text) => text.startsWith(`${server.url}/api/answer\n`));
    assert.equal(answerRequests.length, 4, 'two requests and two responses, no more');
    assert.deepEqual(unexpected(demo.errors), []);
  });

  test('the proxy down shows a network error, and Retry works once it is back', async () => {
    let server = await serve({});
    const { port } = server;
    const demo = await open(server);
    const widget = demo.widget('inline-widget');

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
    assert.equal(server.upstream!.requests.length, 1);
    assert.deepEqual(unexpected(demo.errors), []);
  });
});
