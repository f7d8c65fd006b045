/**
 * A stand-in for the bot-answer proxy, served by the test server (a Web Test Runner middleware).
 * `POST /stub/answer` speaks the proxy's protocol (docs/protocol.md): JSON `{answer, answer_found,
 * sources}` for `stream:false`, otherwise named SSE events split at awkward chunk boundaries with
 * delays, heartbeat comments, and JSON errors with the proxy's statuses. The request's `bot_id`
 * picks the scenario (text after a `:` is free, so tests can keep their counts apart); `+slow`
 * after the name streams with pauses long enough to act mid-answer, `+fine` streams a long answer
 * as many small events written a few hundred bytes at a time (as a model streams it, only faster).
 * `GET /stub/count?bot=ID` tells how many answer requests that bot id received, `GET /stub/last?bot=ID`
 * the body of the last one; `POST /stub/script?bot=ID`
 * with a JSON `{answer, answer_found, sources, outcome?}` sets what the `script` scenario answers for that bot id.
 * Every answer carries `X-Request-Id: req-<bot id>-<n>` (n counts that bot's requests), as the proxy's do;
 * `GET /stub/headers?bot=ID` gives the headers of that bot's last answer request.
 * `POST /stub/answer/feedback` takes feedback (`{request_id, bot_id, rating, comment?}`) and answers 204 (503
 * for a bot id starting `fbfail`); `GET /stub/feedback?bot=ID` lists what it received: `[{body, headers, url}]`.
 *
 * `GET /stub/search?bot_id=ID&q=TEXT&limit=N` speaks the proxy's search (docs/protocol.md): `{results:
 * [{title, url, snippet, highlights}]}`, the pages of `SEARCH_PAGES` holding every typed word (in the
 * title or snippet, the last word by its beginning), in that order, at most `limit` (default 6), the
 * matched words' UTF-16 ranges in `highlights`. One page has a hostile title and snippet (matched by
 * "hostile"). `&slow=MS` answers after MS milliseconds, so a later search can overtake it. Bot ids
 * starting `nosearch` get `404 search_unavailable`, `searchrate` `429` (Retry-After 5), `searchdown`
 * `502`. `GET /stub/search-count?bot=ID` tells how many searches that bot id received, and
 * `GET /stub/search-last?bot=ID` the query string of the last one.
 */

export const SOURCES = [
  {
    url: 'https://wiki.example.com/travel',
    title: 'Travel and expense policy',
    app_name: 'Confluence',
    author: { name: 'Dana Reyes', email: 'dana@example.com', photo: 'https://127.0.0.1:9/dana.png' },
    snippet: 'Economy class for flights under six hours.',
    modified_time: 1730243482,
  },
  {
    url: 'javascript:alert(1)',
    title: 'مستند <b>عربي</b>',
    app_name: 'Drive',
    author: { name: 'Lee Wu', photo: 'http://127.0.0.1:9/a.png' },
    snippet: '<img src=x onerror=alert(1)>',
    modified_time: 1730243482000,
  },
  { title: 'No link', modified_time: 'not-a-date' },
];

export const ANSWER =
  'Flights under six hours are **economy** [[1]](https://wiki.example.com/travel).\n\n' +
  '| Class | Hours |\n|---|---|\n| Economy | < 6 |\n\n' +
  '```js\nconst limit = 6;\n```\n\nSee also [[2]](https://drive.example.com/x) and [[3]](https://wiki.example.com/other).';

/** What `GET /stub/search` searches, in this order. */
export const SEARCH_PAGES = [
  { title: 'Travel and expense policy › Booking flights', url: 'https://wiki.example.com/travel#booking-flights', snippet: 'Book flights in economy class for trips under six hours.' },
  { title: 'Travel and expense policy › Submitting expenses', url: 'https://wiki.example.com/travel#submitting-expenses', snippet: 'Submit expenses within 30 days, with a photo of every receipt.' },
  { title: 'Paid time off › Sabbatical', url: 'https://wiki.example.com/pto#sabbatical', snippet: 'After five years, a four-week paid sabbatical on top of vacation.' },
  { title: 'Paid time off › Vacation', url: 'https://wiki.example.com/pto#vacation', snippet: 'Full-time employees get 25 vacation days a year.' },
  { title: 'Laptop and equipment › Ordering a laptop', url: 'https://wiki.example.com/equipment#ordering', snippet: 'Order a laptop through the IT portal; it ships in five days.' },
  { title: 'Security › Passwords', url: 'https://wiki.example.com/security#passwords', snippet: 'Use the password manager; never reuse a password.' },
  { title: 'Security › Two-factor setup', url: 'https://wiki.example.com/security#two-factor', snippet: 'Set up two-factor sign-in with a security key or the app.' },
  { title: 'Onboarding › First week', url: 'https://wiki.example.com/onboarding#first-week', snippet: 'Your first week: laptop setup, accounts and a travel budget talk.' },
  { title: '<img src=x onerror="alert(1)">Hostile › <b>title</b>', url: 'https://wiki.example.com/hostile', snippet: 'A hostile snippet: <script>alert(1)</script> stays text.' },
];

