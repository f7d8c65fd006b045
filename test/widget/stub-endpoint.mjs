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
  if (await stubSearch(ctx)) return;
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

/**
 * A stand-in for the proxy's search (`GET /stub/search?bot_id=&q=&limit=`, also at `/stub/<name>/search`, the
 * search of an answer endpoint `/stub/<name>/answer`), kept apart from the answer stub.
 * It answers `{results: [{title, url, snippet, highlights}]}`: eight pages whose snippets hold `q` (marked by
 * `highlights`), linking to the asking page's own address with a fragment (`#hit-<n>`), so following one
 * leaves a test on its page. The bot id picks the scenario: `hostile` (markup in titles and snippets, unsafe
 * links, broken ranges), `unavailable` (404 `search_unavailable`), `notfound` (a proxy without search: its
 * 404 `not_found`), `down` (502), `lag` (the first search of the bot id waits 800 ms before answering).
 * `GET /stub/searches?bot=ID` lists the searches a bot id sent: `[{q, limit, headers, aborted}]`
 * (`aborted`: the client went away before the answer).
 */
const searches = new Map();

export async function stubSearch(ctx) {
  if (ctx.path == '/stub/searches') {
    ctx.body = searches.get(ctx.query.bot) ?? [];
    return true;
  }
  if (!/^\/stub\/([\w-]+\/)?search$/.test(ctx.path)) return false;
  const { bot_id: bot = '', q = '', limit = '6' } = ctx.query;
  const log = searches.get(bot) ?? [];
  searches.set(bot, log);
  const entry = { q, limit, headers: ctx.req.headers, aborted: false };
  log.push(entry);
  ctx.res.once('close', () => (entry.aborted = !ctx.res.writableEnded));
  const name = String(bot).split(':')[0];
  if (name == 'lag' && log.length == 1) await sleep(800);
  if (ctx.res.destroyed) return true;
  const status = { unavailable: 404, notfound: 404, down: 502 }[name];
  if (status) {
    ctx.status = status;
    const code = { unavailable: 'search_unavailable', notfound: 'not_found', down: 'upstream_error' }[name];
    ctx.body = { error: { code, message: code } };
    return true;
  }
  const page = String(ctx.get('referer') || 'http://localhost/').split('#')[0];
  ctx.body = { results: name == 'hostile' ? hostileResults(page) : pages(page, q) };
  return true;
}

/** Eight pages about `q`, each snippet marking where `q` is in it. */
function pages(page, q) {
  return Array.from({ length: 8 }, (_, i) => {
    const snippet = `Page ${i + 1} explains ${q} in detail; see ${q} below.`;
    const highlights = [];
    for (let at = snippet.indexOf(q); at >= 0 && q; at = snippet.indexOf(q, at + q.length)) highlights.push([at, at + q.length]);
    return { title: `Guide ${i + 1} › ${q}`, url: `${page}#hit-${i + 1}`, snippet, highlights };
  });
}

/** Results a careless or hostile upstream could send. */
function hostileResults(page) {
  return [
    {
      title: '<img src=x onerror="window.pwned=1">Title',
      url: `${page}#hostile`,
      snippet: '<script>window.pwned=1</script> <b>bold</b> 😀 end',
      highlights: [[1, 7], [3, 5], [-1, 2], [40, 9999], ['a', 3], [9, 8], [33, 37]],
    },
    { title: 'Script link', url: 'javascript:window.pwned=1', snippet: 'never shown', highlights: [] },
    'not an object',
    { url: `${page}#untitled`, snippet: 42, highlights: 'nope' },
  ];
}
