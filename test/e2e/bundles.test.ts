/**
 * The built files, over real HTTP in headless Chromium. Translations: separate scripts, each usable as a
 * classic script beside the IIFE bundle and as an ES module beside the module bundle, none of their text
 * in the main bundles. Encodings: the bundles on pages that are not in UTF-8. A classic script served without a charset is decoded in
 * the page's encoding, so every non-ASCII byte of the bundle would be misread there: the bundles are
 * ASCII only (other characters as escapes), and the element's own strings read the same on a
 * Shift_JIS and a windows-1252 page as on a UTF-8 one. Built from the current sources, driven in
 * headless Chromium.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { buildWidget, closeChromium, useChromium } from './harness.js';

const SUITE_TIMEOUT_MS = 120_000;

let bundle: Awaited<ReturnType<typeof buildWidget>>;
let browser: Browser;
let server: Server;
let origin: string;

/** A page in `charset` whose heading holds `marker` (bytes in that encoding), loading `script`. */
function page(charset: string, marker: Buffer, script: string): Buffer {
  return Buffer.concat([
    Buffer.from(`<!doctype html><html lang="en"><head><meta charset="${charset}"><title>Page</title></head><body><h1 id="marker">`),
    marker,
    Buffer.from(`</h1><bot-answer id="w" bot-id="demo" endpoint="/answer" mode="floating"></bot-answer><script src="/control.js"></script>${script}</body></html>`),
  ]);
}

const PAGES: Record<string, { charset: string; marker: Buffer; text: string }> = {
  // 日本 in Shift_JIS, café in windows-1252.
  sjis: { charset: 'Shift_JIS', marker: Buffer.from([0x93, 0xfa, 0x96, 0x7b]), text: '日本' },
  cp1252: { charset: 'windows-1252', marker: Buffer.from([0x63, 0x61, 0x66, 0xe9]), text: 'café' },
};

const SCRIPTS: Record<string, string> = {
  iife: '<script src="/bot-answer.iife.js"></script>',
  es: '<script type="module" src="/bot-answer.js"></script>',
};

before(async () => {
  bundle = await buildWidget();
  browser = await useChromium();
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const [, name, kind] = /^\/page-(\w+)-(\w+)\.html$/.exec(url.pathname) ?? [];
    if (name && kind && PAGES[name] && SCRIPTS[kind]) {
      const p = PAGES[name];
      res.writeHead(200, { 'content-type': `text/html; charset=${p.charset}` });
      return res.end(page(p.charset, p.marker, SCRIPTS[kind]));
    }
    if (url.pathname == '/control.js') {
      // UTF-8 bytes served without a charset, as the bundles are: the page must misread these.
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(Buffer.from('window.control = "Ask a question\u2026";', 'utf8'));
    }
    if (url.pathname == '/answer') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ answer: 'Yes.', answer_found: true, sources: [] }));
    }
    if (url.pathname == '/locales.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(LOCALES_PAGE);
    }
    const file = url.pathname.slice(1);
    if (/^bot-answer(-box|-chat|\.iife)?\.js$|^locales\/[a-z]{2}\.js$/.test(file)) {
      // No charset, as many servers send scripts.
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(await readFile(join(bundle.dir, file)));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, { timeout: SUITE_TIMEOUT_MS });

after(async () => {
  if (browser) await closeChromium();
  server?.close();
  await bundle?.remove();
}, { timeout: SUITE_TIMEOUT_MS });

/** Reads the element's strings in the page (a string: this Node-typed file has no DOM types). */
const READ = `(async () => {
  const el = document.getElementById('w');
  await customElements.whenDefined('bot-answer');
  await el.updateComplete;
  const root = el.shadowRoot;
  el.ask('Q');
  await new Promise((r) => { const t = setInterval(() => el.state == 'done' && (clearInterval(t), r()), 20); });
  await el.updateComplete;
  return {
    charset: document.characterSet,
    marker: document.getElementById('marker').textContent,
    control: window.control,
    placeholder: root.querySelector('textarea').placeholder,
    close: root.querySelector('.hd button[aria-label]').textContent,
    thumbs: [...root.querySelectorAll('.acts button[aria-pressed]')].map((b) => (b.querySelector('svg') ? 'svg' : b.textContent) + ':' + b.getAttribute('aria-label')).join(' '),
    cursor: [...root.adoptedStyleSheets].flatMap((s) => [...s.cssRules]).find((r) => /:after/.test(r.selectorText))?.style.content,
  };
})()`;

/**
 * A page in English with boxes in other languages: the IIFE bundle and the German translation as classic
 * scripts; the French one as an ES module; the Japanese one added only after the boxes rendered.
 */
