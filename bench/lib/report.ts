import { round } from './stats.js';

/**
 * One measured figure. When it has a baseline measured in the same run, `ratio` is
 * value / baseline. When the issue states a goal for it, `goal` says what and `met` whether it held.
 */
export interface Figure {
  /** Which benchmark: `size`, `render`, `proxy-json`, `proxy-streams`, `startup`. */
  section: string;
  /** Stable identifier, e.g. `iife.gzip`. */
  id: string;
  /** What it is, for people. */
  label: string;
  value: number;
  unit: string;
  baseline?: { label: string; value: number };
  ratio?: number;
  goal?: string;
  met?: boolean;
  /** Anything a reader needs to interpret the value (sample count, what was excluded). */
  note?: string;
}

/** Collects figures as the benchmarks produce them. */
export class Report {
  readonly figures: Figure[] = [];

  /** Adds a figure, computing the ratio from the baseline when one is given. */
  add(figure: Figure): Figure {
    const f: Figure = { ...figure, value: round(figure.value, 3) };
    if (f.baseline) {
      f.baseline = { ...f.baseline, value: round(f.baseline.value, 3) };
      if (f.ratio === undefined && f.baseline.value !== 0) f.ratio = round(figure.value / figure.baseline!.value, 3);
    }
    this.figures.push(f);
    return f;
  }

  /** Every goal with its verdict. */
  goals(): Figure[] {
    return this.figures.filter((f) => f.goal !== undefined);
  }
}

const HEADER = ['section', 'figure', 'value', 'baseline', 'ratio', 'goal', 'met'];

/** The cells of a figure's row, `no` spelled as `missed` says it (so it stands out in each format). */
function cells(f: Figure, missed: string): string[] {
  return [
    f.section,
    f.label,
    `${fmt(f.value)} ${f.unit}`.trim(),
    f.baseline ? `${fmt(f.baseline.value)} (${f.baseline.label})` : '',
    f.ratio === undefined ? '' : `${fmt(f.ratio)}x`,
    f.goal ?? '',
    f.met === undefined ? '' : f.met ? 'yes' : missed,
  ];
}

/** Formats the figures as one plain-text table. */
export function formatTable(figures: readonly Figure[]): string {
  const rows = figures.map((f) => cells(f, 'NO'));
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (row: string[]) => row.map((c, i) => c.padEnd(widths[i]!)).join(' | ').trimEnd();
  return [line(HEADER), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)].join('\n');
}

/** Formats the figures as a Markdown table (for bench/README.md). */
export function formatMarkdownTable(figures: readonly Figure[]): string {
  const rows = figures.map((f) => `| ${cells(f, '**no**').join(' | ')} |`);
  return [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---|').join('')}`, ...rows].join('\n');
}

function fmt(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  if (Math.abs(n) >= 100) return String(Math.round(n));
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}
