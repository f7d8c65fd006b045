/**
 * Where the confident answers from a wrong page come from: each tune-half confident answer whose
 * first page is not an expected one, its passage judged against the right page's best candidate,
 * sorted by cause: the right page not a candidate; the first page an index or overview (its path
 * a folder's, or named `overview` / `welcome`); a twin (the right page's best passage matches the
 * very same question words, the margin, ln of the score ratio, under 0.3); a close rival matching
 * other words (margin under 0.3); a far one (0.3 or more). Each also by whether the right page is
 * among the answer's sources already. `--list` prints each answer with both passages' figures
 * (score, coverage, telling share, heading share, the words matched, the heading path).
 * `--right` adds, for the right answers, the best passage of another page, so a rule meant to
 * win a wrong page can be weighed by the right answers it would touch. Tune halves only (split
 * by place for the all-`eval` sets); it never reads the sealed sets.
 *
 *   node --import tsx bench/retrieval/why-twin.ts [--sets=vet,waste] [--settings='{...}'] [--list] [--right]
 */
import { Retriever, type SearchHit } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { expectedPages, pageOf, placeSplit } from './evaluate.js';
import { eachSetIndex, scriptArgs } from './tuning-script.js';

const args = scriptArgs();
const list = args.has('list');
const withRight = args.has('right');
const counts = new Map<string, number>();
const bump = (key: string): void => void counts.set(key, (counts.get(key) ?? 0) + 1);
const figures = (hit: SearchHit): string =>
  `score ${hit.score.toFixed(1)} coverage ${hit.coverage.toFixed(2)} telling ${hit.telling.toFixed(2)} head ${hit.headTelling.toFixed(2)} [${hit.matchedTerms.join(' ')}] ${hit.passage.headings.join(' > ')}`;
const sameWords = (a: SearchHit, b: SearchHit): boolean => a.matchedTerms.length === b.matchedTerms.length && a.matchedTerms.every((term) => b.matchedTerms.includes(term));
const INDEX_PAGE = /(?:\/|\/(?:index|readme)(?:\.\w+)?|overview|welcome)$/i;

await eachSetIndex('why-twin', args.only, (set, index, kbSettings) => {
  const retriever = new Retriever(index, args.settings);
  const splitOf = placeSplit(set);
  set.questions.forEach((q, place) => {
    if (splitOf(q, place) !== 'tune') return;
    const want = expectedPages(q, kbSettings);
    const decision = retriever.decide(q.question);
    if (decision.outcome !== 'answered') return;
    const firstPage = pageOf(decision.hits[0]!.passage.url);
    const right = want.has(firstPage);
    if (right && !withRight) return;
    const hits = retriever.search(q.question);
    const judged = decision.judged?.hit ?? decision.hits[0]!;
    const first = hits.find((hit) => hit.passage.index === judged.passage.index) ?? judged;
    const other = right ? hits.find((hit) => pageOf(hit.passage.url) !== firstPage) : hits.find((hit) => want.has(pageOf(hit.passage.url)));
    const cited = other !== undefined && decision.hits.some((hit) => pageOf(hit.passage.url) === pageOf(other.passage.url));
    const margin = other ? Math.log(first.score / other.score) : undefined;
    const cause =
      !other || margin === undefined
        ? 'not a candidate'
        : !right && INDEX_PAGE.test(firstPage)
          ? 'index or overview first'
          : margin < 0.3
            ? sameWords(first, other)
              ? 'twin (the same words), margin < 0.3'
              : 'close rival (other words), margin < 0.3'
            : 'far, margin >= 0.3';
    bump(`${right ? 'right' : 'wrong'}: ${cause}${other ? (cited ? ', cited' : ', not cited') : ''}`);
    if (!list) return;
    process.stdout.write(`${right ? 'RIGHT' : 'WRONG'} ${set.id} (${cause}${margin === undefined ? '' : `, margin ${margin.toFixed(2)}`}${cited ? ', cited' : ''}): ${q.question}\n`);
    process.stdout.write(`    first ${firstPage} ${figures(first)}\n`);
    if (other) process.stdout.write(`    ${right ? 'other' : 'right'} ${pageOf(other.passage.url)} ${figures(other)}\n`);
  });
});
for (const [key, n] of [...counts].sort()) process.stdout.write(`${key.padEnd(60)} ${n}\n`);
