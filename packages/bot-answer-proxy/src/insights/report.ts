import { groupKeys, type KeyGroup } from './question-key.js';
import type { DayCount, InsightsFilter, InsightsStore, KeyCount, RatedAnswer, UnansweredCount } from './types.js';

const DAY_MS = 86_400_000;

/** The periods the page offers, in days; the first is the default. */
export const PERIODS = [30, 7, 1, 90] as const;

/** A group of questions that are the same question in other words. */
export interface QuestionGroup {
  /** The wording asked most (of the latest ones), shown as the group's title. */
  title: string;
  /** Other wordings seen (at most five). */
  alsoAsked: string[];
  asked: number;
  /** How many of them found an answer. */
  found: number;
}

/** A group of unanswered questions: `asked` is how many were refused plus how many got a not-sure answer. */
export interface UnansweredGroup extends QuestionGroup {
  refused: number;
  not_sure: number;
}

/** Everything the owner's page shows for one filter. */
export interface InsightsReport {
  filter: InsightsFilter & { days: number };
  bots: string[];
  totals: { asked: number; found: number; not_sure: number; refused: number; failed: number; up: number; down: number };
  /** One entry per day of the period (UTC), oldest first, zero where nothing was asked. */
  days: DayCount[];
  unanswered: UnansweredGroup[];
  top: QuestionGroup[];
  pages: Array<{ url: string; cited: number }>;
  rated: RatedAnswer[];
}

/** The filter for the last `days` days up to now (the chart's days are whole UTC days, today included). */
export function periodFilter(days: number, bot: string | undefined, now = Date.now()): InsightsFilter & { days: number } {
  const today = Math.floor(now / DAY_MS);
  return { from: (today - days + 1) * DAY_MS, to: now + 1, bot, days };
}

const LIMITS = { top: 100, unanswered: 200, pages: 15, rated: 15 };
const SHOWN = { top: 15, unanswered: 25 };
const WORDINGS_PER_KEY = 10;
/** Keys whose wordings are looked up, at most (the shown groups' biggest keys first). */
const MAX_WORDING_KEYS = 120;

/** Wordings compared the way people read them: case and punctuation aside. */
const plain = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

function describe(group: KeyGroup<KeyCount>, wordings: Map<string, string[]>): QuestionGroup {
  const counts = new Map<string, { text: string; n: number; order: number }>();
  let order = 0;
  for (const key of group.keys) {
    for (const text of wordings.get(key.key) ?? []) {
      const id = plain(text);
      const seen = counts.get(id);
      if (seen) seen.n++;
      else counts.set(id, { text, n: 1, order: order++ });
    }
  }
  const ranked = [...counts.values()].sort((a, b) => b.n - a.n || a.order - b.order);
  return {
    title: ranked[0]?.text ?? group.keys[0]!.key,
    alsoAsked: ranked.slice(1, 6).map((w) => w.text),
    asked: group.asked,
    found: group.keys.reduce((sum, key) => sum + key.found, 0),
  };
}

function describeUnanswered(group: KeyGroup<UnansweredCount>, wordings: Map<string, string[]>): UnansweredGroup {
  const sum = (field: 'refused' | 'not_sure') => group.keys.reduce((total, key) => total + key[field], 0);
  return { ...describe(group, wordings), refused: sum('refused'), not_sure: sum('not_sure') };
}

/** Fills the days of the period nothing was asked on. */
function everyDay(filter: InsightsFilter & { days: number }, days: DayCount[]): DayCount[] {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const first = Math.floor(filter.from / DAY_MS);
  return Array.from({ length: filter.days }, (_, i) => byDay.get(first + i) ?? { day: first + i, asked: 0, found: 0, refused: 0, not_sure: 0, failed: 0 });
}

/** Reads the page's figures from the store and groups questions that are the same in other words. */
export async function buildReport(store: InsightsStore, filter: InsightsFilter & { days: number }): Promise<InsightsReport> {
  const [aggregates, bots] = await Promise.all([store.aggregate(filter, LIMITS), store.bots()]);
  const unansweredGroups = groupKeys(aggregates.unanswered).slice(0, SHOWN.unanswered);
  const topGroups = groupKeys(aggregates.top).slice(0, SHOWN.top);
  const keys: string[] = [];
  for (const group of [...unansweredGroups, ...topGroups]) for (const key of group.keys) if (!keys.includes(key.key)) keys.push(key.key);
  const wordings = await store.wordings(keys.slice(0, MAX_WORDING_KEYS), filter, WORDINGS_PER_KEY);
  const days = everyDay(filter, aggregates.days);
  const total = (field: 'asked' | 'found' | 'not_sure' | 'refused' | 'failed') => days.reduce((sum, d) => sum + d[field], 0);
  return {
    filter,
    bots,
    totals: { asked: total('asked'), found: total('found'), not_sure: total('not_sure'), refused: total('refused'), failed: total('failed'), ...aggregates.ratings },
    days,
    unanswered: unansweredGroups.map((group) => describeUnanswered(group, wordings)),
    top: topGroups.map((group) => describe(group, wordings)),
    pages: aggregates.pages,
    rated: aggregates.rated,
  };
}
