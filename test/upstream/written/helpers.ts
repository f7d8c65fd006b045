import type { AnswerApiOptions, RunningAnswerApi } from '../../../packages/bot-answer-engine/src/upstream/index.js';
import { startFixtureApi } from '../helpers.js';
import { startFakeModel, type FakeModel } from './fake-model.js';

/** The model server's key in these tests: it must never show anywhere but in the request to the model. */
export const MODEL_KEY = 'sk-model-secret-4f1c2a9e7b';

/** A local Answer API over the fixture knowledge base, writing with a fake model; its log lines kept. */
export interface WrittenSetup {
  api: RunningAnswerApi;
  model: FakeModel;
  logs: string[];
  close(): Promise<void>;
}

export async function startWritten(options: AnswerApiOptions = {}, model?: FakeModel): Promise<WrittenSetup> {
  const fake = model ?? (await startFakeModel());
  const logs: string[] = [];
  const api = await startFixtureApi({ llmBaseUrl: fake.url, llmModel: 'test-model', llmApiKey: MODEL_KEY, log: (line) => logs.push(line), ...options });
  return {
    api,
    model: fake,
    logs,
    close: async () => {
      await api.close();
      await fake.close();
    },
  };
}

/** Waits until `test` holds (checked every few ms), at most `ms`. */
export async function until(test: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
