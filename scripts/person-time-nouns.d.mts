/** The types of person-time-nouns.mjs, for the test that checks its list. */
export const PERSON_TIME_NOUNS_FILE: string;
export function personTimeNounsText(): string;
