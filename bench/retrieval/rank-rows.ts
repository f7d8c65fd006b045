/**
 * The rows a learned ranking of pages is fitted on: for every answerable question of the tune
 * sets (both halves; split by place for the all-`eval` sets, as `tune.ts --by-place`), its
 * outcome, the pages the engine shows (an answer's sources or the related pages), and the first
 * 20 candidate pages of the search, each with the figures its passages give and whether it is an
 * expected page. A model fitted on them, ordering a question's candidate pages, is measured
 * against the engine's own order (bench/retrieval/rounds.md, "A learned order of the pages, round 39").
 *
 *   node --import tsx bench/retrieval/rank-rows.ts --rows=rows.json [--sets=vet,waste] [--settings='{"pageWeight":0.5}']
 *
 * A page's figures, of its best-scoring passage unless said: `rank` (its place among the
 * candidates' pages), `score` (over the best passage's), `telling`, `strength`, `coverage`,
 * `head` (the passage's figures, `SearchHit`), `maxTelling`, `maxCoverage`, `maxHead` (the best
 * of its passages'), `tellingRel` (its best telling share over the best of any page's),
 * `words` (the question's terms the passage matched), `pageWords` (those its passages matched),
 * `hits` (its candidate passages), `sum` and `second` (its passages' scores summed, its second
 * passage's score, over the best passage's), `depth` (the passage's headings) and `length` (ln of
 * 1 + the passage's characters). It never reads the sealed sets.
 */
import { writeFileSync } from 'node:fs';
import { Retriever, type SearchHit } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { expectedPages, pageOf, placeSplit } from './evaluate.js';
import { eachSetIndex, scriptArgs } from './tuning-script.js';

const CANDIDATE_PAGES = 20;
const args = scriptArgs();
const out = process.argv.find((a) => a.startsWith('--rows='))?.slice('--rows='.length);
if (!out) throw new Error('rank-rows.ts: give --rows=FILE, the JSON file the rows are written to');

const rows: unknown[] = [];
await eachSetIndex('rank-rows', args.only, (set, index, kbSettings) => {
  const retriever = new Retriever(index, args.settings);
  const splitOf = placeSplit(set);
  set.questions.forEach((q, place) => {
    const want = expectedPages(q, kbSettings);
    const decision = retriever.decide(q.question);
    const hits = retriever.search(q.question);
    const shown = [...new Set(decision.hits.map((h) => pageOf(h.passage.url)))];
    const byPage = new Map<string, SearchHit[]>();
    for (const hit of hits) {
      const page = pageOf(hit.passage.url);
      (byPage.get(page) ?? byPage.set(page, []).get(page)!).push(hit);
    }
    const top = hits[0]?.score || 1;
    const mostTelling = Math.max(0, ...hits.map((h) => h.telling));
    const pages = [...byPage].slice(0, CANDIDATE_PAGES).map(([page, passages], rank) => {
      const best = passages[0]!;
      const maxTelling = Math.max(...passages.map((h) => h.telling));
      return {
        page,
        right: want.has(page) ? 1 : 0,
        engineRank: shown.indexOf(page),
        rank,
        score: best.score / top,
        telling: best.telling,
        maxTelling,
        tellingRel: mostTelling > 0 ? maxTelling / mostTelling : 0,
        strength: best.strength,
        coverage: best.coverage,
        maxCoverage: Math.max(...passages.map((h) => h.coverage)),
        head: best.headTelling,
        maxHead: Math.max(...passages.map((h) => h.headTelling)),
        words: best.matchedTerms.length,
        pageWords: new Set(passages.flatMap((h) => h.matchedTerms)).size,
        hits: passages.length,
        sum: passages.reduce((sum, h) => sum + h.score, 0) / top,
        second: (passages[1]?.score ?? 0) / top,
        depth: best.passage.headings.length,
        length: Math.log(1 + best.passage.markdown.length),
      };
    });
    rows.push({ set: set.id, split: splitOf(q, place), question: q.question, outcome: decision.outcome, engineFirst: shown[0] ?? null, engineShown: shown, pages });
  });
});
writeFileSync(out, JSON.stringify(rows));
process.stdout.write(`${rows.length} questions written to ${out}\n`);
