/**
 * What a conversation does to the questions the docs do not answer: each set's tune-half
 * unanswerable questions asked as follow-ups after each of its first three tune-half answerable
 * questions answered confidently (asked as the bench asks a follow-up: that question and its
 * answer as the history, made into the context by the server's `retrievalContext`), counted when
 * answered confidently, beside the same questions asked alone and the tune follow-ups' figure
 * (an expected page in the first three sources, answered or not). A follow-up the docs do not
 * answer, asked after a confident answer, should be as unsure as the question asked alone.
 *
 *   node --import tsx bench/retrieval/why-followed.ts [--sets=mastra,sails] [--list [--missed]] [--gate] [--settings='{"contextWeight":0.5}'] [--variants='[{...},{...}]']
 *
 * `--settings` and each of `--variants` add a variant of their own beside the defaults; `--gate`
 * adds the gate alone (`followUpTrust` off, as before round 15). `--list` prints each
 * unanswerable follow-up answered confidently under some variant (with the variants that answer
 * it and the page they answer from, "alone too" when the question asked alone is answered
 * confidently as well); with `--missed`, also each follow-up the defaults do not count (`~`: linked
 * among the first three but not answered, `-`: not linked). Tune halves only (split by place for the
 * all-`eval` sets, as `tune.ts --by-place`); it never reads the sealed sets.
 *
 * `switch` counts the other side of the unanswerable pairs: each tune question answered
 * confidently from its right page asked alone, asked again after each of the same first three
 * answers (a visitor changing the subject), and how many of those are still answered from the
 * right page. An unanswerable follow-up after an unrelated answer is a subject change too: a rule
 * that makes the one unsure may make the other unsure as well, and the bench's figures do not
 * count it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import type { RetrievalSettings } from '../../packages/bot-answer-engine/src/upstream/retrieval/settings.js';
import { startEngine } from './engines.js';
import { answeredFrom, askedAfter, countSwitched, expectedPages, firstConfident, FOLLOWED_FIRSTS, followUpContext, offTopicSplit, pageOf, placeSplit } from './evaluate.js';
import { fetchHeldOut, heldOutSets } from './held-out.js';
import { questionSets, type QuestionSet } from './sets.js';
import { scriptArgs } from './tuning-script.js';

const args = scriptArgs();
const list = args.has('list');
const missed = args.has('missed');

const extra = JSON.parse(args.get('variants') ?? '[]') as Array<Partial<RetrievalSettings>>;
const variants: Array<{ name: string; settings: Partial<RetrievalSettings> }> = [
  { name: 'defaults', settings: {} },
  ...(args.has('gate') ? [{ name: 'gate only', settings: { followUpTrust: false } }] : []),
  ...[...(Object.keys(args.settings).length ? [args.settings] : []), ...extra].map((settings) => ({ name: JSON.stringify(settings), settings })),
];

/** One variant's figures over a set's tune half. */
interface Figures {
  /** Unanswerable follow-ups answered confidently, of those asked. */
  unanswerable: number;
  asked: number;
  /** The same questions asked alone (no history), as many times: answered confidently. */
  alone: number;
  /** Tune follow-ups with an expected page in the first three sources, of those asked. */
  followUps: number;
  /** ... of them answered confidently (the bench's `followup.top3`). */
  followUpsConfident: number;
  followUpsOf: number;
  /** Each follow-up: `first -> question`, with its outcome (`+` answered with an expected page in the first three, `~` not answered but linked, `-` neither). */
  followed: Map<string, string>;
  /** Each confident unanswerable follow-up: `first -> question`, with the page it was answered from. */
  answered: Map<string, string>;
  /** Tune questions answered from their right page alone, asked after each first but themselves; of them, answered so again. */
  switched: number;
  switchedRight: number;
}

/** A set's follow-ups' halves as `tune.ts --by-place` reads them. */
function followUpSplits(set: QuestionSet): Array<'tune' | 'eval'> {
  const allEval = set.questions.every((q) => q.split === 'eval') && set.followUps.every((f) => f.split === 'eval');
  return set.followUps.map((f, place) => (allEval ? offTopicSplit(place) : (f.split ?? 'tune')));
}

