/**
 * The owner's insights page in headless Chromium, served by the demo server with insights in a
 * SQLite file: a visitor asks a hostile question in the demo's widget and rates the answer
 * with a hostile comment; the owner follows the demo page's link, is refused with a wrong
 * token, signs in, and sees the chart and the question as text (no dialog, no element made
 * from it); the token appears in no URL the browser used; on a phone the page fits.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningDemo } from '../../demo/server.js';
import { INSIGHTS_CSP } from '../../packages/bot-answer-proxy/src/insights/page.js';
import { buildWidget, closeChromium, useChromium, openDemo, startDemo, within } from './harness.js';

const TOKEN = 'owner-token-for-browser-tests-42';
const HOSTILE = '<img src=x onerror=alert(1)>';
const HOSTILE_COMMENT = '<script>alert(2)</script> "quoted" & more';

let bundle: Awaited<ReturnType<typeof buildWidget>>;
let browser: Browser;
let server: RunningDemo;
let folder: string;

before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'bot-answer-insights-e2e-'));
  bundle = await buildWidget();
  browser = await useChromium();
  server = await startDemo(bundle.dir, { rateLimitPerMinute: 0, insightsDb: join(folder, 'insights.sqlite'), insightsToken: TOKEN });
});

after(async () => {
  if (browser) await closeChromium();
  await server?.close();
  await bundle?.remove();
  await rm(folder, { recursive: true, force: true });
});

/** A page of a fresh context that fails on any dialog, and keeps every URL it requested and every console error. */
async function ownerPage(viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; page: Page; urls: string[]; errors: string[]; dialogs: string[] }> {
  const context = await browser.newContext({ viewport, locale: 'en-US', timezoneId: 'UTC' });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const urls: string[] = [];
  const errors: string[] = [];
  const dialogs: string[] = [];
  context.on('request', (request) => urls.push(request.url()));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, urls, errors, dialogs };
}

async function signIn(page: Page, token: string): Promise<void> {
  await page.locator('#token').fill(token);
  await page.locator('button[type="submit"]').click();
  await page.waitForLoadState();
}

describe('the insights page in a browser', { timeout: 180_000 }, () => {
  test('a visitor asks a hostile question and rates it; the owner signs in and sees it as text, with the chart', async () => {
    // The visitor, on the demo page: the widget there sends its ratings to the proxy.
    const visitor = await openDemo(browser, server);
    try {
      const widget = visitor.widget('inline-widget');
      await widget.input.fill(HOSTILE);
      await widget.input.press('Enter');
      await widget.root.locator('article.turn.done, article.turn.no-answer').last().waitFor();
      await widget.lastTurn.locator('button[aria-label="Not helpful"]').click();
      await widget.root.locator('[part="comment"]').fill(HOSTILE_COMMENT);
      await widget.root.locator('[part="comment"]').press('Enter');
      // "Thanks" is already shown for the thumb; the field goes once the proxy has taken the comment.
      await widget.root.locator('[part="comment"]').waitFor({ state: 'detached' });
      await widget.lastTurn.locator('.note', { hasText: 'Thanks' }).waitFor();
      assert.deepEqual(visitor.errors, []);
    } finally {
      await visitor.close();
    }
    await within(10_000, 'the rows written', server.handler.insights!.flush());

    const { context, page, urls, errors, dialogs } = await ownerPage();
    try {
      // The demo page links the page.
      await page.goto(`${server.url}/`);
      const link = page.locator('#insights-link a');
      await link.waitFor();
      await link.click();
      await page.waitForURL('**/insights/sign-in');
      assert.equal(await page.locator('h2').count(), 0, 'signed out: no figures, only the form');
      assert.equal(await page.getByText(HOSTILE).count(), 0);

      await signIn(page, `${TOKEN}-wrong`);
      await page.locator('.error', { hasText: 'That token is not right.' }).waitFor();

      await signIn(page, TOKEN);
      await page.waitForURL(/\/insights$/);
      const response = await page.reload();
      assert.equal(response!.headers()['content-security-policy'], INSIGHTS_CSP);

      // The chart: drawn by the page's script, 30 days of stacked bars.
      const chart = page.locator('[data-chart] svg[role="img"]');
      await chart.waitFor();
      assert.match((await chart.getAttribute('aria-label'))!, /^Questions per day: 1 questions over 30 days/);
      assert.equal(await chart.locator('rect').count(), 90, 'answered, not sure and the rest, each day');
      assert.equal(await page.locator('[data-chart] .chart-data.visually-hidden tbody tr').count(), 30, 'the table stays for screen readers');

      // The hostile question and comment are text.
      const unanswered = page.locator('section[aria-labelledby="unanswered"]');
      assert.equal(await unanswered.locator('.text', { hasText: HOSTILE }).count(), 1, 'the question is shown as written');
      assert.equal(await page.locator('main img, main script').count(), 0, 'no element was made from it');
      const comment = page.locator('blockquote.comment');
      assert.equal(await comment.textContent(), HOSTILE_COMMENT);
      assert.deepEqual(dialogs, []);

      const cookies = await context.cookies();
      assert.equal(cookies.length, 1);
      assert.equal(cookies[0]!.httpOnly, true);
      assert.equal(cookies[0]!.sameSite, 'Strict');
      assert.ok(!cookies[0]!.value.includes(TOKEN));

      // The filters post nothing and carry no token: choosing a period reloads the page.
      await page.locator('select[name="period"]').selectOption('7');
      await page.waitForURL(/period=7/);
      await chart.waitFor();
      assert.equal(await chart.locator('rect').count(), 21);

      for (const url of urls) assert.ok(!url.includes(TOKEN) && !url.includes(encodeURIComponent(TOKEN)), `the token is in no URL: ${url}`);
      // The only error is the refused wrong token (the browser reports the 401 it loaded).
      assert.deepEqual(errors.filter((e) => !/status of 401/.test(e)), []);
      assert.equal(errors.length, 1);

      await page.locator('.sign-out button').click();
      await page.waitForURL('**/insights/sign-in');
      assert.deepEqual(await context.cookies(), []);
    } finally {
      await context.close();
    }
  });

  test('is usable on a phone: the page fits 390 px without sideways scrolling', async () => {
    const { context, page, errors } = await ownerPage({ width: 390, height: 844 });
    try {
      await page.goto(`${server.url}/insights`);
      await signIn(page, TOKEN);
      await page.locator('[data-chart] svg').waitFor();
      const widths = await page.evaluate('({ page: document.documentElement.scrollWidth, chart: document.querySelector("[data-chart] svg").getBoundingClientRect().width })') as { page: number; chart: number };
      assert.ok(widths.page <= 390, `the page is ${widths.page} px wide`);
      assert.ok(widths.chart <= 390 && widths.chart > 250, `the chart is ${widths.chart} px wide`);
      // The question still fits, wrapped.
      const box = await page.locator('.text', { hasText: HOSTILE }).first().boundingBox();
      assert.ok(box && box.x + box.width <= 390);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
