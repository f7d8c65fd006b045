import { cleanMarkdown } from '../folder/clean-markdown.js';
import { analyze } from '../retrieval/analyzer.js';
import { passageParts, type Leaf } from './passage-units.js';

/**
 * The kind of thing a question asks for, read from its own grammar, and whether a unit of a
 * page states one. Two kinds are told:
 * - `quantity` ("how much", "how many"): an amount, price or count, stated in digits ("£25",
 *   "1,000 requests");
 * - `time` ("how long / often / soon / old", "when", "what time", "what date"): a duration,
 *   frequency, age, time or date, stated as digits with a unit of time ("7 days", "3 months
 *   after", "60 times a second"), an ordinal ("the 15th") or a clock time ("18:00").
 * The words of such a question name its topic ("hire the common room"); the figure that
 * answers sits beside them, often in a unit holding only one of them.
 * A third kind, `code`, is never read from a question's grammar (`answerType` does not return
 * it): a name in code, a code span or a command-line flag (`--resume`, `multiExpand`), which the
 * docs state beside the words of a question asking how to do something. Retrieval uses it to
 * choose which section of the page to hand over; the composer weighs figures only.
 */
export type AnswerType = 'quantity' | 'time' | 'code';

// Closed-class words only: the question words and the degree words "how" asks with.
const QUANTITY_QUESTION = /\bhow\s+(?:much|many)\b/i;
const TIME_QUESTION = /\b(?:how\s+(?:long|often|soon|old)|when|what\s+time|what\s+dates?)\b/i;
const FIGURE = /\d/;
// A code span on one line, or a flag after white space ("--content-type-id", "-p").
const CODE_NAME = /`[^`\n]+`|(?:^|\s)--?[a-z]/i;
// Units of time (and "times", for how often) after a figure, an ordinal day, or a clock time.
const TIME_FIGURE = /\d[\d,.]*\s*(?:\*\*)?\s*(?:(?:second|minute|hour|day|week|fortnight|month|year|night|time|ms|s|h|am|pm)s?\b|st\b|nd\b|rd\b|th\b|:\d\d)/i;

/** The kind of answer the question asks for, from its question words; "how much" or "how many" anywhere makes it a quantity. */
export function answerType(question: string | undefined): AnswerType | undefined {
  if (!question) return undefined;
  if (QUANTITY_QUESTION.test(question)) return 'quantity';
  return TIME_QUESTION.test(question) ? 'time' : undefined;
}

/** Whether a unit's Markdown states an answer of the type (for a figure, not counting a link's target or an HTML tag). */
export function statesType(type: AnswerType, markdown: string): boolean {
  if (type === 'code') return CODE_NAME.test(markdown);
  const text = markdown.replace(/\]\([^)]*\)/g, ']').replace(/<[^>]*>/g, '');
  return (type === 'quantity' ? FIGURE : TIME_FIGURE).test(text);
}

/** Whether a leaf states the type in prose, a list item or a row: a code block's figures are its syntax, not a stated fact (its names in code are). */
export function leafStatesType(type: AnswerType, leaf: Leaf): boolean {
  return (type === 'code' || leaf.kind !== 'code') && statesType(type, leaf.markdown);
}

// What any unit stating the type holds somewhere in the section's cleaned Markdown: a unit is
// a piece of it (but for white space), a figure needs a digit and a name in code a backtick or a
// flag after white space (a unit's start follows white space or the section's start).
const MAY_STATE: Record<AnswerType, RegExp> = { quantity: /\d/, time: /\d/, code: /`|(?:^|\s)--?[a-z]/i };

/**
 * The question's `terms` (analysed) that a section's units stating the type hold: what its
 * figures are beside. `cleaned` is the section's Markdown cleaned (`cleanMarkdown`), when the
 * caller has it already. A section that cannot state the type, or no term asked, is not parsed.
 */
export function typedTerms(type: AnswerType, markdown: string, terms: ReadonlySet<string>, cleaned?: string): Set<string> {
  const found = new Set<string>();
  if (terms.size === 0) return found;
  const text = cleaned ?? cleanMarkdown(markdown);
  if (!MAY_STATE[type].test(text)) return found;
  for (const leaf of passageParts(text).leaves) {
    if (!leafStatesType(type, leaf)) continue;
    for (const term of analyze(leaf.markdown)) if (terms.has(term)) found.add(term);
  }
  return found;
}
