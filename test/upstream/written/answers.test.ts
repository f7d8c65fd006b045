import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AnswerResponse } from '../../../packages/bot-answer/src/protocol/types.js';
import { NO_ANSWER_SENTINEL, SYSTEM_PROMPT } from '../../../packages/bot-answer-engine/src/upstream/compose/written/prompt.js';
import { NO_ANSWER_TEXT, NOT_SURE_TEXT, STREAM_DIALECTS, type StreamDialect } from '../../../packages/bot-answer-engine/src/upstream/index.js';
import { ask, readEvents } from '../helpers.js';
import { reassemble } from '../reassemble.js';
import { awkward, frames, httpError, stream, type FakeModel } from './fake-model.js';
import { MODEL_KEY, startWritten, until, type WrittenSetup } from './helpers.js';

const QUESTION = 'How do I roll back a release or book a flight?';
/** A question retrieval is "not sure" of in the fixture docs: its words are not the rollback section's. */
const UNSURE = 'How do I undo a bad release quickly';
const DEPLOY = 'https://git.example.com/platform/billing/blob/main/docs/deploy.md';
const TRAVEL = 'https://wiki.example.com/finance/travel';
const SSE_DIALECTS = STREAM_DIALECTS.filter((d): d is Exclude<StreamDialect, 'json'> => d !== 'json');

/** The model's answer, in tokens as a tokenizer would cut it: citations and a character split across tokens. */
const TOKENS = ['Roll', ' back with', ' `./scripts/rollback.sh` [', '1', ']. Book', ' flights in the portal ', '[2', '][1', '] — 14 days ahead é', '.'];

