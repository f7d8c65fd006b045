/**
 * The insights page's stylesheet and script, served as files (`/insights/insights.css`,
 * `/insights/insights.js`) so the page needs no inline code. They are strings here because the
 * handler runs where there is no file system (Workers).
 */

export const INSIGHTS_CSS = `:root {
  color-scheme: light dark;
  --bg: #f7f7f8; --panel: #ffffff; --fg: #1d1f24; --muted: #5d6370; --border: #dfe1e6;
  --accent: #2456d6; --found: #2f9e6e; --unsure: #6f86c9; --missing: #e3a33b; --bad: #c23b3b; --line: #1d1f24;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 16px; line-height: 1.45;
}
@media (prefers-color-scheme: dark) {
  :root { --bg: #14161b; --panel: #1d2027; --fg: #e8e9ed; --muted: #a2a8b5; --border: #343844; --accent: #8fb0ff; --line: #e8e9ed; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
a { color: var(--accent); }
h1 { font-size: 1.35rem; margin: 0; }
h2 { font-size: 1.1rem; margin: 0 0 .6rem; }
.bar { display: flex; flex-wrap: wrap; gap: .75rem 1.5rem; align-items: center; justify-content: space-between; padding: .9rem 1.25rem; background: var(--panel); border-bottom: 1px solid var(--border); }
.scope { display: block; font-size: .85rem; font-weight: 400; color: var(--muted); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-end; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-end; }
label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); gap: .2rem; }
select, input, button, .button { font: inherit; font-size: .95rem; padding: .45rem .7rem; border-radius: 8px; border: 1px solid var(--border); background: var(--panel); color: var(--fg); min-height: 2.5rem; }
button, .button { cursor: pointer; text-decoration: none; display: inline-flex; align-items: center; }
.filters button, .sign-in button { background: var(--accent); border-color: var(--accent); color: #fff; }
.sign-out { margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.25rem 2rem; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 30rem), 1fr)); }
main > section { background: var(--panel); border: 1px solid var(--border); border-radius: 12px; padding: 1rem 1.1rem; min-width: 0; }
.tiles, main > section:has(.chart) { grid-column: 1 / -1; }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .75rem; background: none; border: 0; padding: 0; }
.tile { background: var(--panel); border: 1px solid var(--border); border-radius: 12px; padding: .75rem .9rem; display: flex; flex-direction: column; }
.tile .label { font-size: .8rem; color: var(--muted); }
.tile .value { font-size: 1.5rem; font-weight: 600; }
.tile .note { font-size: .8rem; color: var(--muted); }
.hint, .empty, .meta, .share { color: var(--muted); font-size: .875rem; }
.chart { margin: 0; }
.chart svg { width: 100%; height: auto; display: block; }
.chart .legend { display: flex; flex-wrap: wrap; gap: .4rem 1rem; font-size: .8rem; color: var(--muted); margin: .4rem 0 0; padding: 0; list-style: none; }
.chart .legend span { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .3rem; vertical-align: -1px; }
.chart .legend .found { background: var(--found); } .chart .legend .unsure { background: var(--unsure); } .chart .legend .missing { background: var(--missing); }
.chart .legend .line { background: var(--line); height: 2px; vertical-align: 3px; }
.chart svg .found { fill: var(--found); } .chart svg .unsure { fill: var(--unsure); } .chart svg .missing { fill: var(--missing); }
.chart svg .share { fill: none; stroke: var(--line); stroke-width: 2; }
.chart svg .axis { fill: var(--muted); font-size: 12px; }
.chart svg .grid { stroke: var(--border); }
.chart table { width: 100%; border-collapse: collapse; font-size: .875rem; }
.chart th, .chart td { text-align: right; padding: .2rem .4rem; border-bottom: 1px solid var(--border); }
.chart th:first-child { text-align: left; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
ol.groups, ol.pages, ul.rated { list-style: none; margin: 0; padding: 0; }
ol.groups li, ol.pages li, ul.rated li { display: flex; gap: .75rem; align-items: flex-start; padding: .55rem 0; border-top: 1px solid var(--border); }
ol.groups li:first-child, ol.pages li:first-child, ul.rated li:first-child { border-top: 0; }
.count { min-width: 2.75rem; text-align: right; font-weight: 600; font-variant-numeric: tabular-nums; }
.question { min-width: 0; flex: 1; }
.text { margin: 0; overflow-wrap: anywhere; white-space: pre-wrap; }
.url { min-width: 0; overflow-wrap: anywhere; }
details { font-size: .875rem; color: var(--muted); margin-top: .2rem; }
details ul { margin: .3rem 0 0; padding-left: 1.1rem; }
details li { display: list-item; border: 0; padding: .1rem 0; overflow-wrap: anywhere; }
.comment { margin: .35rem 0; padding: .3rem .6rem; border-left: 3px solid var(--border); white-space: pre-wrap; overflow-wrap: anywhere; }
.rating { min-width: 1.2rem; text-align: center; }
.up, li.up .rating { color: var(--found); } .down, li.down .rating { color: var(--bad); }
.summary { margin: 0 0 .5rem; }
.foot { text-align: center; color: var(--muted); font-size: .8rem; padding: 0 1rem 2rem; }
.sign-in { max-width: 26rem; margin: 4rem auto; padding: 1.5rem; background: var(--panel); border: 1px solid var(--border); border-radius: 12px; display: block; }
.sign-in form { display: flex; flex-direction: column; gap: .6rem; }
.sign-in input { width: 100%; }
.error { color: var(--bad); }
@media (max-width: 40rem) {
  .bar { padding: .75rem 1rem; }
  main { padding: .75rem .75rem 1.5rem; }
  .actions, .filters { width: 100%; }
  .filters label { flex: 1 1 8rem; }
  .filters select { width: 100%; }
  .tile .value { font-size: 1.25rem; }
}
`;

