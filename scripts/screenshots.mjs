// Produces the README's screenshots from the running demo, in headless Chromium, into docs/images/.
// Run with `npm run screenshots` (builds first); `npm run screenshots -- insights` (or `demo`,
// `search`) makes one group only. Deterministic where it can be: fixed viewport, locale, time zone and
// clock, reduced motion, the local Answer API's answers, seeded sample questions.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { sampleBatches } from '../bench/insights-data.ts';
import { startDemoServer } from '../demo/server.ts';
import { sqliteInsightsStore } from '../packages/bot-answer-proxy/src/proxy/node.ts';
import { CHROME_ARGS, requireChrome } from './find-chrome.mjs';

const OUT = join(import.meta.dirname, '..', 'docs', 'images');
const FIXED_TIME = new Date('2026-11-20T10:30:00Z');
const INSIGHTS_TOKEN = 'screenshots-insights-token-00000';
const only = process.argv[2];

// The insights page shows a month of sample questions (what a docs site collects in a month).
const folder = await mkdtemp(join(tmpdir(), 'bot-answer-screenshots-'));
const insightsDb = join(folder, 'insights.sqlite');
await seedInsights(insightsDb);
const server = await startDemoServer({ port: 0, log: false, rateLimitPerMinute: 0, upstream: { paceMs: 5 }, insightsDb, insightsToken: INSIGHTS_TOKEN });
const browser = await chromium.launch({ executablePath: requireChrome(), args: CHROME_ARGS, headless: true });
try {
  await mkdir(OUT, { recursive: true });
  if (!only || only === 'demo') {
    await desktopShots();
    await phoneShot();
  }
  if (!only || only === 'search') await searchShot();
  if (!only || only === 'insights') await insightsShot();
  console.log(`screenshots: written to docs/images/`);
} finally {
  await browser.close();
  await server.close();
  await rm(folder, { recursive: true, force: true });
}

/** Writes 6,000 generated questions over the last 30 days (seeded: the same every run, relative to today). */
async function seedInsights(file) {
  const store = sqliteInsightsStore(file);
  await store.open();
  for (const batch of sampleBatches({ rows: 6_000, days: 30, now: Date.now(), seed: 7 })) await store.write(batch);
  await store.close();
}

/** Opens the demo page in a fresh, fixed context. */
async function openDemo(viewport) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC', reducedMotion: 'reduce' });
  // Sources point at made-up hosts: nothing leaves this machine.
  const origin = new URL(server.url).origin;
  await context.route((url) => url.origin !== origin && url.protocol !== 'data:', (route) => route.abort());
  const page = await context.newPage();
  await page.clock.setFixedTime(FIXED_TIME);
  page.on('pageerror', (error) => console.error(`screenshots: page error: ${error.message}`));
  await page.goto(`${server.url}/`);
  await page.locator('#inline-widget [part="input"]').waitFor();
  return { context, page };
}

/** Asks `widget` (a CSS selector) `question` by keyboard and waits for the finished answer. */
async function ask(page, widget, question) {
  const input = page.locator(`${widget} [part="input"]`);
  await input.fill(question);
  await input.press('Enter');
  await page.locator(`${widget} article.turn.done`).last().waitFor();
}

