/**
 * Why the right page is not among the links of a "not sure" or refused answer: every tune-half
 * answerable question whose outcome is not confident and whose links miss its right page, with
 * the right page's rank among the candidates' pages (best passage's score), its best passage's
 * figures against the best-scoring page's, and the pages shown; unanswerable questions' outcomes
 * with the same figures, so a rule for the related pages can be weighed by what it lets in.
 *
 * With `--confident`, the confident answers instead whose first 3 links miss the right page:
 * the right page's rank, its best passage's figures against the answer's, and which of the
 * further sources' bars (`relativeScore`, `fullStrength`, half the answer's coverage) or the
 * places taken kept it out.
 *
 *   node --import tsx bench/retrieval/why-unlinked.ts [--sets=vet,waste] [--settings='{"relatedStandout":2}'] [--confident]
 *
 * Tune halves only (split by place for the all-`eval` sets, as `tune.ts --by-place`); it never
 * reads the sealed sets.
 */
import { DEFAULT_RETRIEVAL, Retriever, type SearchHit } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { expectedPages, offTopicSplit, pageOf, placeSplit } from './evaluate.js';
import { eachSetIndex, scriptArgs } from './tuning-script.js';

const args = scriptArgs();
const { only, settings } = args;
const confident = args.has('confident');
const full = { ...DEFAULT_RETRIEVAL, ...settings };
const short = (url: string): string => pageOf(url).replace(/^https?:\/\/[^/]+\//, '');
const figures = (hit: SearchHit | undefined, top: number): string =>
  hit ? `score ${(hit.score / top).toFixed(2)} telling ${hit.telling.toFixed(2)} strength ${hit.strength.toFixed(2)} coverage ${hit.coverage.toFixed(2)} head ${hit.headTelling.toFixed(2)} words ${hit.matchedTerms.join(' ')}` : 'none';

await eachSetIndex('why-unlinked', only, (set, index, kbSettings) => {
  const retriever = new Retriever(index, settings);
  const splitOf = placeSplit(set);
  /** The candidates' pages, best passage first, and each page's best passage. */
  const pagesOf = (question: string): Array<[string, SearchHit]> => {
    const best = new Map<string, SearchHit>();
    for (const hit of retriever.search(question)) if (!best.has(pageOf(hit.passage.url))) best.set(pageOf(hit.passage.url), hit);
    return [...best];
  };
  set.questions.forEach((q, place) => {
    if (splitOf(q, place) !== 'tune') return;
    const want = expectedPages(q, kbSettings);
    const decision = retriever.decide(q.question);
    if (confident) {
      const shown = [...new Set(decision.hits.map((h) => h.passage.url))].slice(0, 3).map(pageOf);
      if (decision.outcome !== 'answered' || shown.some((page) => want.has(page))) return;
      const pages = pagesOf(q.question);
      const rank = pages.findIndex(([page]) => want.has(page));
      const answer = decision.hits[0]!;
      const right = rank >= 0 ? pages[rank]![1] : undefined;
      const bars = right
        ? [
            right.score < answer.score * full.relativeScore ? `score ${(right.score / answer.score).toFixed(2)} < ${full.relativeScore}` : '',
            right.strength < full.fullStrength ? `strength ${right.strength.toFixed(2)} < ${full.fullStrength}` : '',
            right.coverage < answer.coverage / 2 ? `coverage ${right.coverage.toFixed(2)} < half ${answer.coverage.toFixed(2)}` : '',
          ].filter(Boolean).join(', ') || 'passes the bars: places taken'
        : 'not a candidate';
      process.stdout.write(
        `${set.id} CONFIDENT rank ${rank < 0 ? '-' : rank + 1}/${pages.length} ${bars}: ${q.question}\n` +
          `      right:  ${figures(right, answer.score)}\n` +
          `      answer: ${short(answer.passage.url)} ${figures(answer, answer.score)}\n` +
          `      shown:  ${decision.hits.map((h) => short(h.passage.url) + (h.passage.url.includes('#') ? '#' + h.passage.url.split('#')[1] : '')).join(', ')}\n`,
      );
      return;
    }
    if (decision.outcome === 'answered' || decision.hits.some((h) => want.has(pageOf(h.passage.url)))) return;
    const pages = pagesOf(q.question);
    const rank = pages.findIndex(([page]) => want.has(page));
    const topScore = pages[0]?.[1].score ?? 1;
    process.stdout.write(
      `${set.id} ${decision.outcome.toUpperCase()} rank ${rank < 0 ? '-' : rank + 1}/${pages.length}: ${q.question}\n` +
        `      right: ${figures(rank >= 0 ? pages[rank]![1] : undefined, topScore)}\n` +
        `      top:   ${pages[0] ? short(pages[0][0]) : '-'} ${figures(pages[0]?.[1], topScore)}\n` +
        `      2nd:   ${pages[1] ? short(pages[1][0]) : '-'} ${figures(pages[1]?.[1], topScore)}\n` +
        `      shown: ${decision.hits.map((h) => short(h.passage.url)).join(', ')}\n`,
    );
  });
  set.offTopic.forEach((question, place) => {
    if (confident || offTopicSplit(place) !== 'tune') return;
    const decision = retriever.decide(question);
    const pages = pagesOf(question);
    const topScore = pages[0]?.[1].score ?? 1;
    process.stdout.write(
      `${set.id} OFF ${decision.outcome.toUpperCase()}: ${question}\n` +
        `      top:   ${pages[0] ? short(pages[0][0]) : '-'} ${figures(pages[0]?.[1], topScore)}\n` +
        `      2nd:   ${pages[1] ? short(pages[1][0]) : '-'} ${figures(pages[1]?.[1], topScore)}\n`,
    );
  });
});
