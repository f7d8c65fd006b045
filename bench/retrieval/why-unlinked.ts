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
 * With `--orders`, the "not sure" answers instead: how often the engine's pages hold the right
 * page (and first), against orderings of the candidates' pages (best passage's score; x the
 * most telling share of the page's passages; that share; the page's scores summed; reciprocal
 * rank fusions of them, k 5 or 60), taken alone, after the engine's first page, with as many
 * pages as the engine shows, or filling its free places: the ceiling of a related-pages rule.
 *
 * With `--linked`, the "not sure" answers instead: whether the first page's candidate passages
 * link (inline or reference links, resolved against its path, matched to a page by the last two
 * parts of its path) to another candidate page, to the right one, and what giving the best such
 * page (by score x telling share, under each bar tried) a free place or the last place would do to
 * the links.
 *
 *   node --import tsx bench/retrieval/why-unlinked.ts [--sets=vet,waste] [--settings='{"relatedStandout":2}'] [--confident | --orders | --linked]
 *
 * Tune halves only (split by place for the all-`eval` sets, as `tune.ts --by-place`); it never
 * reads the sealed sets.
 */
import { Retriever, type SearchHit } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { DEFAULT_RETRIEVAL } from '../../packages/bot-answer-engine/src/upstream/retrieval/settings.js';
import { expectedPages, offTopicSplit, pageOf, placeSplit } from './evaluate.js';
import { eachSetIndex, scriptArgs } from './tuning-script.js';