async function desktopShots() {
  const { context, page } = await openDemo({ width: 1280, height: 900 });

  // The hero: an answered question with its sources open, and the event log beside it.
  await ask(page, '#inline-widget', 'How many vacation days do I get per year?');
  await page.locator('#inline-widget [part="sources-toggle"]').last().click();
  await page.locator('#inline-widget [part="thread"]').evaluate((el) => (el.scrollTop = 0));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(OUT, 'demo.png') });

  // Close-ups of single regions, without the floating launcher fixed over them.
  await setLauncherHidden(page, true);
  // The end of the same answer: its open sources panel.
  await page.locator('#inline-widget [part="thread"]').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await page.locator('#inline-widget').screenshot({ path: join(OUT, 'inline-sources.png') });

  // The restyled, dark instance.
  await ask(page, '#dark-widget', 'How do I verify a webhook signature?');
  await page.locator('#dark-widget [part="thread"]').evaluate((el) => (el.scrollTop = 0));
  await page.locator('.restyled-section').screenshot({ path: join(OUT, 'restyled-dark.png') });

  await setLauncherHidden(page, false);

  // The floating dialog over the page.
  await page.locator('#floating-widget [part="launcher"]').click();
  await ask(page, '#floating-widget', 'How do I roll back a bad production deploy?');
  await page.locator('#floating-widget [part="thread"]').evaluate((el) => (el.scrollTop = 0));
  await page.screenshot({ path: join(OUT, 'floating.png') });
  await context.close();
}

/** Hides the floating widget (through CSSOM: the page's CSP allows no inline style). */
function setLauncherHidden(page, hidden) {
  return page.locator('#floating-widget').evaluate((el, value) => (el.style.visibility = value ? 'hidden' : ''), hidden);
}

/** The owner's insights page, signed in, its top part: totals, the chart, the first groups. */
/**
 * The inline widget with pages found as the visitor types, the second one active. Where the demo's proxy has
 * no search yet (a 404), its answer is stood in for by pages of the sample knowledge base found by title.
 */
async function searchShot() {
  const { context, page } = await openDemo({ width: 1280, height: 900 });
  await context.route('**/api/search?*', async (route) => {
    const response = await route.fetch();
    if (response.status() != 404) return route.fulfill({ response });
    const q = new URL(route.request().url()).searchParams.get('q') ?? '';
    const pages = [
      ['Vacation and leave policy › Vacation days', 'https://handbook.example.com/vacation#days', 'Full-time employees get 25 vacation days per year, plus public holidays.'],
      ['Vacation and leave policy › Carrying over', 'https://handbook.example.com/vacation#carry-over', 'Up to 5 unused vacation days carry over to the next year.'],
      ['Vacation and leave policy › Sabbaticals', 'https://handbook.example.com/vacation#sabbatical', 'After five years, a four-week paid sabbatical on top of vacation.'],
      ['Remote work › Working from abroad', 'https://handbook.example.com/remote#abroad', 'Up to 20 days a year from abroad; longer stays count as vacation.'],
    ];
    const results = pages.map(([title, url, snippet]) => {
      const at = snippet.toLowerCase().indexOf(q.toLowerCase());
      return { title, url, snippet, highlights: at >= 0 ? [[at, at + q.length]] : [] };
    });
    await route.fulfill({ json: { results } });
  });
  await setLauncherHidden(page, true);
  const input = page.locator('#inline-widget [part="input"]');
  await input.focus();
  await input.pressSequentially('vacat', { delay: 120 });
  await page.locator('#inline-widget [part="search-results"]:not([hidden]) [part="search-result"]').first().waitFor();
  await input.press('ArrowDown');
  await input.press('ArrowDown');
  await page.locator('#inline-widget').screenshot({ path: join(OUT, 'search.png') });
  await context.close();
}

async function insightsShot() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1100 }, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC', reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`screenshots: page error: ${error.message}`));
  await page.goto(`${server.url}/insights`);
  await page.locator('#token').fill(INSIGHTS_TOKEN);
  await page.locator('button[type="submit"]').click();
  await page.locator('[data-chart] svg').waitFor();
  await page.screenshot({ path: join(OUT, 'insights.png') });
  await context.close();
}

async function phoneShot() {
  const { context, page } = await openDemo({ width: 390, height: 760 });
  await page.locator('#floating-widget [part="launcher"]').click();
  await ask(page, '#floating-widget', 'How much can I spend on hotels and meals when I travel for work?');
  await page.locator('#floating-widget [part="thread"]').evaluate((el) => (el.scrollTop = 0));
  await page.screenshot({ path: join(OUT, 'floating-phone.png') });
  await context.close();
}
