/**
 * The sets' questions asked through the local Answer API over HTTP, as a visitor's are, with the
 * model of the environment writing answers (`ANSWER_LLM_BASE_URL`, `ANSWER_LLM_MODEL`,
 * `ANSWER_LLM_API_KEY` and the other `ANSWER_LLM_*` settings, as `npm run upstream` reads them),
 * scored as `evaluate.ts` scores the engine's: confident, right page first, wrong page, the right
 * page among the links, unanswerable questions answered. A written answer's sources are the
 * passages it cites. It judges what this machine cannot: what a model makes of the passages, and
 * whether asking it about the questions retrieval is not sure of (`--ask-when-not-sure`, the
 * setting `ANSWER_LLM_ASK_WHEN_NOT_SURE`) gains more right answers than confident wrong ones.
 *
 *   ANSWER_LLM_BASE_URL=... ANSWER_LLM_MODEL=... node --import tsx bench/retrieval/with-model.ts [--sets=a,b] [--ask-when-not-sure] [--concurrency=4] [--eval]
 *
 * Without a model in the environment it asks the extractive engine over HTTP: its figures are then
 * `tune.ts --by-place`'s for the same sets (a check of this script). Tune halves (split by place
 * for the all-`eval` sets, as `tune.ts --by-place`), and the eval halves too with `--eval`; it
 * never reads the sealed sets. Model calls are the local Answer API's: its log lines are dropped.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnswerResponse } from '../../packages/bot-answer/src/protocol/types.js';
import { knowledgeBaseOptions } from '../../packages/bot-answer-engine/src/upstream/cli-options.js';
import { resolveSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { startAnswerApi, type RunningAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { mapPool } from '../../test/adversarial/support/pool.js';
import { expectedPages, offTopicSplit, pageOf, placeSplit } from './evaluate.js';
import { fetchHeldOut, heldOutSets } from './held-out.js';
import { questionSets } from './sets.js';
import { scriptArgs } from './tuning-script.js';

const args = scriptArgs();
const concurrency = Math.max(1, Number(args.get('concurrency') ?? 4));
const halves: ('tune' | 'eval')[] = args.has('eval') ? ['tune', 'eval'] : ['tune'];
const llm = knowledgeBaseOptions(Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('ANSWER_LLM_'))));
if (args.has('ask-when-not-sure')) llm.llmAskWhenNotSure = true;

interface Tally {
  answerable: number;
  confident: number;
  right: number;
  wrong: number;
  links: number;
  first: number;
  unanswerable: number;
  unanswerableConfident: number;
  failed: number;
}
const tallyOf = (): Tally => ({ answerable: 0, confident: 0, right: 0, wrong: 0, links: 0, first: 0, unanswerable: 0, unanswerableConfident: 0, failed: 0 });
const totals = tallyOf();

async function ask(api: RunningAnswerApi, message: string): Promise<AnswerResponse | undefined> {
  const response = await fetch(`${api.url}/v1/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${api.keys[0]}` },
    body: JSON.stringify({ message, bot_id: 'demo', stream: false }),
  });
  return response.ok ? ((await response.json()) as AnswerResponse) : undefined;
}

const line = (t: Tally): string =>
  `confident ${t.confident}/${t.answerable}  right ${t.right}  wrong ${t.wrong}  links ${t.links}  first ${t.first}  unanswerable confident ${t.unanswerableConfident}/${t.unanswerable}${t.failed ? `  failed ${t.failed}` : ''}`;

const folder = await mkdtemp(join(tmpdir(), 'with-model-'));
try {
  await fetchHeldOut();
  process.stdout.write(`answers: ${llm.llmModel ? `written by ${llm.llmModel}${llm.llmAskWhenNotSure ? ', not-sure questions asked too' : ''}` : 'quoted from the docs (no model in the environment)'}; halves: ${halves.join(', ')}\n`);
  for (const set of [...questionSets(), ...heldOutSets()]) {
    if (args.only && !args.only.includes(set.id)) continue;
    const { baseUrl, urlExtension, appName, anchors } = set.settings;
    const api = await startAnswerApi({ ...llm, kb: set.dir, kbBaseUrl: baseUrl, kbUrlExtension: urlExtension, kbAppName: appName, kbAnchors: anchors, kbIndex: join(folder, set.id), watch: false, paceMs: 0 });
    const tally = tallyOf();
    try {
      const settings = resolveSettings(set.dir, set.settings);
      const split = placeSplit(set);
      const answerable = set.questions.filter((q, place) => halves.includes(split(q, place)));
      await mapPool(answerable, concurrency, async (q) => {
        const answer = await ask(api, q.question);
        tally.answerable++;
        if (!answer) return void tally.failed++;
        const want = expectedPages(q, settings);
        const links = answer.sources.map((s) => pageOf(s.url ?? ''));
        const rightFirst = want.has(links[0] ?? '');
        if (links.some((page) => want.has(page))) tally.links++;
        if (rightFirst) tally.first++;
        if (!answer.answer_found) return;
        tally.confident++;
        if (rightFirst) tally.right++;
        else tally.wrong++;
      });
      const unanswerable = set.offTopic.filter((_, place) => halves.includes(offTopicSplit(place)));
      await mapPool(unanswerable, concurrency, async (question) => {
        const answer = await ask(api, question);
        tally.unanswerable++;
        if (!answer) tally.failed++;
        else if (answer.answer_found) tally.unanswerableConfident++;
      });
    } finally {
      await api.close();
    }
    for (const key of Object.keys(totals) as (keyof Tally)[]) totals[key] += tally[key];
    process.stdout.write(`${set.id.padEnd(28)} ${line(tally)}\n`);
  }
  process.stdout.write(`${'all'.padEnd(28)} ${line(totals)}\n`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
