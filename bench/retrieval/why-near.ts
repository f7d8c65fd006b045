/**
 * Whether the right page says the question's words closer together than the page answered from:
 * each tune-half confident answer from a wrong page, its first page's best passage against the
 * right page's best candidate passage, by how many of the question's words (found in the index)
 * each says within `--window` consecutive words, with the margin (ln of the
 * score ratio) between them. Tune halves only (split by place for the all-`eval` sets); it never
 * reads the sealed sets.
 *
 *   node --import tsx bench/retrieval/why-near.ts [--sets=vet,waste] [--window=5] [--settings='{...}']
 */
import { processTerm, questionTerms } from '../../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';
import { Retriever } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { expectedPages, placeSplit } from './evaluate.js';
import { confidentRival, eachSetIndex, scriptArgs } from './tuning-script.js';

// A word as the analyzer makes them, near enough: a camelCase word's parts apart ("firstName": first, Name).
const WORD = /\p{Lu}?[\p{Ll}\p{Lo}\p{Lm}\p{N}]+|\p{Lu}+/gu;

/** The most of these terms a text says within `window` consecutive words (stop words counted): 0 when none, 1 when no two are that close. */
function mostNear(markdown: string, terms: readonly string[], window: number): number {
  const places: Array<[number, number]> = [];
  let n = 0;
  for (const match of markdown.matchAll(WORD)) {
    const term = processTerm(match[0]);
    const w = term === null ? -1 : terms.indexOf(term);
    if (w >= 0) places.push([n, w]);
    n++;
  }
  let most = places.length ? 1 : 0;
  for (let i = 0; i < places.length; i++) {
    const seen = new Set<number>();
    for (let j = i; j < places.length && places[j]![0] - places[i]![0] < window; j++) seen.add(places[j]![1]);
    most = Math.max(most, seen.size);
  }
  return most;
}

const args = scriptArgs();
const window = Number(process.argv.find((a) => a.startsWith('--window='))?.slice(9) ?? 5);
const counts = new Map<string, number>();
const bump = (key: string): void => void counts.set(key, (counts.get(key) ?? 0) + 1);

await eachSetIndex('why-near', args.only, (set, index, kbSettings) => {
  const retriever = new Retriever(index, args.settings);
  const splitOf = placeSplit(set);
  set.questions.forEach((q, place) => {
    if (splitOf(q, place) !== 'tune') return;
    const answer = confidentRival(retriever, q.question, expectedPages(q, kbSettings));
    if (!answer) return;
    const { first, right, rival, margin } = answer;
    const words = questionTerms(q.question).terms.filter((t) => index.documentFrequency(t) > 0);
    const near = (markdown: string): number => (words.length > 1 ? mostNear(markdown, words, window) : 0);
    const kind = right ? 'right' : 'wrong';
    if (!rival || margin === undefined) return bump(`${kind}: other page not a candidate`);
    const [a, b] = [near(first.passage.markdown), near(rival.passage.markdown)];
    const bucket = margin < 0.15 ? '<0.15' : margin < 0.3 ? '0.15-0.3' : '>=0.3';
    const verdict = b > a ? 'other closer' : b < a ? 'first closer' : 'same';
    bump(`${kind} ${bucket}: ${verdict}`);
    if (!right) process.stdout.write(`${set.id} ${verdict} (${a} vs ${b} of ${words.length}) margin ${margin.toFixed(2)}: ${q.question}\n`);
  });
});
for (const [key, n] of [...counts].sort()) process.stdout.write(`${key.padEnd(40)} ${n}\n`);
