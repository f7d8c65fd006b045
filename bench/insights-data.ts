/**
 * Recorded questions as a docs site would collect them, generated deterministically: the
 * sample knowledge base's questions (answered, citing their page) in a few wordings, the
 * paraphrase groups of the grouping test as questions the docs do not answer, and a long tail
 * of questions asked once. Zipf-distributed, over a number of days with quieter weekends.
 * Used by the insights benchmark (a million rows) and the README's screenshot (a few thousand).
 */
import { readFileSync } from 'node:fs';
import { questionKey } from '../packages/bot-answer-proxy/src/insights/question-key.js';
import type { FeedbackRow, InsightsBatch, QuestionRow } from '../packages/bot-answer-proxy/src/insights/types.js';
import { prng } from './lib/prng.js';

const DAY_MS = 86_400_000;
const read = <T>(path: string): T => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as T;

interface Topic {
  wordings: string[];
  url?: string;
  answered: boolean;
}

function topics(): Topic[] {
  const answered = read<Array<{ question: string; expectUrl: string }>>('../test/upstream/sample-questions.json').map(({ question, expectUrl }) => ({
    wordings: [question, question.toLowerCase().replace(/\?$/, ''), `${question.replace(/\?$/, '')} please?`],
    url: expectUrl,
    answered: true,
  }));
  const gaps = read<{ groups: string[][] }>('../test/insights/paraphrase-groups.json').groups.map((wordings) => ({ wordings, answered: false }));
  // Interleaved, so the most asked topics mix answered questions and gaps.
  const mixed: Topic[] = [];
  for (let i = 0; i < Math.max(answered.length, gaps.length); i++) {
    if (answered[i]) mixed.push(answered[i]!);
    if (gaps[i]) mixed.push(gaps[i]!);
  }
  return mixed;
}

const VERBS = ['configure', 'install', 'migrate', 'debug', 'export', 'rename', 'archive', 'share', 'schedule', 'restore', 'embed', 'translate'];
const NOUNS = ['workspace', 'invoice', 'webhook', 'dashboard', 'report', 'token', 'team', 'calendar', 'template', 'project', 'backup', 'widget'];
const COMMENTS = ['The answer was about something else.', 'Out of date: the menu moved.', 'Too long, I needed one line.', 'Wrong page linked.', 'Did not say where to click.'];
const OUTCOMES: Array<[string, number]> = [
  ['stopped', 0.02],
  ['upstream_timeout', 0.005],
  ['upstream_error', 0.005],
];

/** Settings of {@link sampleBatches}. */
export interface SampleOptions {
  /** Questions to generate. */
  rows: number;
  /** Spread over this many days before `now`. */
  days: number;
  now: number;
  seed?: number;
  bots?: string[];
  /** Share of questions asked once (the long tail). Default 0.2. */
  unique?: number;
  /** Rows per batch. Default 1000. */
  batch?: number;
}

/** The generated rows, in batches (questions in time order within each batch). */
export function* sampleBatches(options: SampleOptions): Generator<InsightsBatch> {
  const random = prng(options.seed ?? 1);
  const all = topics();
  const weights: number[] = [];
  let sum = 0;
  for (let k = 0; k < all.length; k++) weights.push((sum += 1 / (k + 1)));
  const pick = () => {
    const x = random() * sum;
    let lo = 0;
    let hi = all.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (weights[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return all[lo]!;
  };
  const bots = options.bots ?? ['docs', 'handbook'];
  const unique = options.unique ?? 0.2;
  const size = options.batch ?? 1000;
  const firstDay = Math.floor(options.now / DAY_MS) - options.days + 1;
  let questions: QuestionRow[] = [];
  let feedback: FeedbackRow[] = [];
  for (let i = 0; i < options.rows; i++) {
    let day = firstDay + Math.floor(random() * options.days);
    // Weekends are quieter: most weekend draws are drawn again.
    const weekend = (d: number) => (d + 4) % 7 === 0 || (d + 4) % 7 === 6;
    if (weekend(day) && random() < 0.6) day = firstDay + Math.floor(random() * options.days);
    const time = Math.min(options.now - 1, day * DAY_MS + Math.floor(random() * DAY_MS));
    let question: string;
    let url: string | undefined;
    let answered: boolean;
    if (random() < unique) {
      question = `How do I ${VERBS[Math.floor(random() * VERBS.length)]} the ${NOUNS[Math.floor(random() * NOUNS.length)]} for account ${100_000 + Math.floor(random() * 900_000)}?`;
      answered = random() < 0.5;
      url = answered ? 'https://docs.example.com/guides/accounts' : undefined;
    } else {
      const topic = pick();
      question = topic.wordings[Math.floor(random() * topic.wordings.length)]!;
      url = topic.url;
      answered = topic.answered;
    }
    let outcome = answered ? 'answered' : 'refused';
    const roll = random();
    let edge = 0;
    for (const [name, share] of OUTCOMES) if (roll >= edge && roll < (edge += share)) outcome = name;
    const found = outcome === 'answered';
    const requestId = crypto.randomUUID();
    const bot = bots[Math.floor(random() * random() * bots.length)]!;
    questions.push({
      request_id: requestId,
      time,
      bot_id: bot,
      question,
      question_key: questionKey(question),
      answer_found: found,
      outcome,
      cache: random() < 0.3 ? 'hit' : 'miss',
      sources: found && url ? [url] : [],
      duration_ms: 40 + Math.floor(random() * 900),
    });
    if (outcome === 'answered' || outcome === 'refused') {
      const rated = random();
      if (rated < 0.04) {
        const up = found && random() < 0.75;
        feedback.push({ request_id: requestId, time: time + 20_000, bot_id: bot, rating: up ? 'up' : 'down', comment: !up && random() < 0.5 ? COMMENTS[Math.floor(random() * COMMENTS.length)]! : null });
      }
    }
    if (questions.length === size) {
      yield { questions, feedback };
      questions = [];
      feedback = [];
    }
  }
  if (questions.length > 0) yield { questions, feedback };
}
