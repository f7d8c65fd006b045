import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AnswerResponse } from '../../packages/bot-answer/src/protocol/types.js';
import { loadKnowledgeBase } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { sampleKnowledgeBaseDir } from '../../packages/bot-answer-engine/src/upstream/package-root.js';
import { NO_ANSWER_TEXT, NOT_SURE_TEXT, startAnswerApi, type RunningAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { ask, FIXTURES, KEY, readEvents } from './helpers.js';
import { reassemble } from './reassemble.js';

interface SampleQuestion {
  question: string;
  expectUrl: string;
}

const SAMPLE_QUESTIONS = JSON.parse(readFileSync(join(FIXTURES, '..', 'sample-questions.json'), 'utf8')) as SampleQuestion[];

// Questions the sample knowledge base does not cover, some sharing a word or two with it.
const OFF_TOPIC = JSON.parse(readFileSync(join(FIXTURES, '..', 'sample-off-topic.json'), 'utf8')) as string[];

describe('the sample knowledge base (bot demo by default)', () => {
  let api: RunningAnswerApi;
  before(async () => {
    // No `kb`: the default must find the sample knowledge base from the package root.
    api = await startAnswerApi({ keys: [KEY] });
  });
  after(() => api.close());

  async function answer(message: string): Promise<AnswerResponse> {
    const response = await ask(api, { message, bot_id: 'demo' });
    assert.equal(response.status, 200);
    return (await response.json()) as AnswerResponse;
  }

  it('holds 20 or more documents, each with every Source field', async () => {
    const kb = await loadKnowledgeBase(sampleKnowledgeBaseDir());
    assert.ok(kb.documents.length >= 20, `${kb.documents.length} documents`);
    for (const { path, source } of kb.documents) {
      assert.ok(source.title && source.url && source.app_name, path);
      assert.ok(source.author?.name && source.author.email && source.author.photo, path);
      assert.ok(Number.isInteger(source.modified_time) && source.modified_time! > 1e9 && source.modified_time! < 1e11, path);
    }
    assert.ok(new Set(kb.documents.map((d) => d.source.app_name)).size >= 5, 'documents come from several apps');
  });

  it('has sample questions to check against', () => {
    assert.ok(SAMPLE_QUESTIONS.length >= 5);
  });

  for (const { question, expectUrl } of SAMPLE_QUESTIONS) {
    it(`answers "${question}" from the expected document, cited first`, async () => {
      const result = await answer(question);
      assert.equal(result.answer_found, true);
      assert.equal(result.sources[0]?.url, expectUrl);
      assert.ok(result.answer.includes(`[[1]](${expectUrl.replace(/[ ()]/g, encodeURIComponent)})`));
    });
  }

  for (const message of OFF_TOPIC) {
    it(`has no answer for "${message}": refused, or "not sure" with at most 3 related pages`, async () => {
      const result = await answer(message);
      assert.equal(result.answer_found, false);
      if (result.sources.length === 0) assert.equal(result.answer, NO_ANSWER_TEXT);
      else {
        assert.equal(result.answer, NOT_SURE_TEXT);
        assert.ok(result.sources.length <= 3);
        assert.equal(new Set(result.sources.map((s) => (s.url ?? '').replace(/#.*$/, ''))).size, result.sources.length, 'one source per page');
      }
    });
  }

  it('is not sure of a question the docs do not answer asked as a follow-up of few own words', async () => {
    // The conversation's words find the page; the follow-up's own words ("meaning", "life";
    // "dress code", "Lisbon") are few and everyday, which the follow-ups' model alone does not
    // read as unsure at a lower bar (`followUpConfidence`).
    const cases: Array<[string, string]> = [
      ['What are the API rate limits for each plan?', 'What is the meaning of life?'],
      ['How much can I spend on hotels and meals when I travel for work?', 'What is the dress code at the Lisbon office?'],
      ['How do I verify a webhook signature?', 'What is the dress code at the Lisbon office?'],
      // The issue's own example: the office guide's passage matches "bring" and "office" but none
      // of the conversation's words, so the follow-up's waiver of an everyday word no page holds
      // ("dog") is not its to use (`followUpCarried`): it is judged as asked alone.
      ['How much can I spend on hotels and meals when I travel for work?', 'Can I bring my dog to the office?'],
      ['How do I verify a webhook signature?', 'Can I bring my dog to the office?'],
    ];
    for (const [question, message] of cases) {
      const first = await answer(question);
      assert.equal(first.answer_found, true, question);
      const history = [
        { role: 'user', content: question },
        { role: 'assistant', content: first.answer },
      ];
      const response = await ask(api, { message, bot_id: 'demo', history });
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as AnswerResponse).answer_found, false, `${question} -> ${message}`);
    }
  });

  it('refuses a question about something the docs never name, rare in English ("FIFA")', async () => {
    assert.deepEqual(await answer('Who won the 2018 FIFA World Cup?'), { answer: NO_ANSWER_TEXT, answer_found: false, sources: [] });
  });

  it('is not sure of a meeting room in an office the docs never name, common in English ("Paris", "Berlin"), and answers Lisbon\'s', async () => {
    // The docs have one office guide, Lisbon's: its rooms table matches every other word of these questions.
    for (const message of ['Can I book a meeting room in the Paris office?', 'Can I reserve a meeting room at the Berlin office?']) {
      const result = await answer(message);
      assert.equal(result.answer_found, false, message);
      assert.equal(result.answer, NOT_SURE_TEXT, message);
    }
    const lisbon = await answer('Can I book a meeting room in the Lisbon office?');
    assert.equal(lisbon.answer_found, true);
    assert.ok((lisbon.sources[0]?.title ?? '').includes('Lisbon office guide'), lisbon.sources[0]?.title);
  });

  it('is not sure, and shows the closest pages, when the docs share the words but not the fact', async () => {
    const result = await answer('Can I bring my dog to the office?');
    assert.equal(result.answer_found, false);
    assert.equal(result.answer, NOT_SURE_TEXT);
    assert.ok(result.sources.some((s) => (s.title ?? '').includes('Lisbon office guide')));
    assert.doesNotMatch(result.answer, /https?:/, 'no links in the text');
  });

  it('streams the three outcomes as it answers them in JSON: the text, then the sources, answer_found at the end', async () => {
    for (const message of ['How do I verify a webhook signature?', 'Can I bring my dog to the office?', 'Who won the 2018 FIFA World Cup?']) {
      const json = await answer(message);
      const response = await ask(api, { message, bot_id: 'demo', stream: true });
      const streamed = reassemble('named', (await readEvents(response)).events);
      assert.equal(streamed.text, json.answer, message);
      assert.equal(streamed.answerFound, json.answer_found, message);
      assert.deepEqual(streamed.sources, json.sources, message);
      assert.equal(streamed.ended, true);
    }
  });
});
