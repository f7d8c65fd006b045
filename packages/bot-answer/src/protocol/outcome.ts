import type { Outcome, Source } from './types.js';

const OUTCOMES: ReadonlySet<string> = new Set<Outcome>(['answered', 'not_sure', 'refused']);

/** Whether `value` names one of the three outcomes. */
export const isOutcome = (value: unknown): value is Outcome => typeof value === 'string' && OUTCOMES.has(value);

/**
 * The outcome of an answer that does not say it (the seed API's fields only, or a proxy from
 * before the field): found → `answered`; not found with sources → `not_sure`; without → `refused`.
 */
export function deriveOutcome(answerFound: boolean, sources: readonly Source[]): Outcome {
  return answerFound ? 'answered' : sources.length > 0 ? 'not_sure' : 'refused';
}
