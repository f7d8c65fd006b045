/**
 * Where the key term sits when a right-page confident answer lacks it: every tune-half
 * answerable question with a key term, answered confidently from its right page without it,
 * with the passages the composer was handed (and which of their units hold the key term), the
 * right page's other candidates holding it (their rank among the page's candidates), and the
 * rest of the page; `--answers` prints each answer too. `--summary` ends with the misses sorted
 * by where the key term sits (a unit of the section quoted first, another section handed over,
 * another section among the page's candidates (the answer citing all it may or not; the section
 * scoring near the first passage or not), elsewhere on the page, another page, a heading only,
 * nowhere on the page as written: the set's key term phrased otherwise), a section holding it in no
 * one unit (the sentence splitter cutting it, a table's header row) told apart,
 * by the kind of the units holding it (prose, only code blocks, only table rows) and by why it
 * was left out (the answer at its budget; the unit holding a word of the question or not).
 *
 *   node --import tsx bench/retrieval/why-keyless.ts [--sets=vet,waste] [--settings='{...}'] [--answers] [--summary]
 *
 * Tune halves only (split by place for the all-`eval` sets, as `tune.ts --by-place`); it never
 * reads the sealed sets.
 */
import { cleanMarkdown } from '../../packages/bot-answer-engine/src/upstream/folder/clean-markdown.js';
import { composeAnswer } from '../../packages/bot-answer-engine/src/upstream/compose/extractive.js';
import { passageParts, type Leaf } from '../../packages/bot-answer-engine/src/upstream/compose/passage-units.js';
import { analyze } from '../../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';
import { Retriever } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { DEFAULT_RETRIEVAL } from '../../packages/bot-answer-engine/src/upstream/retrieval/settings.js';
import type { Passage } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { expectedPages, pageOf, placeSplit } from './evaluate.js';
import { eachSetIndex, scriptArgs } from './tuning-script.js';

const args = scriptArgs();
const { only, settings } = args;
/** An answer this long is at its budget (1,200 characters, label lines included, less a unit's room). */
const AT_BUDGET = 1000;
/** A section scoring this share of the first passage or more is near it (round 13 measured adding such sections at 0.9 to 1.0). */
const NEAR_FIRST = 0.9;
const label = (p: Passage): string => p.headings.join(' › ') || '(opening)';
const leavesOf = (p: Passage): Leaf[] => passageParts(cleanMarkdown(p.markdown, { definitions: p.document.links ?? new Map() })).leaves;
const holding = (p: Passage, key: string): Leaf[] => leavesOf(p).filter((leaf) => leaf.markdown.toLowerCase().includes(key));
/** Text with its runs of white space as one space, lower-cased: a key term is matched against it. */
const flat = (text: string): string => text.toLowerCase().replace(/\s+/g, ' ');
/**
 * Whether the passage's cleaned text holds the key term while none of its units does: the term
 * cut by the sentence splitter, or held by what no unit is (a table's header row, a list's marker).
 */
const splitAcross = (p: Passage, key: string): boolean =>
  flat(cleanMarkdown(p.markdown, { definitions: p.document.links ?? new Map() })).includes(flat(key)) && !leavesOf(p).some((leaf) => flat(leaf.markdown).includes(flat(key)));
/** The units of a passage holding the key term, by kind. */
const unitsHolding = (p: Passage, key: string): string => {
  const found = holding(p, key);
  const head = p.headings.some((h) => h.toLowerCase().includes(key)) ? 'heading ' : '';
  return head + (found.map((leaf) => `${leaf.kind}#${leaf.id}/${leavesOf(p).length}(${leaf.markdown.length})`).join(' ') || (head ? '' : 'none'));
};
/** The kind of the units holding the key term: only code blocks, only table rows, or prose (sentences, items). */
const kindOf = (leaves: Leaf[]): string =>
  leaves.every((leaf) => leaf.kind === 'code') ? 'only in code' : leaves.every((leaf) => leaf.kind === 'row') ? 'only in a table' : 'in prose';
const counts = new Map<string, number>();
const count = (cause: string): void => void counts.set(cause, (counts.get(cause) ?? 0) + 1);