/**
 * Draws the questions-per-day chart from the table the page carries (which stays for screen
 * readers): stacked bars of answered, not-sure and other (refused, failed, stopped) questions, and a line for the answered
 * share. Built with DOM calls only, so it runs under Trusted Types with no policy. Also submits
 * the filters as soon as one changes.
 */
export const INSIGHTS_JS = `'use strict';
(() => {
  for (const select of document.querySelectorAll('.filters select')) {
    select.addEventListener('change', () => select.form.requestSubmit());
  }
  const figure = document.querySelector('[data-chart]');
  if (!figure) return;
  const table = figure.querySelector('.chart-data');
  const days = Array.from(figure.querySelectorAll('tbody tr'), (row) => ({
    day: row.dataset.day,
    asked: Number(row.dataset.asked) || 0,
    found: Number(row.dataset.found) || 0,
    unsure: Number(row.dataset.notSure) || 0,
  }));
  if (days.length === 0) return;
  const NS = 'http://www.w3.org/2000/svg';
  const make = (name, attributes, text) => {
    const node = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const short = (day) => new Date(day + 'T00:00:00Z').toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const asked = days.reduce((sum, d) => sum + d.asked, 0);
  const found = days.reduce((sum, d) => sum + d.found, 0);
  const most = Math.max(1, ...days.map((d) => d.asked));
  const step = Math.pow(10, Math.floor(Math.log10(most)));
  const ceiling = Math.ceil(most / step) * step;
  // Drawn at the figure's own width, so the labels keep their size on a phone.
  const draw = (width) => {
    const height = width < 500 ? 200 : 240, left = 40, right = 40, top = 12, bottom = 28;
    const plotWidth = width - left - right, plotHeight = height - top - bottom;
    const svg = make('svg', {
      viewBox: '0 0 ' + width + ' ' + height,
      role: 'img',
      'aria-label': 'Questions per day: ' + asked + ' questions over ' + days.length + ' days, ' + (asked ? Math.round((100 * found) / asked) : 0) + '% answered',
    });
    const y = (count) => top + plotHeight - (count / ceiling) * plotHeight;
    const slot = plotWidth / days.length;
    const bar = Math.max(1, slot * 0.7);
    for (const fraction of [0, 0.5, 1]) {
      const at = top + plotHeight - fraction * plotHeight;
      svg.append(make('line', { class: 'grid', x1: left, x2: width - right, y1: at, y2: at }));
      svg.append(make('text', { class: 'axis', x: left - 6, y: at + 4, 'text-anchor': 'end' }, String(Math.round(fraction * ceiling))));
      svg.append(make('text', { class: 'axis', x: width - right + 6, y: at + 4 }, Math.round(fraction * 100) + '%'));
    }
    const points = [];
    days.forEach((d, i) => {
      const x = left + i * slot + (slot - bar) / 2;
      const group = make('g', {});
      const upTo = d.found + d.unsure;
      group.append(make('title', {}, short(d.day) + ': ' + d.asked + ' questions, ' + d.found + ' answered, ' + d.unsure + ' not sure'));
      group.append(make('rect', { class: 'found', x, width: bar, y: y(d.found), height: y(0) - y(d.found) }));
      group.append(make('rect', { class: 'unsure', x, width: bar, y: y(upTo), height: y(d.found) - y(upTo) }));
      group.append(make('rect', { class: 'missing', x, width: bar, y: y(d.asked), height: y(upTo) - y(d.asked) }));
      svg.append(group);
      if (d.asked > 0) points.push((x + bar / 2).toFixed(1) + ',' + (top + plotHeight - (d.found / d.asked) * plotHeight).toFixed(1));
    });
    if (points.length > 1) svg.append(make('polyline', { class: 'share', points: points.join(' ') }));
    const labels = days.length > 2 ? [0, Math.floor((days.length - 1) / 2), days.length - 1] : days.map((_, i) => i);
    for (const i of labels) {
      const anchor = i === 0 && days.length > 2 ? 'start' : i === days.length - 1 && days.length > 2 ? 'end' : 'middle';
      const x = anchor === 'start' ? left + i * slot : anchor === 'end' ? left + (i + 1) * slot : left + i * slot + slot / 2;
      svg.append(make('text', { class: 'axis', x, y: height - 8, 'text-anchor': anchor }, short(days[i].day)));
    }
    return svg;
  };
  let drawnWidth = 0;
  const render = () => {
    const width = Math.round(Math.min(1000, Math.max(300, figure.clientWidth)));
    if (width === drawnWidth) return;
    drawnWidth = width;
    const svg = draw(width);
    const old = figure.querySelector('svg');
    if (old) old.replaceWith(svg);
    else figure.prepend(svg);
  };
  const legend = document.createElement('ul');
  legend.className = 'legend';
  for (const [kind, text] of [['found', 'answered'], ['unsure', 'not sure'], ['missing', 'refused, stopped or failed'], ['line', 'answered share (right axis)']]) {
    const item = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = kind;
    item.append(swatch, text);
    legend.append(item);
  }
  figure.prepend(legend);
  render();
  table.classList.add('visually-hidden');
  new ResizeObserver(render).observe(figure);
})();
`;
