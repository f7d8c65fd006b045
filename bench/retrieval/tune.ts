/**
 * The tuning loop: the current engine over the evaluation sets, in this process, with retrieval
 * settings given on the command line, printing the figures of the **tune half** only (and its
 * misses with `--misses`), so an idea can be measured without looking at the eval half.
 *
 *   node --import tsx bench/retrieval/tune.ts [--sets=undici,pino] [--settings='{"prefix":false}'] [--misses] [--eval]
 *
 * It never reads the sealed sets. With `--by-place`, a set whose answerable questions are all
 * `eval` (held out or sealed once, tune sets now) is split by place, even places tune, odd eval,
 * as unanswerable questions are, and so are its follow-ups: so it has a tune half to tune on.
 *
 * `--eval` adds the eval half's figures (never its misses): for the final report and for the
 * table of what each idea gained or cost, once an idea has been decided on the tune half.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from '../lib/stats.js';
import { startEngine } from './engines.js';
import { countFollowed, evaluate, splitByPlace, summarise, type FollowUpOutcome, type QuestionOutcome, type SetOutcome } from './evaluate.js';
import { fetchHeldOut, heldOutSets } from './held-out.js';
import { questionSets } from './sets.js';
import { scriptArgs } from './tuning-script.js';

const args = scriptArgs();
const { only, settings } = args;
const withEval = args.has('eval');
const misses = args.has('misses');
const byPlace = args.has('by-place');
// A hash of every answer's pages and text, both halves: tells a change that should alter nothing (a speed-up) from one that does, without showing the eval half.
const fingerprint = createHash('sha256');
// The same of the questions alone (answerable and unanswerable), not the follow-ups: a follow-up change should leave it be.
const questionsFingerprint = createHash('sha256');

/** One line of figures for one half of a set. */
function line(outcome: SetOutcome, split: 'tune' | 'eval'): string {
  const questions = outcome.questions.filter((q) => q.split === split);
  const s = summarise(questions);
  const follow = outcome.followUps.filter((f) => f.split === split);
  const off = outcome.offTopic.filter((o) => o.split === split);
  return [
    `top1 ${s.top1}/${s.questions}`,
    `top3 ${s.top3}`,
    `confident ${s.confident}`,
    `wrong ${s.wrongPage}`,
    `links ${s.linkAny}/${s.linkFirst}/${s.linkTop3}`,
    `key ${s.keyRight}/${s.keyRightOf} (first ${s.keyFirst})`,
    `unanswerable confident ${off.filter((o) => !o.refused).length}/${off.length}`,
    `noisy ${s.noisy}`,
    `stops on a question ${s.questionStops}`,
    `follow ${follow.filter((f) => f.withContext).length}/${follow.length} (linked ${follow.filter((f) => f.linked).length})`,
    `followed unanswerable ${followedLine(outcome, split)}`,
    `median ${Math.round(s.medianLength)}`,
    `p50 ${s.p50.toFixed(1)} ms`,
    `p95 ${s.p95.toFixed(1)} ms`,
  ].join('  ');
}

/** Unanswerable questions asked as follow-ups (`offTopicFollowed`) of one half: confident/asked, and those refused. */
function followedLine(outcome: SetOutcome, split: 'tune' | 'eval'): string {
  const { confident, refused, asked } = countFollowed(outcome.offTopicFollowed.filter((o) => o.split === split));
  return `${confident}/${asked} (refused ${refused})`;
}

function describe(q: QuestionOutcome): string {
  const what = !q.answered ? q.outcome.replace('_', ' ') : !q.top3 ? 'not in top 3' : !q.top1 ? 'not first' : 'key term missing';
  return `    ${what}: ${q.question} -> ${q.pages.map((p) => p.replace(/^https?:\/\/[^/]+\//, '')).join(', ')}`;
}

