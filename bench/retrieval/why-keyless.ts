/**
 * Where the key term sits when a right-page confident answer lacks it: every tune-half
 * answerable question with a key term, answered confidently from its right page without it,
 * with the passages the composer was handed (and which of their units hold the key term), the
 * right page's other candidates holding it (their rank among the page's candidates), and the
 * rest of the page; `--answers` prints each answer too.
 *
 *   node --import tsx bench/retrieval/why-keyless.ts [--sets=vet,waste] [--settings='{...}'] [--answers]
 *
 * Tune halves only (split by place for the all-`eval` sets, as `tune.ts --by-place`); it never
 * reads the sealed sets.
 */
import { cleanMarkdown } from '../../packages/bot-answer-engine/src/upstream/folder/clean-markdown.js';
import { composeAnswer } from '../../packages/bot-answer-engine/src/upstream/compose/extractive.js';
import { passageParts } from '../../packages/bot-answer-engine/src/upstream/compose/passage-units.js';
import { Retriever } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import type { Passage } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { expectedPages, pageOf, placeSplit } from './evaluate.js';
import { eachSetIndex, scriptArgs } from './tuning-script.js';

const args = scriptArgs();
const { only, settings } = args;
const label = (p: Passage): string => p.headings.join(' › ') || '(opening)';
/** The units of a passage holding the key term, by kind. */
const unitsHolding = (p: Passage, key: string): string => {
  const { leaves } = passageParts(cleanMarkdown(p.markdown, { definitions: p.document.links ?? new Map() }));
  const found = leaves.filter((leaf) => leaf.markdown.toLowerCase().includes(key));
  const head = p.headings.some((h) => h.toLowerCase().includes(key)) ? 'heading ' : '';
  return head + (found.map((leaf) => `${leaf.kind}#${leaf.id}/${leaves.length}(${leaf.markdown.length})`).join(' ') || (head ? '' : 'none'));
};

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
    for (const p of all) if (p.document.index === page && !seen.has(p.index) && unitsHolding(p, key) !== 'none') lines.push(`    elsewhere: ${label(p)} (${p.markdown.length}) key: ${unitsHolding(p, key)}`);
    if (args.has('answers')) lines.push(answer.answer.replace(/^/gm, '      | '));
    process.stdout.write(`${lines.join('\n')}\n`);
  });
});
