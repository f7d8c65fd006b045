/**
 * Whether the passage a typed question would be answered from states a value of the type the
 * question asks for, by outcome: right page confident, wrong page confident, unanswerable
 * confident, "not sure" with the right or a wrong page first, unanswerable "not sure". Each
 * question is tagged `P` (the passage judged, else the first shown, states a value in a unit
 * that is not code), `B` (such a unit holds a word of the question), `G` (another candidate
 * passage of its page states one), `N` (... beside a word of the question); `-` where not.
 *
 *   node --import tsx bench/retrieval/why-type.ts [--sets=vet,waste] [--list] [--settings='{...}']
 *
 * The types: `quantity` as `answer-type.ts` reads it; `time` split in two, `when` as a question
 * word (at the start of a clause, before an auxiliary verb; "what time / date / day / month /
 * year"; "how long / often / soon / old"), its value also a day or month named or "daily",
 * "weekly"..., and `time-cond`, the rest of what `answerType` calls a time ("when" as a
 * condition: "what happens when ..."); and types tried beside them, each read from
 * closed-class question words: `version` ("which / what ... version", a dotted number or
 * `v2`), `port` ("which / what ... port", a number), `where` ("where" before an auxiliary verb,
 * a link, URL, path or file name), `who` and `yes-no` (a question opening with an auxiliary
 * verb), these two counted only: no value of theirs can be read from a unit's form.
 * bench/retrieval/rounds.md, "Confident when right, round 13 (the answer's type)", has the counts.
 *
 * Tune halves only (split by place for the all-`eval` sets, as `tune.ts --by-place`); it never
 * reads the sealed sets.
 */
import { answerType, statesType } from '../../packages/bot-answer-engine/src/upstream/compose/answer-type.js';
import { passageParts } from '../../packages/bot-answer-engine/src/upstream/compose/passage-units.js';
import { cleanMarkdown } from '../../packages/bot-answer-engine/src/upstream/folder/clean-markdown.js';
import { analyze, questionTerms } from '../../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';
import { Retriever, type SearchHit } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { asksYesNo } from '../../packages/bot-answer-engine/src/upstream/retrieval/terms.js';
import { expectedPages, offTopicSplit, pageOf, placeSplit } from './evaluate.js';
import { eachSetIndex, scriptArgs } from './tuning-script.js';

const args = scriptArgs();
const { only, settings } = args;
const list = args.has('list');

type Outcome = 'right' | 'wrong' | 'unanswerable confident' | 'unsure, right first' | 'unsure, wrong first' | 'unanswerable unsure';
/** Whether a unit's text (links' targets dropped) states a value of the type. */
type States = (text: string) => boolean;

const AUXILIARY = "(?:do|does|did|is|are|can|should|will|would|could|must|may|might|was|were|am|'s)";
const CLAUSE_START = '(?:^|[,.;?!]\\s*)';
const TIME_VALUE =
  /\d[\d,.]*\s*(?:\*\*)?\s*(?:(?:second|minute|hour|day|week|fortnight|month|year|night|time|ms|s|h|am|pm)s?\b|st\b|nd\b|rd\b|th\b|:\d\d)|\b(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|daily|weekly|monthly|yearly|annually|hourly)\b/i;
const regex = (pattern: RegExp): States => (text) => pattern.test(text);
// Tried in this order after `quantity`; `time-cond` takes what `answerType` calls a time and none of these does.
const TRIALS: Array<[string, { test(question: string): boolean }, States | undefined]> = [
  ['version', /\b(?:which|what)\s+(?:\S+\s+)?versions?\b/i, regex(/\bv?\d+\.\d+|\bv\d+\b|\d+\.x\b/i)],
  ['port', /\b(?:which|what)\s+(?:\S+\s+)?port\b/i, regex(/\d{2,5}/)],
  ['where', new RegExp(`${CLAUSE_START}where\\s+(?:${AUXILIARY}|\\S+'s)\\b`, 'i'), regex(/\]\(|https?:\/\/|\S\/\S|\b[a-z][\w-]*\.(?:json|js|ts|yml|yaml|toml|md|txt|env|config|rc)\b/i)],
  ['who', new RegExp(`${CLAUSE_START}who\\b`, 'i'), undefined],
  // The engine's own reading (`yesNoTelling`), so this count and the rule cannot drift apart.
  ['yes-no', { test: asksYesNo }, undefined],
  ['when', new RegExp(`${CLAUSE_START}when\\s+${AUXILIARY}\\b|\\bwhat\\s+(?:time|dates?|day|month|year)\\b|\\bhow\\s+(?:long|often|soon|old)\\b`, 'i'), regex(TIME_VALUE)],
];

