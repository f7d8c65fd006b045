import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AnswerResponse } from '../../packages/bot-answer/src/protocol/types.js';
import { NO_ANSWER_TEXT, type RunningAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { ask, FIXTURES, startFixtureApi } from './helpers.js';

const CITATION = /\[\[(\d+)\]\]\((https?:\/\/[^)\s]+)\)/g;

describe('JSON answers (stream: false)', () => {
  let api: RunningAnswerApi;
  before(async () => {
    api = await startFixtureApi({ botsFile: join(FIXTURES, 'bots.json') });
  });
  after(() => api.close());

  async function answer(body: Record<string, unknown>): Promise<AnswerResponse> {
    const response = await ask(api, { bot_id: 'demo', ...body });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    return (await response.json()) as AnswerResponse;
  }

  it('answers a covered question with every Source field and inline citations', async () => {
    const result = await answer({ message: 'How do I book a flight?' });
    assert.equal(result.answer_found, true);
    assert.deepEqual(result.sources[0], {
      title: 'Travel and expense policy',
      url: 'https://wiki.example.com/finance/travel',
      app_name: 'Confluence',
      author: { name: 'Dana Reyes', email: 'dana@example.com', photo: 'https://avatars.example.com/dana.png' },
      modified_time: 1730243482,
      snippet: result.sources[0]!.snippet,
    });
    assert.match(result.sources[0]!.snippet!, /^Book every flight through the travel portal/);
    assert.ok(result.answer.includes('[[1]](https://wiki.example.com/finance/travel)'));
    // The list is quoted as Markdown, item by item.
    assert.ok(result.answer.includes('- Economy class for flights under 6 hours.\n- Premium economy for longer flights.'));
  });

  it('numbers sources in the order they are cited, each document once', async () => {
    const result = await answer({ message: 'How do I roll back a release or book a flight?' });
    assert.equal(result.answer_found, true);
    assert.deepEqual(result.sources.map((s) => s.title), ['Deploying the billing service', 'Travel and expense policy']);
    const cited = [...result.answer.matchAll(CITATION)].map((m) => [Number(m[1]), m[2]] as const);
    assert.deepEqual(cited.map(([n]) => n), [1, 2]);
    const firstSeen: string[] = [];
    for (const [, url] of cited) if (!firstSeen.includes(url)) firstSeen.push(url);
    assert.deepEqual(result.sources.map((s) => s.url), firstSeen);
    for (const [n, url] of cited) assert.equal(result.sources[n - 1]!.url, url);
  });

  it('keeps tables and code blocks intact', async () => {
    const table = await answer({ message: 'What is the hotel allowance per night in Paris?' });
    assert.ok(table.answer.includes('| City | Hotel per night | Meals per day |\n|------|-----------------|---------------|\n| Berlin | €180 | €45 |'));
    const code = await answer({ message: 'How do I roll back the billing service?' });
    assert.ok(code.answer.includes('```sh\n./scripts/rollback.sh --service billing --to previous\n```'));
  });

  it('puts no citations in the text when inline_sources is false, and still lists the sources', async () => {
    const withCitations = await answer({ message: 'How do I roll back the billing service?' });
    const without = await answer({ message: 'How do I roll back the billing service?', inline_sources: false });
    assert.doesNotMatch(without.answer, /\[\[\d+\]\]/);
    assert.equal(without.answer_found, true);
    assert.deepEqual(without.sources, withCitations.sources);
    assert.equal(without.answer, withCitations.answer.replace(CITATION, '').replace(/ +\n/g, '\n'));
  });

  /** Both wordings are answered, from the same sources. */
  async function answeredAlike(plain: string, written: string): Promise<void> {
    const [asked, other] = [await answer({ message: plain }), await answer({ message: written })];
    assert.equal(asked.answer_found, true);
    assert.equal(other.answer_found, true);
    assert.deepEqual(other.sources, asked.sources);
  }

  it("answers a question written with contractions as without them (\"I've\", \"doesn't\")", async () => {
    // "ve" is in no page and no English word list: counted as a word, it was the question's most telling one, never matched.
    await answeredAlike('I have never done it: how do I book a flight?', "I've never done it: how do I book a flight?");
  });

  it('answers a question typed with its contractions unmarked ("ive", "dont") as with them', async () => {
    // "ive" and "dont" are in no page and no English word list: counted as words, they were the question's most telling, never matched.
    await answeredAlike("I've never done it and I don't know: how do I book a flight?", 'ive never done it and i dont know: how do I book a flight?');
  });

  it('says it found nothing for questions the knowledge base does not cover', async () => {
    for (const message of ['How many moons does Jupiter have?', 'blorf zizzle quantum frobnicate', 'What is the capital of Mongolia?', '???']) {
      assert.deepEqual(await answer({ message }), { answer: NO_ANSWER_TEXT, answer_found: false, sources: [] }, message);
    }
  });

  it('is deterministic for a given knowledge base and message', async () => {
    const first = await answer({ message: 'What is the guest wifi password?' });
    for (let i = 0; i < 3; i++) assert.deepEqual(await answer({ message: 'What is the guest wifi password?' }), first);
    assert.ok(first.answer.includes('“Crème‑Guest”'));
  });

  it('answers from the bot named in bot_id (bots file) and not from the others', async () => {
    const onboarding = await answer({ bot_id: 'onboarding', message: 'What should I do in my first week?' });
    assert.equal(onboarding.answer_found, true);
    assert.equal(onboarding.sources[0]!.url, 'https://tracker.example.com/browse/ONB-1');
    const demo = await answer({ message: 'What should I do in my first week of onboarding? laptop encryption' });
    assert.ok(demo.sources.every((s) => s.url !== 'https://tracker.example.com/browse/ONB-1'));
  });

  it('accepts the spec defaults explicitly and ignores unknown fields', async () => {
    const plain = await answer({ message: 'How do I deploy to staging?' });
    assert.deepEqual(await answer({ message: 'How do I deploy to staging?', inline_sources: true, stream: false, extra: 1 }), plain);
  });
});
