import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { AnswerResponse } from '../../../packages/bot-answer/src/protocol/types.js';
import { ask, readEvents, startFixtureApi } from '../helpers.js';
import { reassemble } from '../reassemble.js';
import { frames, httpError, startFakeModel, stream, type FakeModel, type Script } from './fake-model.js';
import { MODEL_KEY, startWritten, until, type WrittenSetup } from './helpers.js';

const QUESTION = 'How do I roll back a release or book a flight?';

/** The extractive answer to `QUESTION`, from a local Answer API without a model. */
async function docsAnswer(inlineSources = true): Promise<AnswerResponse> {
  const api = await startFixtureApi();
  try {
    return (await (await ask(api, { message: QUESTION, bot_id: 'demo', inline_sources: inlineSources })).json()) as AnswerResponse;
  } finally {
    await api.close();
  }
}

/** A port nothing listens on: taken, then freed. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('written answers: the docs answer when the model does not', { timeout: 60_000 }, () => {
  let expected: AnswerResponse;
  let setup: WrittenSetup;
  let model: FakeModel;
  /** For the cases that wait the model's timeout out: a short one. */
  let impatient: WrittenSetup;
  before(async () => {
    expected = await docsAnswer();
    // A timeout far beyond a loaded machine's loopback: each case on this server fails for its own
    // reason, never by the clock (a slow first frame read as "no first token" failed it under load).
    setup = await startWritten({ llmTimeoutMs: 10_000, heartbeatMs: 100 });
    model = setup.model;
    impatient = await startWritten({ llmTimeoutMs: 400, heartbeatMs: 100 });
  });
  after(async () => {
    await setup.close();
    await impatient.close();
  });

  /** Asks (streamed and JSON) with the model scripted to fail; both must be the docs answer, with one log line naming `reason`. */
  async function fallsBack(script: Script, reason: RegExp, setupToUse = setup, modes = [true, false]): Promise<void> {
    for (const stream of modes) {
      setupToUse.model.answer(script);
      setupToUse.logs.length = 0;
      const response = await ask(setupToUse.api, { message: QUESTION, bot_id: 'demo', stream });
      assert.equal(response.status, 200);
      if (stream) {
        const result = reassemble('named', (await readEvents(response)).events);
        assert.equal(result.text, expected.answer, 'the docs answer, streamed');
        assert.deepEqual(result.sources, expected.sources);
        assert.equal(result.ended, true);
      } else {
        assert.deepEqual(await response.json(), expected, 'the docs answer, JSON');
      }
      await until(() => setupToUse.logs.some((line) => line.startsWith('POST /v1/answer')));
      const reasons = setupToUse.logs.filter((line) => line.startsWith('model test-model:'));
      assert.equal(reasons.length, 1, `one line naming the reason: ${JSON.stringify(setupToUse.logs)}`);
      assert.match(reasons[0]!, reason);
      assert.match(reasons[0]!, /; answered from the docs/);
      for (const line of setupToUse.logs) assert.ok(!line.includes(MODEL_KEY), `key in a log line: ${line}`);
    }
  }

  it('connection refused', async () => {
    const port = await closedPort();
    const refused = await startWritten({ llmBaseUrl: `http://127.0.0.1:${port}/v1` });
    try {
      await fallsBack(stream(['unused']), /^model test-model: connection refused; answered from the docs$/, refused);
    } finally {
      await refused.close();
    }
  });

  it('HTTP 401, the error body quoting the key', async () => {
    const body = { error: { message: `Incorrect API key provided: ${MODEL_KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } };
    await fallsBack(httpError(401, body), /^model test-model: HTTP 401 \(invalid_api_key\); answered from the docs$/);
  });

  it('HTTP 500 and 503', async () => {
    await fallsBack(httpError(500), /HTTP 500 \(server_error\)/);
    await fallsBack(httpError(503, undefined, {}), /HTTP 503/);
  });

  it('HTTP 429 with Retry-After: the docs answer, and the model is left alone until then', async () => {
    const limited = await startWritten({ llmTimeoutMs: 400 });
    try {
      limited.model.answer(httpError(429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after': '30' }));
      const response = await ask(limited.api, { message: QUESTION, bot_id: 'demo' });
      assert.deepEqual(await response.json(), expected);
      await until(() => limited.logs.some((line) => line.startsWith('model test-model:')));
      assert.deepEqual(
        limited.logs.filter((line) => line.startsWith('model test-model:')),
        ['model test-model: HTTP 429 (rate_limit_exceeded) (retry after 30 s); not asked again for 30 s; answered from the docs'],
      );
      const asked = limited.model.requests.length;
      const again = await ask(limited.api, { message: QUESTION, bot_id: 'demo' });
      assert.deepEqual(await again.json(), expected);
      assert.equal(limited.model.requests.length, asked, 'not asked during the wait');
      await until(() => limited.logs.some((line) => /rate-limited, not asked for another \d+ s; answered from the docs/.test(line)));
    } finally {
      await limited.close();
    }
  });

  it('malformed stream data before the first token', async () => {
    const [role, ...rest] = frames(['Never shown.']);
    await fallsBack({ steps: [role!, 'data: {"choices":[{"delta":{"content":"Nev\n\n', ...rest] }, /^model test-model: stream data that is not JSON; answered from the docs$/);
  });

  it('an error the server reports inside its stream before the first token', async () => {
    await fallsBack({ steps: ['data: {"error":{"message":"overloaded","type":"server_error","code":"overloaded"}}\n\n'] }, /an error in the stream \(overloaded\)/);
  });

  it('no first token within the timeout (role-only deltas do not count)', async () => {
    const [role] = frames([]);
    await fallsBack({ steps: [role!, { hang: true }] }, /^model test-model: no first token within 400 ms; answered from the docs$/, impatient);
  });

  it('a model that writes nothing', async () => {
    await fallsBack(stream([]), /the model wrote no answer/);
  });

  it('a connection dropped mid-answer ends the stream with an error event, without the half-written citation', async () => {
    const [role, one, two] = frames(['Roll back [1] first', ' and then [2']);
    model.answer({ steps: [role!, one!, two!, { destroy: true }] });
    setup.logs.length = 0;
    const response = await ask(setup.api, { message: QUESTION, bot_id: 'demo', stream: true });
    const { events } = await readEvents(response);
    const texts = events.filter((e) => e.event === 'delta').map((e) => JSON.parse(e.data).text as string);
    assert.equal(texts.join(''), 'Roll back [[1]](https://git.example.com/platform/billing/blob/main/docs/deploy.md) first and then');
    const last = events.at(-1)!;
    assert.equal(last.event, 'error');
    assert.deepEqual(JSON.parse(last.data), { detail: 'The answer could not be completed.' });
    assert.equal(events.filter((e) => e.event === 'done' || e.event === 'sources').length, 0);
    await until(() => setup.logs.some((line) => line.startsWith('model test-model:')));
    assert.match(setup.logs.find((line) => line.startsWith('model test-model:'))!, /^model test-model: the connection broke mid-answer after \d+ characters; the answer ended with an error event$/);
  });

  it('a stream that ends without its end, or stalls after its first token, ends with an error event too', async () => {
    for (const steps of [frames(['Roll back [1].'], { usage: false, noDone: true }).slice(0, 2), [...frames(['Roll back [1].']).slice(0, 2), { hang: true as const }]]) {
      impatient.model.answer({ steps });
      const { events } = await readEvents(await ask(impatient.api, { message: QUESTION, bot_id: 'demo', stream: true }));
      assert.equal(events.at(-1)!.event, 'error');
      assert.equal(events.filter((e) => e.event === 'delta').map((e) => JSON.parse(e.data).text).join(''), 'Roll back [[1]](https://git.example.com/platform/billing/blob/main/docs/deploy.md).');
    }
  });

  it('a JSON answer whose model breaks off mid-answer is the docs answer (nothing was sent yet)', async () => {
    await fallsBack({ steps: [...frames(['Roll back [1] first']).slice(0, 2), { destroy: true }] }, /the connection broke mid-answer after \d+ characters/, setup, [false]);
  });

  it('a client that goes away aborts the model request', async () => {
    const [role, one] = frames(['Roll back [1] first']);
    model.answer({ steps: [role!, one!, { hang: true }] });
    const asked = model.requests.length;
    const controller = new AbortController();
    const response = await ask(setup.api, { message: QUESTION, bot_id: 'demo', stream: true }, {}, { signal: controller.signal });
    const reader = response.body!.getReader();
    let seen = '';
    while (!seen.includes('event: delta')) seen += new TextDecoder().decode((await reader.read()).value);
    const leftAt = performance.now();
    controller.abort();
    // The model hangs for good: only the client's leaving can end its request.
    const record = await model.waitForAbort(asked);
    assert.ok(record.abortedAt! >= leftAt, 'the model request was aborted after the client left');
  });

  it('a client that goes away while the model has not answered yet aborts it too', async () => {
    model.answer({ steps: [{ hang: true }] });
    const asked = model.requests.length;
    const controller = new AbortController();
    const pending = ask(setup.api, { message: QUESTION, bot_id: 'demo' }, {}, { signal: controller.signal });
    await until(() => model.requests.length > asked);
    const leftAt = performance.now();
    controller.abort();
    await assert.rejects(pending);
    const record = await model.waitForAbort(asked);
    assert.ok(record.abortedAt! >= leftAt, 'the model request was aborted after the client left');
  });

  it('never puts the model key in a response or a log line', async () => {
    const body = { error: { message: `Incorrect API key provided: ${MODEL_KEY}`, code: 'invalid_api_key' } };
    for (const script of [httpError(401, body), { steps: [`data: {"error":{"message":"bad key ${MODEL_KEY}","code":"invalid_api_key"}}\n\n`] }, { steps: [...frames(['a [1] b']).slice(0, 2), { destroy: true as const }] }]) {
      for (const stream of [true, false]) {
        model.answer(script);
        const response = await ask(setup.api, { message: QUESTION, bot_id: 'demo', stream });
        const text = await response.text();
        assert.ok(!text.includes(MODEL_KEY), 'key in a response');
      }
    }
    await until(() => setup.logs.filter((line) => line.startsWith('POST')).length >= 6);
    for (const line of setup.logs) assert.ok(!line.includes(MODEL_KEY), `key in a log line: ${line}`);
  });
});

describe('written answers: settings', () => {
  it('refuses settings that cannot work, naming them', async () => {
    const model = await startFakeModel();
    try {
      await assert.rejects(startFixtureApi({ llmModel: 'm' }), /llmModel is set but llmBaseUrl is not/);
      await assert.rejects(startFixtureApi({ llmBaseUrl: model.url }), /llmBaseUrl is set but llmModel is not/);
      await assert.rejects(startFixtureApi({ llmBaseUrl: 'ftp://x/v1', llmModel: 'm' }), /llmBaseUrl must be an http\(s\) URL/);
      await assert.rejects(startFixtureApi({ llmBaseUrl: model.url, llmModel: 'm', llmTemperature: 3 }), /llmTemperature must be a number from 0 to 2/);
    } finally {
      await model.close();
    }
  });

  it('sends temperature and max_tokens when set, and the passages per prompt cap the prompt', async () => {
    const setup = await startWritten({ llmTemperature: 0.2, llmMaxTokens: 300, llmPassages: 1 });
    try {
      setup.model.answer(stream(['Fine [1].']));
      await (await ask(setup.api, { message: QUESTION, bot_id: 'demo' })).json();
      const { body } = setup.model.requests[0]!;
      assert.equal(body.temperature, 0.2);
      assert.equal(body.max_tokens, 300);
      assert.doesNotMatch(body.messages.at(-1)!.content, /\[2\]/);
      assert.deepEqual(setup.api.answers, { mode: 'written', model: 'test-model' });
    } finally {
      await setup.close();
    }
  });
});
