import { PERIODS, type InsightsReport, type QuestionGroup, type UnansweredGroup } from './report.js';
import type { RatedAnswer } from './types.js';

const DAY_MS = 86_400_000;

/**
 * The policy every insights page is served under: our own script and stylesheet only, no
 * inline script or style, no connections, forms posting only here, never framed, and Trusted
 * Types with no policy at all (the script builds the chart with DOM calls, never from HTML).
 */
export const INSIGHTS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text (or an attribute value) as HTML: every character that could start markup escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

const number = (n: number) => n.toLocaleString('en-US');
const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${Math.round((100 * part) / whole)}%`);
const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const timeText = (time: number) => `${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const periodName = (days: number) => (days === 1 ? 'Last 24 hours' : `Last ${days} days`);

/** A URL as a link when it is http(s), else as text. */
function link(url: string): string {
  const safe = URL.canParse(url) && /^https?:$/.test(new URL(url).protocol);
  return safe ? `<a href="${escapeHtml(url)}" rel="noopener noreferrer" target="_blank">${escapeHtml(url)}</a>` : escapeHtml(url);
}

function shell(title: string, body: string, base: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${base}/insights.css">
</head>
<body>
${body}
</body>
</html>
`;
}

/** The sign-in page: a form posting the token (never in a URL), with a message after a wrong one. */
export function signInPage(base: string, message?: string): string {
  return shell(
    'Sign in · Insights',
    `<main class="sign-in">
<h1>Insights</h1>
<p>Sign in with the insights token (<code>INSIGHTS_TOKEN</code>) to see what visitors ask.</p>
${message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="${base}/sign-in">
<label for="token">Token</label>
<input name="username" type="text" autocomplete="username" value="insights" hidden>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Sign in</button>
</form>
</main>`,
    base,
  );
}

/** The error page for a store that cannot be read right now. */
export function unavailablePage(base: string): string {
  return shell(
    'Insights unavailable',
    `<main class="sign-in"><h1>Insights</h1><p class="error" role="alert">The insights database cannot be read right now. Answers are not affected; questions are kept and written when it is back. Try again in a moment.</p></main>`,
    base,
  );
}

function filters(report: InsightsReport, base: string): string {
  const { days, bot } = report.filter;
  const periods = PERIODS.map((p) => `<option value="${p}"${p === days ? ' selected' : ''}>${periodName(p)}</option>`).join('');
  const bots = [`<option value=""${bot === undefined ? ' selected' : ''}>All bots</option>`]
    .concat(report.bots.map((b) => `<option value="${escapeHtml(b)}"${b === bot ? ' selected' : ''}>${escapeHtml(b)}</option>`))
    .join('');
  const query = new URLSearchParams({ period: String(days), ...(bot === undefined ? {} : { bot }) });
  return `<form class="filters" method="get" action="${base}">
<label>Period <select name="period">${periods}</select></label>
<label>Bot <select name="bot">${bots}</select></label>
<button type="submit">Show</button>
</form>
<a class="button" href="${base}/questions.csv?${escapeHtml(query.toString())}" download>Export CSV</a>
<form class="sign-out" method="post" action="${base}/sign-out"><button type="submit">Sign out</button></form>`;
}

function tiles(report: InsightsReport): string {
  const t = report.totals;
  const tile = (label: string, value: string, note = '') => `<div class="tile"><span class="label">${label}</span><span class="value">${value}</span>${note ? `<span class="note">${note}</span>` : ''}</div>`;
  return `<section class="tiles" aria-label="Totals">
${tile('Questions', number(t.asked))}
${tile('Answered', percent(t.found, t.asked), `${number(t.found)} found an answer`)}
${tile('Not sure', number(t.not_sure), 'closest pages offered')}
${tile('Refused', number(t.refused), 'nothing related in the docs')}
${tile('Errors', number(t.failed), 'answers that failed')}
${tile('Ratings', `<span class="up">▲ ${number(t.up)}</span> <span class="down">▼ ${number(t.down)}</span>`, 'thumbs up, thumbs down')}
</section>`;
}

function chart(report: InsightsReport): string {
  const rows = report.days
    .map(
      (d) =>
        `<tr data-day="${dayText(d.day)}" data-asked="${d.asked}" data-found="${d.found}" data-not-sure="${d.not_sure}"><th scope="row">${dayText(d.day)}</th><td>${number(d.asked)}</td><td>${number(d.found)}</td><td>${number(d.not_sure)}</td><td>${percent(d.found, d.asked)}</td></tr>`,
    )
    .join('\n');
  return `<section aria-labelledby="per-day">
<h2 id="per-day">Questions per day</h2>
<figure class="chart" data-chart>
<div class="chart-data">
<table>
<caption>Questions per day (UTC): answered, not sure, and the share answered</caption>
<thead><tr><th scope="col">Day</th><th scope="col">Questions</th><th scope="col">Answered</th><th scope="col">Not sure</th><th scope="col">Answered share</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>
</figure>
</section>`;
}

/** How an unanswered group ended: refused (nothing related) and not sure (closest pages offered), each when it happened. */
function unansweredSplit(g: UnansweredGroup): string {
  const parts = [g.refused > 0 ? `<span class="refused">${number(g.refused)} refused</span>` : '', g.not_sure > 0 ? `<span class="not-sure">${number(g.not_sure)} not sure</span>` : ''];
  return `<span class="share">${parts.filter((p) => p !== '').join(' · ')}</span>`;
}

function groupList<G extends QuestionGroup>(groups: G[], empty: string, note: (group: G) => string): string {
  if (groups.length === 0) return `<p class="empty">${empty}</p>`;
  const items = groups.map((g) => {
    const also = g.alsoAsked.length
      ? `<details><summary>Also asked as (${g.alsoAsked.length})</summary><ul>${g.alsoAsked.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul></details>`
      : '';
    return `<li><span class="count" title="times asked">${number(g.asked)}</span><div class="question"><p class="text">${escapeHtml(g.title)}</p>${note(g)}${also}</div></li>`;
  });
  return `<ol class="groups">\n${items.join('\n')}\n</ol>`;
}

function feedback(report: InsightsReport): string {
  const item = (r: RatedAnswer) =>
    `<li class="${r.rating}"><span class="rating" title="${r.rating === 'up' ? 'thumbs up' : 'thumbs down'}">${r.rating === 'up' ? '▲' : '▼'}<span class="visually-hidden">${r.rating === 'up' ? 'thumbs up' : 'thumbs down'}</span></span><div class="question"><p class="text">${escapeHtml(r.question)}</p>${
      r.comment ? `<blockquote class="comment">${escapeHtml(r.comment)}</blockquote>` : ''
    }<span class="meta">${timeText(r.time)} · ${escapeHtml(r.bot_id)}${r.answer_found ? '' : ' · no answer found'}</span></div></li>`;
  const { up, down } = report.totals;
  const list = report.rated.length ? `<ul class="rated">\n${report.rated.map(item).join('\n')}\n</ul>` : '<p class="empty">No ratings in this period.</p>';
  return `<section aria-labelledby="feedback">
<h2 id="feedback">Feedback</h2>
<p class="summary"><span class="up">▲ ${number(up)} up</span> <span class="down">▼ ${number(down)} down</span> ${up + down > 0 ? `(${percent(up, up + down)} positive)` : ''}</p>
${list}
</section>`;
}

function pages(report: InsightsReport): string {
  if (report.pages.length === 0) return '<p class="empty">No pages cited in this period.</p>';
  return `<ol class="pages">\n${report.pages.map((p) => `<li><span class="count">${number(p.cited)}</span><span class="url">${link(p.url)}</span></li>`).join('\n')}\n</ol>`;
}

/** The owner's page for a report. Every text from visitors or the upstream is escaped. */
export function insightsPage(report: InsightsReport, base: string): string {
  const { days, bot } = report.filter;
  const scope = `${periodName(days)} · ${bot === undefined ? 'all bots' : `bot ${escapeHtml(bot)}`}`;
  return shell(
    'Insights',
    `<header class="bar">
<h1>Insights <span class="scope">${scope}</span></h1>
<nav class="actions">
${filters(report, base)}
</nav>
</header>
<main>
${tiles(report)}
${chart(report)}
<section aria-labelledby="unanswered">
<h2 id="unanswered">Unanswered questions</h2>
<p class="hint">What the docs do not answer yet: questions refused (nothing related) or answered not sure (only the closest pages offered), grouped when they ask the same thing in other words, most asked first.</p>
${groupList(report.unanswered, 'No unanswered questions in this period.', unansweredSplit)}
</section>
<section aria-labelledby="top">
<h2 id="top">Top questions</h2>
${groupList(report.top, 'No questions in this period.', (g) => `<span class="share">${percent(g.found, g.asked)} answered</span>`)}
</section>
${feedback(report)}
<section aria-labelledby="pages">
<h2 id="pages">Pages cited most</h2>
${pages(report)}
</section>
</main>
<footer class="foot">Days are UTC. Questions are stored redacted (e-mail addresses, card numbers and keys removed).</footer>
<script src="${base}/insights.js" defer></script>`,
    base,
  );
}