const LOCALES_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Locales</title>
<script src="/bot-answer.iife.js"></script><script src="/locales/de.js"></script><script type="module" src="/locales/fr.js"></script></head>
<body><bot-answer id="de" bot-id="demo" lang="de"></bot-answer><div lang="fr-CA"><bot-answer id="fr" bot-id="demo"></bot-answer></div>
<bot-answer id="ja" bot-id="demo" lang="ja"></bot-answer><bot-answer id="en" bot-id="demo"></bot-answer></body></html>`;

const PLACEHOLDERS = `(async () => {
  await customElements.whenDefined('bot-answer');
  const boxes = [...document.querySelectorAll('bot-answer')];
  await Promise.all(boxes.map((b) => b.updateComplete));
  return Object.fromEntries(boxes.map((b) => [b.id, b.shadowRoot.querySelector('textarea').placeholder]));
})()`;

describe('translations', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('each language is a small ASCII script of its own, and no translation is in the element\'s files', async () => {
    const element = ['bot-answer.iife.js', 'bot-answer.js', 'bot-answer-box.js', 'bot-answer-chat.js'];
    const main = (await Promise.all(element.map((f) => readFile(join(bundle.dir, f), 'latin1')))).join('');
    for (const lang of ['de', 'fr', 'es', 'pt', 'ja', 'zh']) {
      const script = await readFile(join(bundle.dir, 'locales', `${lang}.js`), 'latin1');
      assert.ok(script.length < 4000, `${lang}.js is ${script.length} bytes`);
      assert.doesNotMatch(script, /^\s*(import|export)\b|[;}]\s*(import|export)\b/m, `${lang}.js has no import or export`);
      // Its first strings (as the minifier wrote them) appear nowhere in the main bundles.
      const heading = /heading:("[^"]+")/.exec(script)![1]!;
      const noAnswer = /noAnswer:("[^"]+")/.exec(script)![1]!;
      assert.ok(!main.includes(heading) && !main.includes(noAnswer), `${lang} strings in the main bundle`);
    }
    assert.ok(main.includes('"Ask a question"'), 'the English strings are in the element\'s files');
  });

  test('loaded as a classic script or an ES module, or after the box rendered, a translation applies by lang', async () => {
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      await tab.goto(`${origin}/locales.html`);
      await tab.waitForFunction(() => (globalThis as { botAnswerLocales?: object }).botAnswerLocales && 'fr' in (globalThis as unknown as { botAnswerLocales: object }).botAnswerLocales);
      assert.deepEqual(await tab.evaluate(PLACEHOLDERS), {
        de: 'Stellen Sie eine Frage\u2026',
        fr: 'Posez une question\u2026',
        ja: 'Ask a question\u2026',
        en: 'Ask a question\u2026',
      });
      await tab.addScriptTag({ url: '/locales/ja.js' });
      assert.equal((await tab.evaluate<Record<string, string>>(PLACEHOLDERS)).ja, '\u8cea\u554f\u3092\u5165\u529b\u2026');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});

describe('the bundles on pages not in UTF-8', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('the built bundles are ASCII only', async () => {
    const files = (await readdir(bundle.dir, { recursive: true })).filter((f) => f.endsWith('.js'));
    for (const file of ['bot-answer.js', 'bot-answer.iife.js', 'bot-answer-box.js', 'bot-answer-chat.js']) assert.ok(files.includes(file), files.join());
    for (const file of files) {
      const bytes = await readFile(join(bundle.dir, file));
      const at = bytes.findIndex((b) => b > 0x7f);
      assert.equal(at, -1, `${file}: a non-ASCII byte at ${at}: ${bytes.subarray(Math.max(0, at - 40), at + 8).toString('utf8')}`);
    }
  });

  for (const name of Object.keys(PAGES)) {
    for (const kind of Object.keys(SCRIPTS)) {
      test(`${PAGES[name]!.charset} page, ${kind == 'iife' ? 'classic script' : 'ES module'} served without a charset: the element's strings read correctly`, async () => {
        const context = await browser.newContext();
        try {
          const tab = await context.newPage();
          const errors: string[] = [];
          tab.on('pageerror', (e) => errors.push(e.message));
          await tab.goto(`${origin}/page-${name}-${kind}.html`);
          const seen = await tab.evaluate<Record<string, string>>(READ);
          // The page really is in that encoding, and really decodes an unlabelled UTF-8 script in it.
          assert.equal(seen.charset, PAGES[name]!.charset);
          assert.equal(seen.marker, PAGES[name]!.text);
          assert.notEqual(seen.control, 'Ask a question\u2026');
          // The element's own non-ASCII strings, from its JavaScript, its template and its strings table.
          assert.equal(seen.placeholder, 'Ask a question\u2026');
          assert.equal(seen.close, '\u2715');
          // The thumbs are drawn as SVG (no emoji font needed), with their names.
          assert.equal(seen.thumbs, 'svg:Helpful svg:Not helpful');
          // And from its style sheet: the streaming cursor.
          assert.equal(seen.cursor, '"\u258D"');
          assert.deepEqual(errors, []);
        } finally {
          await context.close();
        }
      });
    }
  }
});
