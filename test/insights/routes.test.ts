import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createProxyHandler, sqliteInsightsStore } from '../../packages/bot-answer-proxy/src/proxy/node.js';
import { optionsFrom } from '../../packages/bot-answer-proxy/src/proxy/cli-options.js';
import { INSIGHTS_CSP } from '../../packages/bot-answer-proxy/src/insights/page.js';
import { startInsightsProxy, tempDir, TOKEN, type InsightsProxy } from './helpers.js';

let folder: Awaited<ReturnType<typeof tempDir>>;
let proxy: InsightsProxy;
before(async () => {
  folder = await tempDir();
  proxy = await startInsightsProxy({ insightsDb: join(folder.dir, 'routes.sqlite'), trustProxy: 1 });
});
after(async () => {
  await proxy?.close();
  await folder.remove();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${proxy.url}${path}`, { headers, redirect: 'manual' });
const signIn = (token: string, headers: Record<string, string> = {}) =>
  fetch(`${proxy.url}/insights/sign-in`, { method: 'POST', body: new URLSearchParams({ token }), headers: { 'x-forwarded-for': '198.51.100.7', ...headers }, redirect: 'manual' });
const cookieOf = (response: Response) => response.headers.get('set-cookie')!.split(';')[0]!;

const ROUTES: Array<[string, string]> = [
  ['GET', '/insights'],
  ['GET', '/insights/'],
  ['GET', '/insights/insights.js'],
  ['GET', '/insights/insights.css'],
  ['GET', '/insights/questions.csv'],
  ['GET', '/insights/sign-in'],
  ['POST', '/insights/sign-in'],
  ['POST', '/insights/sign-out'],
];

describe('insights routes without a token', () => {
  it('answer 404, every one of them, with the store on and with insights off', async () => {
    const store = await tempDir();
    const noToken = await startInsightsProxy({ insightsDb: join(store.dir, 'x.sqlite'), insightsToken: undefined });
    const off = await startInsightsProxy({ insightsToken: undefined });
    try {
      for (const server of [noToken, off]) {
        for (const [method, path] of ROUTES) {
          const response = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}` }, redirect: 'manual' });
          assert.equal(response.status, 404, `${method} ${path}`);
          assert.equal(((await response.json()) as { error: { code: string; message: string } }).error.code, 'not_found');
        }
      }
      // Control: the same route exists once a token is set.
      assert.equal((await get('/insights/insights.js')).status, 200);
    } finally {
      await noToken.close();
      await off.close();
      await store.remove();
    }
  });

  it('a token needs a store, and at least 16 characters (handler and command alike)', async () => {
    const base = { apiKey: 'k', baseUrl: 'http://127.0.0.1:1' };
    assert.throws(() => createProxyHandler({ ...base, insightsToken: TOKEN }), /insightsToken needs an insightsStore/);
    assert.throws(() => createProxyHandler({ ...base, insightsStore: sqliteInsightsStore(':memory:'), insightsToken: 'short' }), /at least 16 characters/);
    await assert.rejects(optionsFrom([], { INSIGHTS_TOKEN: TOKEN }), /set INSIGHTS_DB too/);
    await assert.rejects(optionsFrom([], { INSIGHTS_DB: 'x.sqlite', INSIGHTS_TOKEN: 'short' }), /at least 16 characters/);
    await assert.rejects(optionsFrom([], { INSIGHTS_DB: 'x.sqlite', INSIGHTS_RETENTION_DAYS: '0' }), /at least 1/);
    const options = await optionsFrom(['--insights-retention-days', '30'], { INSIGHTS_DB: 'x.sqlite', INSIGHTS_TOKEN: TOKEN });
    assert.ok(options !== 'help');
    assert.deepEqual([options.insightsDb, options.insightsToken, options.insightsRetentionDays], ['x.sqlite', TOKEN, 30]);
  });
});