/** The question's type as tried here, and how a unit states a value of it (none: counted only). */
function trialType(question: string): [string, States | undefined] | undefined {
  const type = answerType(question);
  if (type === 'quantity') return ['quantity', (text) => statesType('quantity', text)];
  for (const [kind, asks, states] of TRIALS) if (asks.test(question)) return [kind, states];
  return type === 'time' ? ['time-cond', (text) => statesType('time', text)] : undefined;
}

/** Whether a unit of the passage (not code) states a value, and whether such a unit holds a word of `asked`. */
function stated(states: States, markdown: string, asked: Set<string>): { states: boolean; beside: boolean } {
  const units = passageParts(cleanMarkdown(markdown)).leaves.filter((leaf) => leaf.kind !== 'code' && states(leaf.markdown.replace(/\]\([^)]*\)/g, ']')));
  return { states: units.length > 0, beside: units.some((leaf) => analyze(leaf.markdown).some((term) => asked.has(term))) };
}

const counts = new Map<string, number>();
const bump = (key: string): void => void counts.set(key, (counts.get(key) ?? 0) + 1);
const lines: string[] = [];

await eachSetIndex('why-type', only, (set, index, kbSettings) => {
  const retriever = new Retriever(index, settings);
  const splitOf = placeSplit(set);
  const visit = (question: string, want: Set<string> | undefined): void => {
    const trial = trialType(question);
    if (!trial) return;
    const [kind, states] = trial;
    const decision = retriever.decide(question);
    if (decision.outcome === 'refused') return;
    const firstRight = want?.has(pageOf(decision.hits[0]?.passage.url ?? '')) ?? false;
    const outcome: Outcome =
      decision.outcome === 'answered'
        ? !want ? 'unanswerable confident' : firstRight ? 'right' : 'wrong'
        : !want ? 'unanswerable unsure' : firstRight ? 'unsure, right first' : 'unsure, wrong first';
    bump(`${kind.padEnd(9)} ${outcome.padEnd(24)} total`);
    const judged: SearchHit | undefined = decision.judged?.hit ?? decision.hits[0];
    if (!judged || !states) return;
    const asked = new Set(questionTerms(question).terms);
    const own = stated(states, judged.passage.markdown, asked);
    const page = pageOf(judged.passage.url);
    const others = retriever
      .search(question)
      .filter((hit) => pageOf(hit.passage.url) === page && hit.passage.index !== judged.passage.index)
      .map((hit) => stated(states, hit.passage.markdown, asked));
    const tag = `${own.states ? 'P' : '-'}${own.beside ? 'B' : '-'}${others.some((o) => o.states) ? 'G' : '-'}${others.some((o) => o.beside) ? 'N' : '-'}`;
    bump(`${kind.padEnd(9)} ${outcome.padEnd(24)} ${tag}`);
    if (list) lines.push(`${set.id} ${kind} ${outcome} ${tag} conf ${decision.judged?.confidence.toFixed(2) ?? '-'}: ${question} -> ${page.replace(/^https?:\/\/[^/]+\//, '')}`);
  };
  set.questions.forEach((q, place) => {
    if (splitOf(q, place) === 'tune') visit(q.question, expectedPages(q, kbSettings));
  });
  set.offTopic.forEach((question, place) => {
    if (offTopicSplit(place) === 'tune') visit(question, undefined);
  });
});
for (const line of lines) process.stdout.write(`${line}\n`);
process.stdout.write('tags: P the passage states a value, B beside a word of the question, G another candidate of its page states one, N ... beside a word of the question\n');
for (const [key, n] of [...counts].sort()) process.stdout.write(`${key.padEnd(56)} ${n}\n`);
