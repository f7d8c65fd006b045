/** A day row's day: a time (ms since the epoch) divided by this, rounded down (UTC days). */
export const DAY_MS = 86_400_000;

/** Outcomes that are not errors (the rest count as failed). */
const ANSWERED_OUTCOMES = new Set(['answered', 'not_sure', 'refused', 'stopped']);

/** The start of an insert into `insights_key_days`, and the conflict clause that adds to the row already there. */
export const INSERT_KEY_DAY = 'INSERT INTO insights_key_days (day, bot_id, question_key, asked, found, refused, not_sure, failed)';
export const ADD_KEY_DAY =
  'ON CONFLICT (day, bot_id, question_key) DO UPDATE SET asked = insights_key_days.asked + excluded.asked, found = insights_key_days.found + excluded.found, refused = insights_key_days.refused + excluded.refused, not_sure = insights_key_days.not_sure + excluded.not_sure, failed = insights_key_days.failed + excluded.failed';

/** What one question adds to its key's day row besides `asked`, each 0 or 1: found, refused, not sure, failed. */
export function dayCounts(q: { answer_found: boolean; outcome: string }): [found: number, refused: number, notSure: number, failed: number] {
  return [q.answer_found ? 1 : 0, q.outcome === 'refused' ? 1 : 0, q.outcome === 'not_sure' ? 1 : 0, ANSWERED_OUTCOMES.has(q.outcome) ? 0 : 1];
}