describe('insights routes with a token', () => {
  it('the page and the export take the bearer token; a wrong one is 401, none is 401 for the export and the sign-in form for the page', async () => {
    const page = await get('/insights', { authorization: `Bearer ${TOKEN}` });
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-security-policy'), INSIGHTS_CSP);
    assert.match(INSIGHTS_CSP, /script-src 'self'/);
    assert.doesNotMatch(INSIGHTS_CSP, /unsafe/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.match(await page.text(), /<script src="\/insights\/insights.js" defer><\/script>/);
    assert.equal((await get('/insights/questions.csv', { authorization: `Bearer ${TOKEN}` })).status, 200);

    for (const path of ['/insights', '/insights/questions.csv']) {
      const wrong = await get(path, { authorization: `Bearer ${TOKEN}x`, 'x-forwarded-for': '198.51.100.1' });
      assert.equal(wrong.status, 401, path);
      assert.equal(((await wrong.json()) as { error: { code: string } }).error.code, 'unauthorized');
      assert.match(wrong.headers.get('www-authenticate')!, /error="invalid_token"/);
    }
    const anonymousExport = await get('/insights/questions.csv');
    assert.equal(anonymousExport.status, 401);
    const anonymousPage = await get('/insights');
    assert.equal(anonymousPage.status, 303);
    assert.equal(anonymousPage.headers.get('location'), '/insights/sign-in');
    const form = await get('/insights/sign-in');
    assert.equal(form.status, 200);
    const html = await form.text();
    assert.match(html, /<form method="post" action="\/insights\/sign-in">/);
    assert.match(html, /type="password"/);
  });

  it('signs in with the form: an HttpOnly, SameSite=Strict cookie that holds no token, good for the page and the export', async () => {
    const wrong = await signIn(`${TOKEN}x`, { 'x-forwarded-for': '198.51.100.2' });
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /That token is not right/);
    assert.equal(wrong.headers.get('set-cookie'), null);

    const right = await signIn(TOKEN);
    assert.equal(right.status, 303);
    assert.equal(right.headers.get('location'), '/insights');
    const setCookie = right.headers.get('set-cookie')!;
    assert.match(setCookie, /; HttpOnly/);
    assert.match(setCookie, /; SameSite=Strict/);
    assert.match(setCookie, /; Path=\/insights/);
    assert.doesNotMatch(setCookie, /Secure/, 'plain http: no Secure flag (the browser would drop the cookie)');
    for (const form of [TOKEN, encodeURIComponent(TOKEN), Buffer.from(TOKEN).toString('base64'), TOKEN.slice(4, 20)]) assert.ok(!setCookie.includes(form), 'the token is not in the cookie');
    const cookie = cookieOf(right);
    assert.equal((await get('/insights', { cookie })).status, 200);
    assert.equal((await get('/insights/questions.csv', { cookie })).status, 200);

    // A cookie changed by one character, or made for another token, signs nobody in. The MAC's
    // last character carries two spare bits: a text differing only there decodes to the same
    // bytes, and is refused all the same.
    const [name, value] = cookie.split('=') as [string, string];
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const changed = (at: number, to: (index: number) => number) => `${name}=${value.slice(0, at)}${ALPHABET[to(ALPHABET.indexOf(value.at(at)!))]}${value.slice(at + 1 || value.length)}`;
    assert.equal((await get('/insights', { cookie: changed(-10, (i) => (i + 1) % 64) })).status, 303);
    assert.equal((await get('/insights', { cookie: changed(-1, (i) => i ^ 1) })).status, 303, 'the spare bits of the last character');
    const other = await startInsightsProxy({ insightsDb: join(folder.dir, 'other.sqlite'), insightsToken: `${TOKEN}-other` });
    try {
      assert.equal((await fetch(`${other.url}/insights`, { headers: { cookie }, redirect: 'manual' })).status, 303);
    } finally {
      await other.close();
    }

    const out = await fetch(`${proxy.url}/insights/sign-out`, { method: 'POST', headers: { cookie }, redirect: 'manual' });
    assert.equal(out.status, 303);
    assert.match(out.headers.get('set-cookie')!, /Max-Age=0/);
  });

  it('sets Secure on the cookie behind a TLS terminator it trusts', async () => {
    const secure = await signIn(TOKEN, { 'x-forwarded-proto': 'https' });
    assert.match(secure.headers.get('set-cookie')!, /; Secure/);
    const untrusted = await startInsightsProxy({ insightsDb: join(folder.dir, 'untrusted.sqlite') });
    try {
      const response = await fetch(`${untrusted.url}/insights/sign-in`, { method: 'POST', body: new URLSearchParams({ token: TOKEN }), headers: { 'x-forwarded-proto': 'https' }, redirect: 'manual' });
      assert.doesNotMatch(response.headers.get('set-cookie')!, /Secure/, 'without trustProxy the header is not believed');
    } finally {
      await untrusted.close();
    }
  });

  it('refuses forms posted from another site, and a token in a URL', async () => {
    assert.equal((await signIn(TOKEN, { 'sec-fetch-site': 'cross-site' })).status, 403);
    assert.equal((await signIn(TOKEN, { origin: 'https://evil.example' })).status, 403);
    assert.equal((await signIn(TOKEN, { origin: proxy.url, 'sec-fetch-site': 'same-origin' })).status, 303, 'control: the same form from the page');
    for (const path of [`/insights?token=${TOKEN}`, `/insights/questions.csv?access_token=${TOKEN}`]) {
      const response = await get(path);
      assert.equal(response.status, 400, path);
      assert.match(((await response.json()) as { error: { code: string; message: string } }).error.message, /never goes in a URL/);
    }
    const form = await fetch(`${proxy.url}/insights/sign-in`, { method: 'POST', body: JSON.stringify({ token: TOKEN }), headers: { 'content-type': 'application/json' } });
    assert.equal(form.status, 415);
  });

  it('allows 10 wrong tokens a minute per address, then refuses even the right one', async () => {
    const from = { 'x-forwarded-for': '203.0.113.50' };
    for (let i = 0; i < 10; i++) assert.equal((await signIn(`wrong-token-${i}-xxxxxxxxxx`, from)).status, 401);
    const limited = await signIn(TOKEN, from);
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal((await get('/insights', { authorization: `Bearer ${TOKEN}`, ...from })).status, 429);
    assert.equal((await signIn(TOKEN, { 'x-forwarded-for': '203.0.113.51' })).status, 303, 'another address is not affected');
  });

  it('checks the period and bot it is asked for', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    for (const period of ['1', '7', '30', '90']) assert.equal((await get(`/insights?period=${period}`, auth)).status, 200);
    const bad = await get('/insights?period=365', auth);
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /"period" is a number of days: 30, 7, 1, 90/);
    assert.equal((await get(`/insights?bot=${'b'.repeat(300)}`, auth)).status, 400);
    const head = await fetch(`${proxy.url}/insights`, { method: 'HEAD', headers: auth });
    assert.equal(head.status, 200);
    assert.equal((await head.text()).length, 0);
  });
});
