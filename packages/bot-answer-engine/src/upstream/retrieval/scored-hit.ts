import type { SearchHit } from './search-hit.js';

/** A hit before its passage is read: its id and document's. */
export interface ScoredHit extends Omit<SearchHit, 'passage'> {
  id: number;
  docId: number;
  /** The question's terms matched as themselves or a joined form (not by a prefix, a typo or the lexicon). */
  exact: number;
  /** Of those, the ones in at most half the passages (`COMMON_SHARE`). */
  ownWords: number;
  /** The question's telling words (see `tellingWordShare`) it does not match. */
  missing: string[];
  /** Of `missing`, the words that name no topic: mostly not nouns, or nouns of a person or a time (`tellingNouns`). */
  looseMissing: readonly string[];
  /** The question's names (`namedOnPage`) its page's candidate passages do not match. */
  unnamed: string[];
  /** `telling` and `strength` of what its page's candidate passages match together. */
  pageTelling: number;
  pageStrength: number;
}
