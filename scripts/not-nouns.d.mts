/** The types of not-nouns.mjs, for the test that checks its list. */
export const NOT_NOUNS_FILE: string;
export function notNounsText(): string;
