/**
 * The per-set tables a round's reading reports, printed as Markdown from two result files: the
 * outcomes of each named set (right page first, confident, wrong page, unanswerable answered
 * confidently, right page among the links and first, key term (and in the first quote), follow-ups answered and linked,
 * search as you type), before -> after where they differ, then the same sets against issue 27's
 * goals (after only).
 * "Before" is usually the round's base engine run on the sets alone
 * (`bench/out/results.only.json`), "after" the full run (`bench/results.json`). It reads result
 * files only: no engine runs.
 *
 *   node --import tsx bench/retrieval/sets-table.ts --sets=lettings,webhint-guides [--before=FILE] [--after=FILE]
 */
import { readFileSync } from 'node:fs';
import type { Figure } from '../lib/report.js';
import { scriptArgs } from './tuning-script.js';

interface Results {
  figures: Figure[];
}

/** The outcome columns: a figure of the retrieval section (or the search section's, `search:`), by its id after the set's. */
const COLUMNS: Array<[label: string, id: string]> = [
  ['right', 'top1'],
  ['confident', 'confident'],
  ['wrong page', 'wrongpage'],
  ['unanswerable confident', 'unanswerable.confident'],
  ['links', 'links'],
  ['first', 'links.first'],
  ['key term', 'keyterm.right'],
  ['key term in the first quote', 'keyterm.first'],
  ['follow-ups', 'followup.top3'],
  ['follow-ups linked', 'followup.linked'],
  ['search top 3', 'search:top3'],
];

/** The goal columns: the figure, and whether to show it as a share of its count. */
const GOALS: Array<[label: string, id: string, share: boolean]> = [
  ['confident (goal 75%)', 'confident', true],
  ['wrong page (goal ≤10%)', 'wrongpage', true],
  ['links (goal ≥90%)', 'links', true],
  ['first (goal ≥75%)', 'links.first', true],
  ['key term (goal ≥80%)', 'keyterm.right', true],
  ['unanswerable (goal ≤1 in 8)', 'unanswerable.confident', false],
];

/** The figures of a result file by `section:id`. */
function figures(path: string): Map<string, Figure> {
  const results = JSON.parse(readFileSync(path, 'utf8')) as Results;
  return new Map(results.figures.map((f) => [`${f.section}:${f.id}`, f]));
}

/** A figure's key for `set` and a column id. */
function key(set: string, id: string): string {
  const [section, own] = id.startsWith('search:') ? ['search', id.slice('search:'.length)] : ['retrieval', id];
  return `${section}:${set}.${own}`;
}

/** What a count is out of: 99 for the unit "of 99". */
function total(figure: Figure): number | undefined {
  const of = /^of (\d+)$/.exec(figure.unit);
  return of ? Number(of[1]) : undefined;
}

/** "48/99" from a figure whose unit is "of 99"; the bare value otherwise. */
function count(figure: Figure | undefined): string {
  if (!figure) return '–';
  const of = total(figure);
  return of === undefined ? String(figure.value) : `${figure.value}/${of}`;
}

function share(figure: Figure | undefined): string {
  const of = figure && total(figure);
  if (!figure || !of) return '–';
  const percent = (100 * figure.value) / of;
  return `${Number.isInteger(percent) ? percent : percent.toFixed(1)}%${figure.met ? ' (met)' : ''}`;
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const args = scriptArgs();
const sets = args.only;
if (!sets?.length) throw new Error('name the sets: --sets=a,b');
const after = figures(args.get('after') ?? 'bench/results.json');
const beforePath = args.get('before');
const before = beforePath ? figures(beforePath) : undefined;
for (const set of sets) if (!after.has(key(set, 'top1'))) throw new Error(`${set}: no figures in the "after" results`);

const outcome = (set: string, id: string): string => {
  const now = count(after.get(key(set, id)));
  const then = before && count(before.get(key(set, id)));
  return then === undefined || then === now || then === '–' ? now : `${then} → ${now}`;
};
console.log(table(['set', ...COLUMNS.map(([label]) => label)], sets.map((set) => [set, ...COLUMNS.map(([, id]) => outcome(set, id))])));
console.log();
console.log(
  table(
    ['set', ...GOALS.map(([label]) => label)],
    sets.map((set) => [set, ...GOALS.map(([, id, asShare]) => {
      const figure = after.get(key(set, id));
      return asShare ? share(figure) : `${count(figure)}${figure?.met ? ' (met)' : ''}`;
    })]),
  ),
);
