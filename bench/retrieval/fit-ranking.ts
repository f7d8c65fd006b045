/**
 * Fits the ranking's query-time weights (`DEFAULT_RETRIEVAL` in settings.ts: the column
 * weights, `joinWeight`, `pageWeight`, `pageDecay`, `sectionTelling`, `bodyTelling`,
 * `lexiconWeight`, `dropOne`, `candidates`) jointly, by coordinate ascent on the tune halves.
 *
 *   node --import tsx bench/retrieval/fit-ranking.ts [--sets=a,b] [--kind=handbook|docs] [--sweeps=2] [--min-gain=3] [--params=pageWeight,weights.title] [--settings='{...}'] [--check='{"weights.title":3}']
 *
 * Each set's index is opened and synced once and kept open; a candidate setting is measured by
 * answering every tune-half question (answerable, and unanswerable) again through a bot over
 * those indexes (`createBot`, as the engine answers), so one measure costs seconds. Every
 * weight fitted is read at query time (FTS5's bm25() takes the column weights with each
 * query): nothing is rebuilt. Follow-ups are not asked (`contextWeight` is not fitted here):
 * `tune.ts` measures them for the decision.
 *
 * The objective is first + links (the right page first among the links shown, and among them),
 * subject to the trust figures of the starting point (`--settings=` over the defaults):
 * no more wrong pages or unanswerable questions answered confidently, and no fewer right
 * answers. Each sweep tries, for each weight in turn, the values around the current one
 * (its neighbours on `GRID`, going on the way that gained) and moves to the best that gains at
 * least `--min-gain=` (3: more than one question) on the objective within those bounds.
 * Every trial is printed (the curve), and the path taken. `--kind=` fits on one kind of set
 * only (`handbook`: the folders of prose kept in the repository and the sample knowledge
 * base; `docs`: the package docs, guides and references), to see whether the kinds agree.
 * `--check='{"pageWeight":0.5,"weights.title":3}'` measures that point (weights by path) beside
 * the start: the questions it gains and loses, each set where it moves; then exits.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createBot } from '../../packages/bot-answer-engine/src/upstream/bots.js';
import { resolveSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { KbIndex } from '../../packages/bot-answer-engine/src/upstream/index/kb-index.js';
import { DEFAULT_RETRIEVAL, type RetrievalSettings } from '../../packages/bot-answer-engine/src/upstream/retrieval/settings.js';
import { expectedPages, offTopicSplit, outcomeOf, pageOf, placeSplit } from './evaluate.js';
import { fetchHeldOut, heldOutSets } from './held-out.js';
import { questionSets, type Question, type QuestionSet } from './sets.js';
import { scriptArgs } from './tuning-script.js';

/** The values a weight may take, in order (today's among them), by its path in the settings: each sweep tries the current value's neighbours. */
export const GRID: Record<string, number[]> = {
  'weights.title': [1.5, 2, 2.5, 3, 3.5],
  'weights.headings': [1, 1.5, 2, 2.5, 3],
  'weights.code': [0.75, 1, 1.5, 2, 2.5],
  'weights.joined': [0.5, 1, 1.5, 2],
  'weights.path': [1, 1.5, 2, 3, 4],
  joinWeight: [0.1, 0.25, 0.5, 0.75],
  pageWeight: [0.2, 0.3, 0.4, 0.5, 0.6],
  pageDecay: [0.25, 0.5, 0.75],
  sectionTelling: [0, 0.15, 0.3, 0.5, 0.8],
  bodyTelling: [0, 0.25, 0.5, 1],
  lexiconWeight: [0.1, 0.2, 0.3, 0.4, 0.5],
  dropOne: [0, 3, 5, 10],
  candidates: [40, 60, 80],
};

/** The tune-half figures of one measure. */
export interface Figures {
  right: number;
  confident: number;
  wrong: number;
  links: number;
  first: number;
  key: number;
  unanswerable: number;
  questions: number;
  offTopic: number;
}

/** A setting as a flat map of weight paths to values. */
export type Point = Record<string, number>;

/** The retrieval settings of a point over `base`. */
export function settingsOf(point: Point, base: Partial<RetrievalSettings> = {}): Partial<RetrievalSettings> {
  const out: Partial<RetrievalSettings> = { ...base, weights: { ...DEFAULT_RETRIEVAL.weights, ...base.weights } };
  for (const [path, value] of Object.entries(point)) {
    if (path.startsWith('weights.')) (out.weights as unknown as Record<string, number>)[path.slice('weights.'.length)] = value;
    else (out as Record<string, unknown>)[path] = value;
  }
  return out;
}

/** A point's value of one weight: the settings' or the default's. */
export function valueOf(path: string, settings: Partial<RetrievalSettings>): number {
  if (path.startsWith('weights.')) {
    const field = path.slice('weights.'.length) as keyof RetrievalSettings['weights'];
    return settings.weights?.[field] ?? DEFAULT_RETRIEVAL.weights[field];
  }
  return (settings as Record<string, number>)[path] ?? (DEFAULT_RETRIEVAL as unknown as Record<string, number>)[path]!;
}

