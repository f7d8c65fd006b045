import { groupKeys, type KeyGroup } from './question-key.js';
import type { DayCount, InsightsFilter, InsightsStore, KeyCount, RatedAnswer } from './types.js';

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

/** Everything the owner's page shows for one filter. */
export interface InsightsReport {
  filter: InsightsFilter & { days: number };
  bots: string[];
  totals: { asked: number; found: number; refused: number; failed: number; up: number; down: number };
  /** One entry per day of the period (UTC), oldest first, zero where nothing was asked. */
  days: DayCount[];
  unanswered: QuestionGroup[];
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

/** Fills the days of the period nothing was asked on. */
function everyDay(filter: InsightsFilter & { days: number }, days: DayCount[]): DayCount[] {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const first = Math.floor(filter.from / DAY_MS);
  return Array.from({ length: filter.days }, (_, i) => byDay.get(first + i) ?? { day: first + i, asked: 0, found: 0, refused: 0, failed: 0 });
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
  const asked = days.reduce((sum, d) => sum + d.asked, 0);
  const found = days.reduce((sum, d) => sum + d.found, 0);
  const refused = days.reduce((sum, d) => sum + d.refused, 0);
  const failed = days.reduce((sum, d) => sum + d.failed, 0);
  return {
    filter,
    bots,
    totals: { asked, found, refused, failed, ...aggregates.ratings },
    days,
    unanswered: unansweredGroups.map((group) => describe(group, wordings)),
    top: topGroups.map((group) => describe(group, wordings)),
    pages: aggregates.pages,
    rated: aggregates.rated,
  };
}