describe('written answers', { timeout: 30_000 }, () => {
  let setup: WrittenSetup;
  let model: FakeModel;
  before(async () => {
    setup = await startWritten();
    model = setup.model;
  });
  after(() => setup.close());

  const streamed = async (body: Record<string, unknown>, dialect: Exclude<StreamDialect, 'json'> = 'named') => {
    const response = await ask(setup.api, { bot_id: 'demo', stream: true, ...body });
    assert.equal(response.status, 200);
    return reassemble(dialect, (await readEvents(response)).events);
  };

  it("streams the model's tokens with checked citations, read from frames cut at awkward bytes", async () => {
    model.answer({ steps: awkward(frames(TOKENS)) });
    const result = await streamed({ message: QUESTION });
    assert.equal(result.text, `Roll back with \`./scripts/rollback.sh\` [[1]](${DEPLOY}). Book flights in the portal [[2]](${TRAVEL})[[1]](${DEPLOY}) — 14 days ahead é.`);
    assert.equal(result.answerFound, true);
    assert.equal(result.ended, true);
    assert.deepEqual(
      result.sources?.map((s) => [s.url, s.title]),
      [
        [DEPLOY, 'Deploying the billing service'],
        [TRAVEL, 'Travel and expense policy'],
      ],
    );
    // Pieces go out as the model writes them, not as one block at the end.
    assert.ok(result.pieces.length >= 5, `${result.pieces.length} pieces`);
  });

  it('asks the model as the Chat Completions API documents it: streamed, usage included, key as a bearer token', async () => {
    model.answer(stream(['Fine [1].']));
    const before = model.requests.length;
    await streamed({ message: QUESTION });
    const request = model.requests[before]!;
    assert.equal(request.headers.authorization, `Bearer ${MODEL_KEY}`);
    assert.equal(request.body.model, 'test-model');
    assert.equal(request.body.stream, true);
    assert.deepEqual(request.body.stream_options, { include_usage: true });
    assert.equal('temperature' in request.body, false, 'no temperature unless set');
    const [system, user] = request.body.messages;
    assert.deepEqual(system, { role: 'system', content: SYSTEM_PROMPT });
    assert.equal(user!.role, 'user');
    assert.match(user!.content, /^Documentation passages:\n\n\[1\] Deploying the billing service › Rolling back a release\n/);
    assert.match(user!.content, /\n\n\[2\] Travel and expense policy › Booking flights\n/);
    assert.match(user!.content, /\n\nQuestion: How do I roll back a release or book a flight\?$/);
    assert.doesNotMatch(user!.content, /https?:\/\//, 'no URL is shown to the model');
  });

  it('puts the token usage in the access log line', async () => {
    model.answer(stream(['Fine [1].'], { usage: { prompt_tokens: 640, completion_tokens: 7 } }));
    await streamed({ message: QUESTION });
    await until(() => setup.logs.some((line) => line.includes('tokens 640+7')));
    assert.match(setup.logs.find((line) => line.includes('tokens 640+7'))!, /^POST \/v1\/answer 200 \d+ms written \(tokens 640\+7\)$/);
  });

  it("reads Ollama's variant (the role in every delta), and a stream without the usage chunk", async () => {
    model.answer(stream(['Use the ', 'portal [2].'], { ollama: true, usage: false }));
    const result = await streamed({ message: QUESTION });
    assert.equal(result.text, `Use the portal [[1]](${TRAVEL}).`);
    assert.deepEqual(result.sources?.map((s) => s.url), [TRAVEL]);
  });

  for (const dialect of SSE_DIALECTS) {
    it(`streams a written answer in the ${dialect} dialect`, async () => {
      const api = await startWritten({ dialect }, model);
      try {
        model.answer(stream(['Roll back [1].']));
        const response = await ask(api.api, { message: QUESTION, bot_id: 'demo', stream: true });
        const result = reassemble(dialect, (await readEvents(response)).events);
        assert.equal(result.text, `Roll back [[1]](${DEPLOY}).`);
        assert.deepEqual(result.sources?.map((s) => s.url), [DEPLOY]);
        assert.equal(result.ended, true);
      } finally {
        await api.api.close();
      }
    });
  }

  it('answers JSON requests with the whole written answer', async () => {
    model.answer(stream(TOKENS));
    const response = await ask(setup.api, { message: QUESTION, bot_id: 'demo' });
    const answer = (await response.json()) as AnswerResponse;
    assert.equal(answer.answer_found, true);
    assert.match(answer.answer, /^Roll back with .*\[\[1\]\]\(https:\/\/git\.example\.com/);
    assert.deepEqual(answer.sources.map((s) => s.url), [DEPLOY, TRAVEL]);
  });

  it('never asks the model an off-topic question: answer_found false, the standard text', async () => {
    const before = model.requests.length;
    const result = await streamed({ message: 'How many moons does Jupiter have?' });
    assert.equal(result.text, NO_ANSWER_TEXT);
    assert.equal(result.answerFound, false);
    assert.deepEqual(result.sources, []);
    assert.equal(model.requests.length, before, 'no model call');
  });

  it('is "not sure" when the model says the passages do not answer: answer_found false, their pages as related pages', async () => {
    for (const tokens of [[NO_ANSWER_SENTINEL], ['NO', '_ANS', 'WER'], ['\n**', 'NO_ANSWER', '**'], ['NO_ANSWER', ' The passages do not say.']]) {
      model.answer(stream(tokens));
      const result = await streamed({ message: QUESTION });
      assert.equal(result.text, NOT_SURE_TEXT, JSON.stringify(tokens));
      assert.equal(result.answerFound, false);
      assert.deepEqual(result.sources?.map((s) => s.url), [DEPLOY, TRAVEL]);
      model.answer(stream(tokens));
      const json = (await (await ask(setup.api, { message: QUESTION, bot_id: 'demo' })).json()) as AnswerResponse;
      assert.equal(json.answer, NOT_SURE_TEXT);
      assert.equal(json.answer_found, false);
      assert.deepEqual(json.sources.map((s) => s.url), [DEPLOY, TRAVEL]);
    }
    // A real answer that merely starts like the word is an answer.
    model.answer(stream(['No', ', you cannot [1].']));
    const result = await streamed({ message: QUESTION });
    assert.equal(result.text, `No, you cannot [[1]](${DEPLOY}).`);
    assert.equal(result.answerFound, true);
  });

  it('answers a question retrieval is not sure of from its related pages, without the model, by default', async () => {
    const before = model.requests.length;
    const result = await streamed({ message: UNSURE });
    assert.equal(result.text, NOT_SURE_TEXT);
    assert.equal(result.answerFound, false);
    assert.deepEqual(result.sources?.map((s) => s.url), [DEPLOY]);
    assert.equal(model.requests.length, before, 'no model call');
  });

  it('with llmAskWhenNotSure, asks the model that question with the closest pages: its answer, or "not sure" as before', async () => {
    const unsure = await startWritten({ llmAskWhenNotSure: true }, model);
    try {
      const ask_ = async (body: Record<string, unknown>) => reassemble('named', (await readEvents(await ask(unsure.api, { bot_id: 'demo', stream: true, ...body }))).events);
      model.answer(stream(['Run ', '`./scripts/rollback.sh` [1].']));
      const before = model.requests.length;
      const written = await ask_({ message: UNSURE });
      assert.equal(written.text, `Run \`./scripts/rollback.sh\` [[1]](${DEPLOY}).`);
      assert.equal(written.answerFound, true);
      assert.deepEqual(written.sources?.map((s) => s.url), [DEPLOY]);
      assert.equal(model.requests.length, before + 1);
      const user = model.requests[before]!.body.messages.at(-1)!.content;
      assert.match(user, /^Documentation passages:\n\n\[1\] Deploying the billing service › Rolling back a release\n/, 'the related page first');
      assert.match(user, /\n\nQuestion: How do I undo a bad release quickly$/);
      await until(() => unsure.logs.some((line) => /^POST \/v1\/answer 200 \d+ms written/.test(line)));

      // The model says the passages do not answer, or fails: the visitor gets the "not sure" answer, never a quote.
      for (const script of [stream([NO_ANSWER_SENTINEL]), httpError(500)]) {
        model.answer(script);
        const result = await ask_({ message: UNSURE });
        assert.equal(result.text, NOT_SURE_TEXT);
        assert.equal(result.answerFound, false);
        assert.deepEqual(result.sources?.map((s) => s.url), [DEPLOY]);
        model.answer(script);
        const json = (await (await ask(unsure.api, { message: UNSURE, bot_id: 'demo' })).json()) as AnswerResponse;
        assert.deepEqual([json.answer, json.answer_found, json.sources.map((s) => s.url)], [NOT_SURE_TEXT, false, [DEPLOY]]);
      }

      // An off-topic question still never reaches it.
      const asked = model.requests.length;
      const refused = await ask_({ message: 'How many moons does Jupiter have?' });
      assert.deepEqual([refused.text, refused.answerFound, refused.sources], [NO_ANSWER_TEXT, false, []]);
      assert.equal(model.requests.length, asked, 'no model call');
    } finally {
      await unsure.api.close();
    }
  });

  it('removes the marks with inline_sources false, and still lists the sources cited', async () => {
    model.answer(stream(TOKENS));
    const result = await streamed({ message: QUESTION, inline_sources: false });
    assert.equal(result.text, 'Roll back with `./scripts/rollback.sh`. Book flights in the portal — 14 days ahead é.');
    assert.deepEqual(result.sources?.map((s) => s.url), [DEPLOY, TRAVEL]);
  });

  it('drops invented citations and unlinks foreign links', async () => {
    model.answer(stream(['See [the wiki](https://evil.example/x) [7]', ' or https://evil.example/y [', '2].']));
    const result = await streamed({ message: QUESTION });
    assert.equal(result.text, `See the wiki or \`https://evil.example/y\` [[1]](${TRAVEL}).`);
    assert.deepEqual(result.sources?.map((s) => s.url), [TRAVEL]);
  });

  it('lists the passages given when the model cites none', async () => {
    model.answer(stream(['Use the rollback script and the travel portal.']));
    const result = await streamed({ message: QUESTION });
    assert.equal(result.text, 'Use the rollback script and the travel portal.');
    assert.deepEqual(result.sources?.map((s) => s.url), [DEPLOY, TRAVEL]);
  });

  it('hides reasoning a model streams beside its answer', async () => {
    const reasoning = frames(['Hidden.'])
      .slice(0, 2)
      .map((f) => f.replace('"content":"Hidden."', '"reasoning_content":"Let me think."'));
    model.answer({ steps: [...reasoning, ...frames(['Shown [1].'])] });
    const result = await streamed({ message: QUESTION });
    assert.equal(result.text, `Shown [[1]](${DEPLOY}).`);
  });

  it('sends the conversation so far to the model, oldest first, before the question', async () => {
    model.answer(stream(['Yes [1].']));
    const before = model.requests.length;
    const history = [
      { role: 'user', content: 'How do I roll back a release?' },
      { role: 'assistant', content: `Run the rollback script [[1]](${DEPLOY}).` },
    ];
    await streamed({ message: 'And how do I book a flight?', history });
    const messages = model.requests[before]!.body.messages;
    assert.deepEqual(
      messages.slice(1, 3),
      [
        { role: 'user', content: 'How do I roll back a release?' },
        { role: 'assistant', content: 'Run the rollback script.' },
      ],
      'the earlier answer without its citation links',
    );
    assert.equal(messages[3]!.role, 'user');
    assert.match(messages[3]!.content, /Question: And how do I book a flight\?$/);
  });
});