const shortPage = (page: string): string => page.replace(/^https?:\/\/[^/]+\//, '');

function describeFollowUp(f: FollowUpOutcome): string {
  return `    follow-up missed: ${f.question} -> ${f.pages.map(shortPage).join(', ')} (wants ${f.expected.map(shortPage).join(' or ')})\n      after: ${f.first} -> ${f.firstPages.map(shortPage).join(', ')}`;
}

/** One half's figures summed over every set, and its confident answers' lengths (for their median). */
interface Totals {
  top1: number;
  confident: number;
  wrong: number;
  links: number;
  first: number;
  key: number;
  keyOf: number;
  /** Of `key`, the answers whose first quote holds the key term. */
  keyFirst: number;
  /** Confident answers whose quote stops on a question. */
  questionStops: number;
  offTopic: number;
  offTopicRelated: number;
  offTopicOf: number;
  follow: number;
  followOf: number;
  /** Follow-ups with a right page among the first three links of any outcome. */
  followLinked: number;
  followed: number;
  /** Unanswerable follow-ups refused (no page shown). */
  followedRefused: number;
  followedOf: number;
  lengths: number[];
}
const totalsOf = (): Totals => ({ top1: 0, confident: 0, wrong: 0, links: 0, first: 0, key: 0, keyOf: 0, keyFirst: 0, questionStops: 0, offTopic: 0, offTopicRelated: 0, offTopicOf: 0, follow: 0, followOf: 0, followLinked: 0, followed: 0, followedRefused: 0, followedOf: 0, lengths: [] });
const totals = { tune: totalsOf(), eval: totalsOf() };

/** Adds one set's half to the totals. */
function addUp(outcome: SetOutcome, split: 'tune' | 'eval'): void {
  const sum = totals[split];
  const questions = outcome.questions.filter((q) => q.split === split);
  const s = summarise(questions);
  const off = outcome.offTopic.filter((o) => o.split === split);
  sum.top1 += s.top1;
  sum.confident += s.confident;
  sum.wrong += s.wrongPage;
  sum.links += s.linkAny;
  sum.first += s.linkFirst;
  sum.key += s.keyRight;
  sum.keyOf += s.keyRightOf;
  sum.keyFirst += s.keyFirst;
  sum.questionStops += s.questionStops;
  sum.lengths.push(...questions.filter((q) => q.answered).map((q) => q.length));
  sum.offTopic += off.filter((o) => !o.refused).length;
  sum.offTopicRelated += off.filter((o) => o.outcome === 'not_sure').length;
  sum.offTopicOf += off.length;
  const follow = outcome.followUps.filter((f) => f.split === split);
  sum.follow += follow.filter((f) => f.withContext).length;
  sum.followLinked += follow.filter((f) => f.linked).length;
  sum.followOf += follow.length;
  const followed = countFollowed(outcome.offTopicFollowed.filter((o) => o.split === split));
  sum.followed += followed.confident;
  sum.followedRefused += followed.refused;
  sum.followedOf += followed.asked;
}

/** The totals line of one half. */
function totalLine(split: 'tune' | 'eval'): string {
  const t = totals[split];
  return `all ${split}   top1 ${t.top1}  confident ${t.confident}  wrong ${t.wrong}  links ${t.links}  first ${t.first}  key ${t.key}/${t.keyOf} (first ${t.keyFirst})  median ${Math.round(median(t.lengths))}  stops on a question ${t.questionStops}  unanswerable confident ${t.offTopic}/${t.offTopicOf} (not sure ${t.offTopicRelated})  follow-ups ${t.follow}/${t.followOf} (linked ${t.followLinked})  unanswerable follow-ups confident ${t.followed}/${t.followedOf} (refused ${t.followedRefused})`;
}

const folder = await mkdtemp(join(tmpdir(), 'tune-retrieval-'));
try {
  await fetchHeldOut();
  for (const set of [...questionSets(), ...heldOutSets()]) {
    if (only && !only.includes(set.id)) continue;
    const engine = await startEngine('current', set, join(folder, set.id), settings);
    // One warm-up pass, so the timings are of a warm engine.
    evaluate(engine, set);
    const cpu = process.cpuUsage();
    const outcome = evaluate(engine, set);
    const used = process.cpuUsage(cpu);
    if (byPlace) splitByPlace(outcome);
    // Each unanswerable follow-up's conversation asks its first question again, for its answer.
    const followed = outcome.offTopicFollowed.reduce((n, o) => n + o.asked, 0) + (outcome.offTopicFollowed[0]?.asked ?? 0);
    const asked = outcome.questions.length + outcome.offTopic.length + outcome.followUps.length * 4 + followed;
    const cpuPerAnswer = (used.user + used.system) / 1000 / asked;
    engine.close();
    const answers = [outcome.questions.map((q) => [q.pages, q.length, q.answered]), outcome.offTopic];
    fingerprint.update(JSON.stringify([...answers, outcome.followUps.map(({ question, split, withContext, withAnswer, alone }) => ({ question, split, withContext, withAnswer, alone }))]));
    questionsFingerprint.update(JSON.stringify(answers));
    const hasSplit = outcome.questions.some((q) => q.split === 'eval') || outcome.offTopic.some((o) => o.split === 'eval');
    process.stdout.write(`${set.id.padEnd(12)} tune  ${line(outcome, 'tune')}  CPU ${cpuPerAnswer.toFixed(2)} ms/answer\n`);
    if (withEval && hasSplit) process.stdout.write(`${''.padEnd(12)} eval  ${line(outcome, 'eval')}\n`);
    addUp(outcome, 'tune');
    if (withEval) addUp(outcome, 'eval');
    if (misses) {
      for (const q of outcome.questions) if (q.split === 'tune' && (!q.top1 || q.keyTerm === false)) process.stdout.write(`${describe(q)}\n`);
      for (const o of outcome.offTopic) if (o.split === 'tune' && o.outcome !== 'refused') process.stdout.write(`    off-topic ${o.refused ? 'not sure' : 'answered'}: ${o.question}\n`);
      for (const f of outcome.followUps) if (f.split === 'tune' && !f.withContext) process.stdout.write(`${describeFollowUp(f)}\n`);
    }
  }
  if (withEval) process.stdout.write(`${totalLine('eval')}\n`);
  process.stdout.write(`${totalLine('tune')}  fingerprint ${fingerprint.digest('hex').slice(0, 12)} (questions ${questionsFingerprint.digest('hex').slice(0, 12)})\n`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