const totals = variants.map(() => ({ unanswerable: 0, asked: 0, alone: 0, followUps: 0, followUpsConfident: 0, followUpsOf: 0, switched: 0, switchedRight: 0 }));
const folder = await mkdtemp(join(tmpdir(), 'why-followed-'));
try {
  await fetchHeldOut();
  for (const set of [...questionSets(), ...heldOutSets()]) {
    if (args.only && !args.only.includes(set.id)) continue;
    const kbSettings = resolveSettings(set.dir, set.settings);
    const split = placeSplit(set);
    const tuneQuestions = set.questions.filter((q, place) => split(q, place) === 'tune');
    const offTopic = set.offTopic.filter((_, place) => offTopicSplit(place) === 'tune');
    const followSplits = followUpSplits(set);
    const followUps = set.followUps.filter((_, place) => followSplits[place] === 'tune');
    const perVariant: Figures[] = [];
    for (const variant of variants) {
      const engine = await startEngine('current', set, join(folder, set.id), variant.settings);
      try {
        const firsts = firstConfident(engine, tuneQuestions.map((q) => q.question), FOLLOWED_FIRSTS);
        const figures: Figures = { unanswerable: 0, asked: 0, alone: 0, followUps: 0, followUpsConfident: 0, followUpsOf: followUps.length, followed: new Map(), answered: new Map(), switched: 0, switchedRight: 0 };
        const alone = new Set(offTopic.filter((question) => engine.answer(question).answer_found));
        figures.alone = alone.size * firsts.length;
        for (const first of firsts) {
          const context = followUpContext(engine, first);
          for (const question of offTopic) {
            const answer = engine.answer(question, context);
            figures.asked++;
            if (!answer.answer_found) continue;
            figures.unanswerable++;
            figures.answered.set(`${first} -> ${question}`, pageOf(answer.sources[0]?.url ?? '').replace(/^https?:\/\/[^/]+\//, '') + (alone.has(question) ? ', alone too' : ''));
          }
        }
        const rightAlone = tuneQuestions
          .map((q) => ({ question: q.question, split: 'tune' as const, want: expectedPages(q, kbSettings) }))
          .filter((q) => answeredFrom(engine.answer(q.question), q.want));
        const switched = countSwitched(askedAfter(engine, firsts, rightAlone));
        figures.switched = switched.asked;
        figures.switchedRight = switched.right;
        for (const f of followUps) {
          const answer = engine.answer(f.question, followUpContext(engine, f.first));
          const want = expectedPages(f, kbSettings);
          const linked = answer.sources.slice(0, 3).some((s) => want.has(pageOf(s.url ?? '')));
          figures.followed.set(`${f.first} -> ${f.question}`, linked ? (answer.answer_found ? '+' : '~') : '-');
          if (!linked) continue;
          figures.followUps++;
          if (answer.answer_found) figures.followUpsConfident++;
        }
        perVariant.push(figures);
      } finally {
        engine.close();
      }
    }
    perVariant.forEach((f, i) => {
      const t = totals[i]!;
      t.unanswerable += f.unanswerable;
      t.asked += f.asked;
      t.alone += f.alone;
      t.followUps += f.followUps;
      t.followUpsConfident += f.followUpsConfident;
      t.followUpsOf += f.followUpsOf;
      t.switched += f.switched;
      t.switchedRight += f.switchedRight;
    });
    const cells = perVariant.map((f, i) => `${i}: ${f.unanswerable}/${f.asked} (alone ${f.alone}) follow ${f.followUpsConfident}/${f.followUps}/${f.followUpsOf} switch ${f.switchedRight}/${f.switched}`);
    process.stdout.write(`${set.id.padEnd(18)} ${cells.join('  |  ')}\n`);
    if (list) {
      const keys = new Set(perVariant.flatMap((f) => [...f.answered.keys()]));
      for (const key of keys) {
        const by = perVariant.map((f, i) => (f.answered.has(key) ? `${i} (${f.answered.get(key)})` : '')).filter(Boolean);
        process.stdout.write(`    ${key}\n      answered by: ${by.join(', ')}\n`);
      }
      for (const key of perVariant[0]!.followed.keys()) {
        const outcomes = perVariant.map((f) => f.followed.get(key)).join('');
        if (new Set(outcomes).size > 1 || (missed && outcomes[0] !== '+')) process.stdout.write(`    follow-up ${outcomes}  ${key}\n`);
      }
    }
  }
  for (const [i, t] of totals.entries()) {
    process.stdout.write(`all tune  ${i} ${variants[i]!.name}  unanswerable follow-ups confident ${t.unanswerable}/${t.asked} (asked alone ${t.alone})  follow-ups in the top 3 ${t.followUps}/${t.followUpsOf}, answered ${t.followUpsConfident}  subject changes answered right ${t.switchedRight}/${t.switched}\n`);
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}