/** The objective: first + links. */
export const objective = (f: Figures): number => f.first + f.links;

/** Within the trust bounds of `start`: no more wrong pages or unanswerable confident, no fewer right. */
export const withinBounds = (f: Figures, start: Figures): boolean => f.wrong <= start.wrong && f.unanswerable <= start.unanswerable && f.right >= start.right;

/** The handbooks (folders of prose kept in the repository, and the sample knowledge base) apart from the package docs. */
export const kindOf = (set: QuestionSet): 'handbook' | 'docs' => (set.id === 'sample' || set.id === 'paraphrase' || (set.heldOut && !set.package) ? 'handbook' : 'docs');

interface OpenSet {
  set: QuestionSet;
  index: KbIndex;
  questions: Array<{ question: Question; want: Set<string> }>;
  offTopic: string[];
}

const format = (f: Figures): string =>
  `right ${f.right}  confident ${f.confident}  wrong ${f.wrong}  links ${f.links}  first ${f.first}  key ${f.key}  unanswerable ${f.unanswerable}/${f.offTopic}  objective ${objective(f)}`;

async function main(): Promise<void> {
  const args = scriptArgs();
  const kind = args.get('kind');
  const sweeps = Number(args.get('sweeps') ?? 2);
  // A move must gain this much on the objective (a question moving both first and links gains 2).
  const minGain = Number(args.get('min-gain') ?? 3);
  const params = args.get('params')?.split(',') ?? Object.keys(GRID);
  const unknown = params.filter((p) => !GRID[p]);
  if (unknown.length) throw new Error(`no such weight: ${unknown.join(', ')} (weights: ${Object.keys(GRID).join(', ')})`);
  const folder = await mkdtemp(join(tmpdir(), 'fit-ranking-'));
  const open: OpenSet[] = [];
  try {
    await fetchHeldOut();
    for (const set of [...questionSets(), ...heldOutSets()]) {
      if (args.only && !args.only.includes(set.id)) continue;
      if (kind && kindOf(set) !== kind) continue;
      const kbSettings = resolveSettings(set.dir, set.settings);
      const index = await KbIndex.open({ dir: set.dir, settings: kbSettings, folder: join(folder, set.id), botId: 'demo' });
      await index.sync();
      const split = placeSplit(set);
      open.push({
        set,
        index,
        questions: set.questions.filter((q, place) => split(q, place) === 'tune').map((question) => ({ question, want: expectedPages(question, kbSettings) })),
        offTopic: set.offTopic.filter((_, place) => offTopicSplit(place) === 'tune'),
      });
    }
    process.stdout.write(`${open.length} sets (${kind ?? 'every kind'}): ${open.reduce((n, o) => n + o.questions.length, 0)} answerable, ${open.reduce((n, o) => n + o.offTopic.length, 0)} unanswerable (tune halves)\n`);

    let measures = 0;
    let cpuMs = 0;
    /** The tune halves' figures under `settings`, in all and per set. */
    const measure = (settings: Partial<RetrievalSettings>): { all: Figures; perSet: Map<string, Figures>; firsts: boolean[]; linked: boolean[] } => {
      const cpu = process.cpuUsage();
      const all: Figures = { right: 0, confident: 0, wrong: 0, links: 0, first: 0, key: 0, unanswerable: 0, questions: 0, offTopic: 0 };
      const perSet = new Map<string, Figures>();
      // Each answerable question's right page first, and among the links, in order: what a check compares question by question.
      const firsts: boolean[] = [];
      const linked: boolean[] = [];
      for (const o of open) {
        const bot = createBot('demo', o.index, settings);
        const f: Figures = { right: 0, confident: 0, wrong: 0, links: 0, first: 0, key: 0, unanswerable: 0, questions: o.questions.length, offTopic: o.offTopic.length };
        for (const { question, want } of o.questions) {
          const answer = bot.answer(question.question, false);
          const links = answer.sources.map((s) => pageOf(s.url ?? ''));
          const rightFirst = want.has(links[0] ?? '');
          if (answer.answer_found) f.confident++;
          if (answer.answer_found && rightFirst) f.right++;
          if (answer.answer_found && !rightFirst) f.wrong++;
          if (rightFirst) f.first++;
          firsts.push(rightFirst);
          linked.push(links.some((page) => want.has(page)));
          if (links.some((page) => want.has(page))) f.links++;
          if (answer.answer_found && rightFirst && question.keyTerm && answer.answer.toLowerCase().includes(question.keyTerm.toLowerCase())) f.key++;
        }
        for (const question of o.offTopic) if (outcomeOf(bot.answer(question, false)) === 'answered') f.unanswerable++;
        perSet.set(o.set.id, f);
        for (const key of Object.keys(all) as Array<keyof Figures>) all[key] += f[key];
      }
      const used = process.cpuUsage(cpu);
      measures++;
      cpuMs += (used.user + used.system) / 1000;
      return { all, perSet, firsts, linked };
    };

    const base = args.settings;
    const start = measure(base);
    process.stdout.write(`start: ${format(start.all)}\n`);

    const check = args.get('check');
    if (check) {
      const other = measure(settingsOf(JSON.parse(check) as Point, base));
      process.stdout.write(`check: ${format(other.all)}\n`);
      // The net change is what is left of the questions gained and lost: a small net of a large churn is noise.
      const churn = (a: boolean[], b: boolean[]): string => `+${b.filter((x, i) => x && !a[i]).length} -${a.filter((x, i) => x && !b[i]).length}`;
      process.stdout.write(`questions moved: first ${churn(start.firsts, other.firsts)}, links ${churn(start.linked, other.linked)}\n`);
      for (const o of open) {
        const a = start.perSet.get(o.set.id)!;
        const b = other.perSet.get(o.set.id)!;
        const moved = (Object.keys(a) as Array<keyof Figures>).filter((k) => a[k] !== b[k]).map((k) => `${k} ${a[k]} -> ${b[k]}`);
        if (moved.length) process.stdout.write(`  ${o.set.id.padEnd(18)} ${kindOf(o.set).padEnd(8)} ${moved.join(', ')}\n`);
      }
      return;
    }

    const point: Point = Object.fromEntries(params.map((p) => [p, valueOf(p, base)]));
    let current = start;
    const path: string[] = [];
    const byKind = (perSet: Map<string, Figures>, which: 'handbook' | 'docs'): number =>
      open.filter((o) => kindOf(o.set) === which).reduce((n, o) => n + objective(perSet.get(o.set.id)!), 0);
    /** A trial's line: its figures, and its objective's change on each kind of set beside the current point's. */
    const trial = (label: string, m: ReturnType<typeof measure>, ok: boolean): void => {
      const delta = (which: 'handbook' | 'docs'): string => {
        const d = byKind(m.perSet, which) - byKind(current.perSet, which);
        return `${which} ${d >= 0 ? '+' : ''}${d}`;
      };
      process.stdout.write(`  ${label}: ${format(m.all)}  (${delta('handbook')}, ${delta('docs')})${ok ? '' : '  out of bounds'}\n`);
    };
    for (let sweep = 1; sweep <= sweeps; sweep++) {
      let moved = false;
      for (const param of params) {
        const grid = GRID[param]!;
        const at = grid.indexOf(point[param]!);
        // Today's value off the grid: every grid value is a neighbour.
        const neighbours = at < 0 ? grid.map((_, i) => i) : [at - 1, at + 1].filter((i) => i >= 0 && i < grid.length);
        let best: { at: number; m: ReturnType<typeof measure> } | undefined;
        const tryAt = (i: number): ReturnType<typeof measure> => {
          const m = measure(settingsOf({ ...point, [param]: grid[i]! }, base));
          const ok = withinBounds(m.all, start.all);
          trial(`sweep ${sweep} ${param} ${point[param]} -> ${grid[i]}`, m, ok);
          if (ok && objective(m.all) >= objective((best?.m ?? current).all) + (best ? 1 : minGain)) best = { at: i, m };
          return m;
        };
        for (const i of neighbours) tryAt(i);
        // A step that gained: go on the same way while it gains.
        if (best && at >= 0) {
          const step = best.at - at;
          for (let i = best.at + step; i >= 0 && i < grid.length && best.at === i - step; i += step) tryAt(i);
        }
        if (best) {
          path.push(`sweep ${sweep}: ${param} ${point[param]} -> ${grid[best.at]} (objective ${objective(current.all)} -> ${objective(best.m.all)}; handbook ${byKind(current.perSet, 'handbook')} -> ${byKind(best.m.perSet, 'handbook')}, docs ${byKind(current.perSet, 'docs')} -> ${byKind(best.m.perSet, 'docs')})`);
          process.stdout.write(`MOVE ${path.at(-1)}\n`);
          point[param] = grid[best.at]!;
          current = best.m;
          moved = true;
        }
      }
      if (!moved) break;
    }
    process.stdout.write(`\npath:\n${path.map((p) => `  ${p}`).join('\n') || '  (none: today\'s weights are a local best)'}\n`);
    process.stdout.write(`start: ${format(start.all)}\nend:   ${format(current.all)}\n`);
    for (const o of open) {
      const a = start.perSet.get(o.set.id)!;
      const b = current.perSet.get(o.set.id)!;
      if (objective(a) !== objective(b) || a.wrong !== b.wrong || a.unanswerable !== b.unanswerable) process.stdout.write(`  ${o.set.id.padEnd(18)} ${kindOf(o.set).padEnd(8)} ${format(a)}\n  ${''.padEnd(27)} ${format(b)}\n`);
    }
    const changed = Object.fromEntries(Object.entries(point).filter(([p, v]) => v !== valueOf(p, base)));
    process.stdout.write(`fitted (over the start): ${JSON.stringify(changed)}\n${measures} measures, ${(cpuMs / measures / 1000).toFixed(1)} s CPU each\n`);
  } finally {
    for (const o of open) o.index.close();
    await rm(folder, { recursive: true, force: true });
  }
}

// Run as a script, not when a test imports its helpers.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
