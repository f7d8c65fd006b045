/**
 * End to end, in headless Chromium: a private knowledge base. A site on another origin embeds
 * the element; the proxy lets that origin send credentials and checks every visitor with an
 * `authorize` hook. A signed-in visitor's cookie (`credentials="include"`) or a token from the
 * host's `getHeaders` callback gets answers; a visitor without either gets the proxy's 401 as
 * the element's error; feedback on an answer reaches the proxy's log with the answer's request id.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningDemo } from '../../demo/server.js';
import type { Authorization } from '../../packages/bot-answer-proxy/src/proxy/index.js';
import { buildWidget, closeChromium, useChromium, startDemo, within } from './harness.js';

const SUITE_TIMEOUT_MS = 120_000;
const QUESTION = 'How many vacation days do I get per year?';

let bundle: Awaited<ReturnType<typeof buildWidget>>;
let browser: Browser;
let proxy: RunningDemo;
let site: ReturnType<typeof createServer>;
let siteOrigin: string;
const logs: string[] = [];
/** What the authorize hook saw, per request: its cookie and Authorization headers. */
const seen: Array<{ cookie: string | null; authorization: string | null; verdict: Authorization }> = [];
const contexts: BrowserContext[] = [];

/** The site's page: one element per way of signing in, all talking to the proxy cross-origin. */
const sitePage = (proxyUrl: string) => `<!doctype html><html lang="en"><title>Intranet</title>
<script type="module" src="${proxyUrl}/bot-answer.js"></script>
<bot-answer id="cookie" bot-id="demo" endpoint="${proxyUrl}/api/answer" credentials="include" feedback></bot-answer>
<bot-answer id="token" bot-id="demo" endpoint="${proxyUrl}/api/answer"></bot-answer>
<bot-answer id="anonymous" bot-id="demo" endpoint="${proxyUrl}/api/answer"></bot-answer>
<script type="module">
  customElements.whenDefined('bot-answer').then(() => {
    document.getElementById('token').getHeaders = async () => ({ authorization: 'Bearer token-for-bob' });
  });
  window.done = [];
  document.addEventListener('bot-answer-done', (e) => window.done.push({ id: e.target.id, requestId: e.detail.requestId }));
</script>
</html>`;

function authorize(request: Request): Authorization {
  const cookie = request.headers.get('cookie');
  const authorization = request.headers.get('authorization');
  const verdict: Authorization = /(^|; )session=alice(;|$)/.test(cookie ?? '')
    ? { user: 'alice' }
    : authorization === 'Bearer token-for-bob'
      ? { user: 'bob' }
      : 'unauthenticated';
  // The answers' verdicts (the searches sent as the visitor typed carry the same credentials).
  if (new URL(request.url).pathname.endsWith('/answer')) seen.push({ cookie, authorization, verdict });
  return verdict;
}

before(async () => {
  bundle = await buildWidget();
  browser = await useChromium();
  const html = { value: '' };
  site = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html.value));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  proxy = await startDemo(bundle.dir, {
    // Unpaced: who is answered is under test here, not how the answer streams in (30 ms between pieces by default).
    upstream: { paceMs: 0 },
    allowedOrigins: [siteOrigin],
    allowCredentials: true,
    authorize,
    log: (line) => logs.push(line),
  });
  html.value = sitePage(proxy.url);
}, { timeout: SUITE_TIMEOUT_MS });

after(async () => {
  for (const context of contexts) await context.close();
  if (browser) await closeChromium();
  await proxy?.close();
  await new Promise((resolve) => (site?.close(resolve), site?.closeAllConnections()));
  await bundle?.remove();
}, { timeout: SUITE_TIMEOUT_MS });

/** The site's page in a fresh browser context holding the visitor's session cookie for the proxy's host. */
async function openSite(): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US' });
  contexts.push(context);
  context.setDefaultTimeout(15_000);
  // Same site (127.0.0.1), other origin (another port): a Lax cookie goes along when credentials are included.
  await context.addCookies([{ name: 'session', value: 'alice', domain: '127.0.0.1', path: '/', sameSite: 'Lax' }]);
  const page = await context.newPage();
  await page.goto(`${siteOrigin}/`);
  await page.locator('#cookie [part="input"]').waitFor();
  return page;
}

async function ask(page: Page, id: string): Promise<string> {
  const widget = page.locator(`#${id}`);
  await widget.locator('[part="input"]').fill(QUESTION);
  await widget.locator('[part="input"]').press('Enter');
  const turn = widget.locator('article.turn').last();
  await turn.locator('xpath=self::*[contains(@class, "done") or contains(@class, "error")]').waitFor();
  return (await turn.getAttribute('class')) ?? '';
}

const requestLines = () => logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record.msg === 'request' && record.method === 'POST');

describe('a private knowledge base on another origin', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('the session cookie goes along with credentials="include", and the visitor is answered', async () => {
    const page = await openSite();
    seen.length = 0;
    assert.match(await ask(page, 'cookie'), /\bdone\b/);
    assert.ok((await page.locator('#cookie article.turn [part="answer"]').last().textContent())!.length > 50, 'an answer was shown');
    assert.deepEqual(seen.map((s) => s.verdict), [{ user: 'alice' }]);
    assert.match(seen[0]!.cookie!, /session=alice/);
  });

  test('a token from the host\'s getHeaders callback signs the visitor in, without a cookie', async () => {
    const page = await openSite();
    seen.length = 0;
    assert.match(await ask(page, 'token'), /\bdone\b/);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.authorization, 'Bearer token-for-bob');
    assert.equal(seen[0]!.cookie, null, 'the default credentials mode sends no cookie cross-origin');
    assert.deepEqual(seen[0]!.verdict, { user: 'bob' });
  });

  test('without a cookie or a token the proxy refuses with 401, and the element shows an error', async () => {
    const page = await openSite();
    seen.length = 0;
    const before = requestLines().length;
    assert.match(await ask(page, 'anonymous'), /\berror\b/);
    assert.deepEqual(seen.map((s) => s.verdict), ['unauthenticated']);
    const refused = requestLines().slice(before);
    assert.deepEqual(refused.map((record) => [record.status, record.code]), [[401, 'unauthorized']]);
    assert.match((await page.locator('#anonymous [part="error"]').last().textContent())!, /This assistant is not available/);
  });

  test('feedback on an answer reaches the proxy\'s log with that answer\'s request id', async () => {
    const page = await openSite();
    assert.match(await ask(page, 'cookie'), /\bdone\b/);
    const done = await page.evaluate<Array<{ id: string; requestId?: string }>>('window.done');
    const requestId = done.find((d) => d.id === 'cookie')?.requestId;
    assert.ok(requestId, 'bot-answer-done carries the request id');
    const answered = requestLines().find((record) => record.id === requestId);
    assert.ok(answered, 'the request id is the one the proxy logged for the answer');

    await page.locator('#cookie article.turn').last().locator('button[aria-label="Not helpful"]').click();
    const feedback = () => logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record.msg === 'feedback' && record.id === requestId);
    await within(10_000, 'the feedback log line', (async () => {
      while (feedback().length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    })());
    assert.equal(feedback()[0]!.rating, 'down');
  });
});