const args = scriptArgs();
const { only, settings } = args;
const confident = args.has('confident');
// With `--orders`: for the answers not confident, how often each ordering of the candidates' pages puts the right page in its first 3 (and first).
const orders = args.has('orders');
// With `--linked`: for the "not sure" answers, whether the first page's candidate passages link to the right page, and what giving such a page a place would do.
const linked = args.has('linked');
const linkTally = new Map<string, number>();
const bump = (name: string): void => void linkTally.set(name, (linkTally.get(name) ?? 0) + 1);
const tally = new Map<string, [number, number]>();
let pool = 0;
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
    if (linked) {
      if (decision.outcome !== 'not_sure') return;
      bump('not-sure answers');
      const first = decision.hits[0]!;
      const firstPage = pageOf(first.passage.url);
      const all = retriever.search(q.question);
      const targets = new Set<string>();
      for (const hit of all) if (pageOf(hit.passage.url) === firstPage) for (const target of linkTargetsOf(hit)) targets.add(target);
      const shown = decision.hits.map((h) => pageOf(h.passage.url));
      const best = new Map<string, { score: number; telling: number }>();
      for (const hit of all) {
        const page = pageOf(hit.passage.url);
        const b = best.get(page);
        if (!b) best.set(page, { score: hit.score, telling: hit.telling });
        else b.telling = Math.max(b.telling, hit.telling);
      }
      const linkedPages = [...best].filter(([page]) => page !== firstPage && targets.has(pageKey(page)));
      const rightShown = shown.some((page) => want.has(page));
      if (linkedPages.length) bump('first page links to a candidate page');
      if (linkedPages.some(([page]) => want.has(page))) bump('... to the right page');
      if (!rightShown && linkedPages.some(([page]) => want.has(page))) {
        bump('... to the right page, not shown');
        process.stdout.write(`${set.id} LINKED ${q.question}\n      first ${short(firstPage)}; right linked; shown ${shown.map(short).join(', ')}\n`);
      }
      const firstTelling = best.get(firstPage)!.telling;
      const rules: Record<string, (b: { score: number; telling: number }) => boolean> = {
        any: () => true,
        'telling >= 0.2': (b) => b.telling >= 0.2,
        "telling >= first's": (b) => b.telling >= firstTelling,
        "telling > first's": (b) => b.telling > firstTelling,
      };
      for (const [name, ok] of Object.entries(rules)) {
        const pick = linkedPages.filter(([page, b]) => ok(b) && !shown.includes(page)).sort((a, b) => b[1].score * b[1].telling - a[1].score * a[1].telling)[0];
        if (!pick) continue;
        const free = shown.length < 3;
        const after = free ? [...shown, pick[0]] : [...shown.slice(0, 2), pick[0]];
        const was = shown.some((page) => want.has(page));
        const now = after.some((page) => want.has(page));
        bump(`${name}: moved${free ? ' (a free place)' : ''}`);
        if (now && !was) bump(`${name}: +1 link${free ? ' (a free place)' : ''}`);
        if (was && !now) bump(`${name}: -1 link`);
      }
      return;
    }
    if (orders) {
      if (decision.outcome !== 'not_sure') return;
      pool++;
      const shownNow = tally.get('the engine') ?? tally.set('the engine', [0, 0]).get('the engine')!;
      if (decision.hits.some((h) => want.has(pageOf(h.passage.url)))) shownNow[0]++;
      if (decision.hits[0] && want.has(pageOf(decision.hits[0].passage.url))) shownNow[1]++;
      const all = retriever.search(q.question);
      const byPage = new Map<string, SearchHit[]>();
      for (const hit of all) (byPage.get(pageOf(hit.passage.url)) ?? byPage.set(pageOf(hit.passage.url), []).get(pageOf(hit.passage.url))!).push(hit);
      const pages = [...byPage].map(([page, hits]) => ({
        page,
        score: hits[0]!.score,
        telling: Math.max(...hits.map((h) => h.telling)),
        sum: hits.reduce((sum, h) => sum + h.score, 0),
        terms: new Set(hits.flatMap((h) => h.matchedTerms)).size,
      }));
      const rankBy = (key: (p: (typeof pages)[number]) => number): Map<string, number> =>
        new Map([...pages].sort((a, b) => key(b) - key(a) || b.score - a.score).map((p, i) => [p.page, i + 1]));
      const rs = rankBy((p) => p.score);
      const rt = rankBy((p) => p.telling);
      const rsum = rankBy((p) => p.sum);
      const rterms = rankBy((p) => p.terms);
      const rboth = rankBy((p) => p.score * p.telling);
      const ways: Record<string, (p: (typeof pages)[number]) => number> = {
        score: (p) => p.score,
        'score x telling': (p) => p.score * p.telling,
        telling: (p) => p.telling + p.score * 1e-9,
        'page sum': (p) => p.sum,
        'rrf score+telling k5': (p) => 1 / (5 + rs.get(p.page)!) + 1 / (5 + rt.get(p.page)!),
        'rrf score+telling k60': (p) => 1 / (60 + rs.get(p.page)!) + 1 / (60 + rt.get(p.page)!),
        'rrf score+sum k5': (p) => 1 / (5 + rs.get(p.page)!) + 1 / (5 + rsum.get(p.page)!),
        'rrf score+telling+sum k5': (p) => 1 / (5 + rs.get(p.page)!) + 1 / (5 + rt.get(p.page)!) + 1 / (5 + rsum.get(p.page)!),
        'rrf score+terms k5': (p) => 1 / (5 + rs.get(p.page)!) + 1 / (5 + rterms.get(p.page)!),
        'rrf score x telling+telling k5': (p) => 1 / (5 + rboth.get(p.page)!) + 1 / (5 + rt.get(p.page)!),
      };
      const engineFirst = decision.hits[0] ? pageOf(decision.hits[0].passage.url) : undefined;
      const engineShown = [...new Set(decision.hits.map((h) => pageOf(h.passage.url)))];
      for (const [name, key] of Object.entries(ways)) {
        const sorted = [...pages].sort((a, b) => key(b) - key(a) || b.score - a.score).map((p) => p.page);
        const top = sorted.slice(0, 3);
        const after = [engineFirst, ...sorted.filter((page) => page !== engineFirst)].slice(0, 3);
        const t2 = tally.get(`engine's first, then ${name}`) ?? tally.set(`engine's first, then ${name}`, [0, 0]).get(`engine's first, then ${name}`)!;
        if (after.some((page) => page && want.has(page))) t2[0]++;
        if (after[0] && want.has(after[0])) t2[1]++;
        const same = [engineFirst, ...sorted.filter((page) => page !== engineFirst)].slice(0, engineShown.length);
        const t4 = tally.get(`engine's first, then ${name}, as many pages`) ?? tally.set(`engine's first, then ${name}, as many pages`, [0, 0]).get(`engine's first, then ${name}, as many pages`)!;
        if (same.some((page) => page && want.has(page))) t4[0]++;
        // The engine's pages, and its free places filled in this order.
        const filled = [...engineShown, ...sorted.filter((page) => !engineShown.includes(page))].slice(0, 3);
        const t3 = tally.get(`engine's pages, free places by ${name}`) ?? tally.set(`engine's pages, free places by ${name}`, [0, 0]).get(`engine's pages, free places by ${name}`)!;
        if (filled.some((page) => want.has(page))) t3[0]++;
        if (filled[0] && want.has(filled[0])) t3[1]++;
        const t = tally.get(name) ?? tally.set(name, [0, 0]).get(name)!;
        if (top.some((page) => want.has(page))) t[0]++;
        if (top[0] && want.has(top[0])) t[1]++;
      }
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
    if (confident || orders || linked || offTopicSplit(place) !== 'tune') return;
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
if (linked) for (const [name, n] of linkTally) process.stdout.write(`${name.padEnd(50)} ${n}\n`);
if (orders) {
  process.stdout.write(`not-sure answers: ${pool}\n`);
  for (const [name, [three, one]] of tally) process.stdout.write(`${name.padEnd(60)} right page in the first 3 ${three}, first ${one}\n`);
}

/** A page's address or path reduced to its last two parts, without an extension, ordering numbers, an index file or a fragment: how a link and a page are matched. */
function pageKey(target: string): string {
  const path = target.replace(/[#?].*$/, '').replace(/\/$/, '').replace(/\.(mdx?|html?)$/i, '').toLowerCase();
  const parts = path.split('/').filter(Boolean).map((part) => part.replace(/^\d+[-_.]/, ''));
  while (parts.length && /^(index|readme)$/.test(parts[parts.length - 1]!)) parts.pop();
  return parts.slice(-2).join('/');
}

/** The keys of the pages a passage links to (inline and reference links; not images), resolved against its document's path. */
function linkTargetsOf(hit: SearchHit): string[] {
  const out: string[] = [];
  const document = hit.passage.document;
  const raw = [...hit.passage.markdown.matchAll(/(?<!!)\[[^\]]*\]\(\s*<?([^)\s>]+)/g)].map((m) => m[1]!);
  for (const def of document.links?.values() ?? []) raw.push(String((def as { href?: string }).href ?? ''));
  for (const target of raw) {
    if (!target || target.startsWith('#') || /^mailto:/i.test(target)) continue;
    let path = target;
    if (!/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('/')) {
      try {
        path = new URL(target, new URL(document.path, 'http://folder.invalid/')).pathname;
      } catch {
        continue;
      }
    } else if (/^https?:/i.test(target)) path = new URL(target).pathname;
    out.push(pageKey(decodeURIComponent(path)));
  }
  return out;
}