await eachSetIndex('why-keyless', only, (set, index, kbSettings) => {
  const retriever = new Retriever(index, settings);
  const splitOf = placeSplit(set);
  const all = index.read(() => index.passagesById([...Array(index.passages).keys()]));
  set.questions.forEach((q, place) => {
    if (splitOf(q, place) !== 'tune' || !q.keyTerm) return;
    const key = q.keyTerm.toLowerCase();
    const want = expectedPages(q, kbSettings);
    const decision = retriever.decide(q.question);
    if (decision.outcome !== 'answered') return;
    const passages = decision.hits.map((h) => h.passage);
    const answer = composeAnswer(passages, false, q.question, kbSettings);
    if (!want.has(pageOf(answer.sources[0]?.url ?? '')) || answer.answer.toLowerCase().includes(key)) return;
    const page = passages[0]!.document.index;
    const handed = new Set(passages.map((p) => p.index));
    const candidates = retriever.search(q.question).filter((h) => h.passage.document.index === page);
    const lines = [`${set.id}: ${q.question}  [key: ${q.keyTerm}]  answer ${answer.answer.length} chars`];
    passages.forEach((p, i) => lines.push(`    handed ${i}${p.document.index === page ? '' : ' (other page)'}: ${label(p)} (${p.markdown.length}) key: ${unitsHolding(p, key)}`));
    candidates.forEach((h, rank) => {
      if (handed.has(h.passage.index)) return;
      const units = unitsHolding(h.passage, key);
      if (units !== 'none') lines.push(`    candidate ${rank + 1}/${candidates.length}: ${label(h.passage)} (${h.passage.markdown.length}) score ${(h.score / (candidates[0]?.score ?? 1)).toFixed(2)} key: ${units}`);
    });
    const seen = new Set([...handed, ...candidates.map((h) => h.passage.index)]);
    const elsewhere = all.filter((p) => p.document.index === page && !seen.has(p.index) && holding(p, key).length);
    for (const p of elsewhere) lines.push(`    elsewhere: ${label(p)} (${p.markdown.length}) key: ${unitsHolding(p, key)}`);
    if (args.has('answers')) lines.push(answer.answer.replace(/^/gm, '      | '));
    process.stdout.write(`${lines.join('\n')}\n`);
    // Where it sits first (the nearest to what was quoted), of what kind, and why it was left out.
    const asked = new Set(analyze(q.question));
    const budget = answer.answer.length >= AT_BUDGET ? 'the answer at its budget' : 'the answer short';
    const worded = (leaves: Leaf[]): string => (leaves.some((leaf) => analyze(leaf.markdown).some((term) => asked.has(term))) ? 'a question word beside it' : 'no question word beside it');
    const ownPage = passages.filter((p) => p.document.index === page);
    const first = holding(ownPage[0]!, key);
    const other = ownPage.slice(1).flatMap((p) => holding(p, key));
    const candidate = candidates.filter((h) => !handed.has(h.passage.index)).flatMap((h) => holding(h.passage, key));
    const otherPage = passages.filter((p) => p.document.index !== page).flatMap((p) => holding(p, key));
    // Why no rule of the first page handed it over: the answer already cites as many passages as it may (only
    // `subsections` adds then), or it has room and the section is no subsection, states no new figure or code, and the quoted ones are not short.
    const full = passages.length >= (settings.maxPassages ?? DEFAULT_RETRIEVAL.maxPassages);
    const keyed = candidates.filter((h) => !handed.has(h.passage.index) && holding(h.passage, key).length);
    const near = keyed.some((h) => h.score >= decision.hits[0]!.score * NEAR_FIRST) ? 'scoring 0.9 of the first passage or more' : 'scoring under 0.9 of the first passage';
    const notHanded = `${full ? 'the answer citing all it may' : 'the answer with room'}, ${near}`;
    const ofPage = all.filter((p) => p.document.index === page);
    const onPage = ofPage.some((p) => p.headings.some((h) => flat(h).includes(flat(key))));
    const cause = splitAcross(ownPage[0]!, key)
      ? 'the section quoted first, in no one unit: cut by the sentence splitter, or in a table\'s header row'
      : first.length
      ? `the section quoted first, left out: ${kindOf(first)}, ${worded(first)}, ${budget}`
      : other.length
        ? `another section of the page handed over, left out: ${kindOf(other)}, ${worded(other)}, ${budget}`
        : candidate.length
          ? `another section, a candidate not handed over: ${kindOf(candidate)}, ${worded(candidate)}, ${notHanded}`
          : elsewhere.length
            ? `elsewhere on the page, not a candidate: ${kindOf(elsewhere.flatMap((p) => holding(p, key)))}`
            : otherPage.length
              ? `another page's section handed over: ${kindOf(otherPage)}`
              : ofPage.some((p) => splitAcross(p, key))
                ? 'elsewhere on the page, in no one unit: cut by the sentence splitter, or in a table\'s header row'
                : onPage
                ? 'in a heading of the page only'
                : 'nowhere on the page as written: the set\'s key term phrased otherwise than the page';
    count(cause);
    if (args.has('summary')) process.stdout.write(`    cause: ${cause}\n`);
  });
});
if (args.has('summary')) {
  process.stdout.write(`\nmisses by cause (${[...counts.values()].reduce((a, b) => a + b, 0)}):\n`);
  for (const [cause, n] of [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) process.stdout.write(`${String(n).padStart(4)}  ${cause}\n`);
}
