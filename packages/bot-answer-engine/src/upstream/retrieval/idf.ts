/**
 * BM25's inverse document frequency of a term found in `df` of `count` passages (the
 * non-negative form, `ln(1 + (N - df + 0.5) / (df + 0.5))`): how much matching it tells apart.
 * Retrieval, the search as you type and the bench tools weigh terms by it.
 */
export function idf(count: number, df: number): number {
  return Math.log(1 + (count - df + 0.5) / (df + 0.5));
}

/** A term in more than this share of the passages tells nothing apart ("fastify" in Fastify's docs). */
export const COMMON_SHARE = 0.5;
