/**
 * What a model would be given: for every tune-half question, by the engine's outcome (confident,
 * not sure, refused), whether the prompt a model writes from (the passages of `forModel`, numbered
 * as `numberSources` numbers them, `llmPassages` 8 and the prompt's character budget) holds a
 * passage of a right page, and that passage the key term; and for unanswerable questions, how
 * many would reach a model. It measures what a model could answer, not what it would: the most a
 * written answer can reach, on a machine with no model.
 *
 *   node --import tsx bench/retrieval/why-model.ts [--sets=vet,waste] [--passages=8] [--list]
 *
 * With `--list`, each "not sure" answerable question whose prompt holds a right page, with the
 * prompt's sources. Tune halves only (split by place for the all-`eval` sets, as
 * `tune.ts --by-place`); it never reads the sealed sets.
 */
import { cleanMarkdown } from '../../packages/bot-answer-engine/src/upstream/folder/clean-markdown.js';
import { numberSources } from '../../packages/bot-answer-engine/src/upstream/compose/written/prompt.js';
import { Retriever } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { expectedPages, offTopicSplit, pageOf, placeSplit } from './evaluate.js';
import { eachSetIndex, scriptArgs } from './tuning-script.js';

const args = scriptArgs();
const maxPassages = Number(args.get('passages') ?? 8);
const list = args.has('list');

type Outcome = 'answered' | 'not_sure' | 'refused';
interface Row {
  questions: number;
  /** A right page is first among the engine's sources (confident or related pages). */
  shownFirst: number;
  /** A passage of a right page is in the prompt. */
  inPrompt: number;
  /** ... and one of them holds the key term (of the questions with one). */
  keyInPrompt: number;
  keyOf: number;
  /** Prompt sources, summed (for their mean). */
  sources: number;
}
const rowOf = (): Row => ({ questions: 0, shownFirst: 0, inPrompt: 0, keyInPrompt: 0, keyOf: 0, sources: 0 });
const rows: Record<Outcome, Row> = { answered: rowOf(), not_sure: rowOf(), refused: rowOf() };
const unanswerable: Record<Outcome, number> = { answered: 0, not_sure: 0, refused: 0 };

await eachSetIndex('why-model', args.only, (set, index, kbSettings) => {
  const retriever = new Retriever(index, args.settings);
  const split = placeSplit(set);
  // The prompt's passages as the server picks them (`Bot.forModel`).
  const prompt = (question: string, decided: ReturnType<Retriever['decide']>) =>
    numberSources(retriever.forModel(question, undefined, decided.hits.map((hit) => hit.passage)), maxPassages);
  set.questions.forEach((q, place) => {
    if (split(q, place) !== 'tune') return;
    const want = expectedPages(q, kbSettings);
    const decided = retriever.decide(q.question);
    const row = rows[decided.outcome];
    row.questions++;
    if (want.has(pageOf(decided.hits[0]?.passage.url ?? ''))) row.shownFirst++;
    // A refused question never reaches a model: its row says what the candidates held, for scale.
    const sources = prompt(q.question, decided);
    row.sources += sources.length;
    const right = sources.filter((s) => want.has(pageOf(s.url)));
    if (right.length > 0) row.inPrompt++;
    if (q.keyTerm) {
      row.keyOf++;
      const key = q.keyTerm.toLowerCase();
      if (right.some((s) => s.passages.some((p) => cleanMarkdown(p.markdown).toLowerCase().includes(key)))) row.keyInPrompt++;
    }
    if (list && decided.outcome === 'not_sure' && right.length > 0) {
      process.stdout.write(`${set.id}: ${q.question}\n${sources.map((s) => `    ${want.has(pageOf(s.url)) ? '*' : ' '} [${s.n}] ${s.source.title}`).join('\n')}\n`);
    }
  });
  set.offTopic.forEach((question, place) => {
    if (offTopicSplit(place) === 'tune') unanswerable[retriever.decide(question).outcome]++;
  });
});

const pct = (n: number, of: number): string => `${n} (${of ? ((100 * n) / of).toFixed(1) : '0.0'}%)`;
process.stdout.write(`answerable questions, tune halves (prompt: at most ${maxPassages} passages)\n`);
process.stdout.write('outcome    | questions | right page shown first | right page in the prompt | key term in its passages | prompt sources (mean)\n');
for (const [outcome, row] of Object.entries(rows)) {
  process.stdout.write(
    `${outcome.padEnd(10)} | ${row.questions} | ${pct(row.shownFirst, row.questions)} | ${pct(row.inPrompt, row.questions)} | ${row.keyInPrompt}/${row.keyOf} | ${(row.sources / Math.max(1, row.questions)).toFixed(1)}\n`,
  );
}
process.stdout.write(`unanswerable questions, tune halves: confident ${unanswerable.answered}, not sure ${unanswerable.not_sure}, refused ${unanswerable.refused}\n`);