const searchCounts = new Map();
const searchLast = new Map();

/** The stub's search: every typed word (the last by its beginning) in the title or snippet; ranges of the snippet's matched words. */
function stubSearch(q, limit) {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const partial = /[\p{L}\p{N}]$/u.test(q);
  const matches = (word, i) => (candidate) => (partial && i === words.length - 1 ? candidate.startsWith(word) : candidate === word);
  const results = [];
  for (const page of SEARCH_PAGES) {
    const inPage = [...`${page.title} ${page.snippet}`.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]);
    if (words.length === 0 || !words.every((word, i) => inPage.some(matches(word, i)))) continue;
    const highlights = [];
    for (const m of page.snippet.matchAll(/[\p{L}\p{N}]+/gu)) {
      if (words.some((word, i) => matches(word, i)(m[0].toLowerCase()))) highlights.push([m.index, m.index + m[0].length]);
    }
    results.push({ ...page, highlights });
    if (results.length >= limit) break;
  }
  return results;
}

async function search(ctx) {
  const bot = String(ctx.query.bot_id ?? '');
  searchCounts.set(bot, (searchCounts.get(bot) ?? 0) + 1);
  searchLast.set(bot, ctx.querystring);
  const error = (status, code, headers = {}) => {
    ctx.status = status;
    ctx.set(headers);
    ctx.body = { error: { code, message: code } };
  };
  if (ctx.query.slow) await sleep(Number(ctx.query.slow));
  if (bot.startsWith('nosearch')) return error(404, 'search_unavailable');
  if (bot.startsWith('searchrate')) return error(429, 'rate_limited', { 'retry-after': '5' });
  if (bot.startsWith('searchdown')) return error(502, 'upstream_error');
  const q = String(ctx.query.q ?? '');
  if (!bot || !q.trim()) return error(400, 'bad_request');
  ctx.set('x-request-id', `search-${bot}-${searchCounts.get(bot)}`);
  ctx.body = { results: stubSearch(q, Number(ctx.query.limit ?? 6)) };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const counts = new Map();
const scripts = new Map();
const lastBody = new Map();
const lastHeaders = new Map();
const feedback = new Map();
let seed = 7;
/** Deterministic pseudo-random chunk sizes (1..max). */
const rand = (max) => ((seed = (seed * 16807) % 2147483647) % max) + 1;

const ev = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** The scenario's result: a complete answer (streamed or sent as JSON), or an HTTP error. */
function scenario(name, body) {
  switch (name) {
    case 'noanswer':
      return { answer: "I couldn't find that.", answer_found: false, sources: [] };
    case 'rate':
      return { status: 429, headers: { 'retry-after': '7' }, error: { code: 'rate_limited', message: 'Slow down' } };
    case 'unknown':
      return { status: 404, error: { code: 'unknown_bot', message: 'No such bot' } };
    case 'down':
      return { status: 502, error: { code: 'upstream_error', message: 'Upstream failed' } };
    case 'gateway':
      return { status: 504, text: '<html>Gateway Timeout</html>' };
    case 'echo':
      return { answer: body.message, answer_found: true, sources: [] };
    case 'script':
      return scripts.get(body.bot_id);
    case 'long':
      return { answer: longAnswer(), answer_found: true, sources: SOURCES };
    default:
      return { answer: ANSWER, answer_found: true, sources: SOURCES };
  }
}

/** A long Markdown answer with every kind of block. */
function longAnswer() {
  let s = '';
  for (let i = 1; i <= 12; i++) {
    s += `## Part ${i}\n\nSome *text* with \`code\` and a [link](https://example.com/${i}) [[${(i % 3) + 1}]](https://wiki.example.com/${i}).\n\n`;
    s += `- item one\n- item **two**\n  - nested\n\n1. first\n2. second\n\n`;
    s += `| A | B |\n|---|---|\n| ${i} | ${i * 2} |\n\n> quoted ${i}\n\n\`\`\`ts\nconst x${i} = ${i};\n\`\`\`\n\n`;
  }
  return s + 'The end.';
}

async function stream(res, name, result, pace) {
  const slow = pace == 'slow';
  const fine = pace == 'fine';
  const send = (s) => !res.destroyed && res.write(s);
  if (name == 'hang') return send(': ping\n\n'); // headers and one heartbeat, then silence
  const sse = [ev('sources', { sources: result.sources })];
  if (name == 'replace') sse.push(ev('delta', { text: 'Draft that will be replaced. ' }), ev('replace', { text: '' }));
  const text = result.answer;
  for (let i = 0; i < text.length; ) {
    const n = slow ? 3 : rand(fine ? 400 : text.length > 1e4 ? 4000 : 40);
    sse.push(ev('delta', { text: text.slice(i, i + n) }));
    i += n;
  }
  if (name == 'cut') sse.length = 4;
  else if (name == 'midfail') sse.splice(4, Infinity, ev('error', { code: 'upstream_timeout', message: 'Upstream stopped' }));
  // The proxy's `outcome` when the script gives one (a proxy before the field sends none).
  else sse.push(ev('done', { answer_found: result.answer_found, ...(result.outcome ? { outcome: result.outcome } : {}) }));
  // Heartbeats between events, and the wire split at arbitrary offsets.
  const wire = ': ping\n\n' + sse.join(': ping\n\n');
  for (let i = 0; i < wire.length && !res.destroyed; ) {
    const n = rand(fine ? 800 : wire.length > 1e5 ? 16000 : 90);
    send(wire.slice(i, i + n));
    i += n;
    await sleep(slow ? 25 : 1);
  }
  res.end();
}

/** Koa middleware for Web Test Runner's `middleware` option. */
export async function stubEndpoint(ctx, next) {
  if (ctx.path == '/stub/search') return search(ctx);
  if (ctx.path == '/stub/search-count') {
    ctx.body = String(searchCounts.get(ctx.query.bot) ?? 0);
    return;
  }
  if (ctx.path == '/stub/search-last') {
    ctx.body = searchLast.get(ctx.query.bot) ?? '';
    return;
  }
  if (ctx.path == '/stub/count') {
    ctx.body = String(counts.get(ctx.query.bot) ?? 0);
    return;
  }
  if (ctx.path == '/stub/last') {
    ctx.body = lastBody.get(ctx.query.bot) ?? 'null';
    return;
  }
  if (ctx.path == '/stub/headers') {
    ctx.body = lastHeaders.get(ctx.query.bot) ?? 'null';
    return;
  }
  if (ctx.path == '/stub/feedback') {
    ctx.body = feedback.get(ctx.query.bot) ?? [];
    return;
  }
  if (ctx.path != '/stub/answer' && ctx.path != '/stub/script' && ctx.path != '/stub/answer/feedback') return next();
  let raw = '';
  for await (const c of ctx.req) raw += c;
  if (ctx.path == '/stub/answer/feedback') {
    const body = JSON.parse(raw);
    feedback.set(body.bot_id, [...(feedback.get(body.bot_id) ?? []), { body, headers: ctx.req.headers, url: ctx.url }]);
    if (String(body.bot_id).startsWith('fbfail')) {
      ctx.status = 503;
      ctx.body = { error: { code: 'upstream_error', message: 'Feedback store down' } };
    } else ctx.status = 204;
    return;
  }
  if (ctx.path == '/stub/script') {
    scripts.set(ctx.query.bot, JSON.parse(raw));
    ctx.body = 'ok';
    return;
  }
  ctx.respond = false;
  const res = ctx.res;
  const body = JSON.parse(raw || '{}');
  counts.set(body.bot_id, (counts.get(body.bot_id) ?? 0) + 1);
  lastBody.set(body.bot_id, raw);
  lastHeaders.set(body.bot_id, ctx.req.headers);
  res.setHeader('x-request-id', `req-${body.bot_id}-${counts.get(body.bot_id)}`);
  let [name, slow] = String(body.bot_id).split(':')[0].split('+');
  // `flaky` fails its first request with 502, then answers.
  if (name == 'flaky') name = counts.get(body.bot_id) == 1 ? 'down' : 'ok';
  const result = scenario(name, body);
  if (result.status) {
    res.writeHead(result.status, { 'content-type': result.text ? 'text/html' : 'application/json', ...result.headers });
    return res.end(result.text ?? JSON.stringify({ error: result.error }));
  }
  if (body.stream === false) {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify(result));
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  await stream(res, name, result, name == 'slow' ? 'slow' : slow);
}
