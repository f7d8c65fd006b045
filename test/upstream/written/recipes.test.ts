/**
 * The README's recipes for written answers, run as written but for the model server: a fake
 * one stands in at the recipe's path (`/v1/chat/completions`) on a loopback port.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startDemoServer } from '../../../demo/server.js';
import { optionsFrom } from '../../../packages/bot-answer-proxy/src/proxy/cli-options.js';
import { FIXTURE_KB } from '../helpers.js';
import { startFakeModel, stream, type FakeModel } from './fake-model.js';

/** The environment of each recipe, exactly as the README gives it. */
const RECIPES = {
  ollama: { ANSWER_LLM_BASE_URL: 'http://127.0.0.1:11434/v1', ANSWER_LLM_MODEL: 'llama3.2' },
  openai: { ANSWER_LLM_BASE_URL: 'https://api.openai.com/v1', ANSWER_LLM_MODEL: 'gpt-4o-mini', ANSWER_LLM_API_KEY: 'sk-proj-recipe-test-key' },
  compatible: { ANSWER_LLM_BASE_URL: 'http://127.0.0.1:8000/v1', ANSWER_LLM_MODEL: 'Qwen/Qwen2.5-7B-Instruct', ANSWER_LLM_TEMPERATURE: '0.2' },
};

/** The recipe's environment with the model server's origin swapped for the fake one's (its path kept). */
function at(model: FakeModel, env: Record<string, string>): Record<string, string> {
  const base = new URL(env.ANSWER_LLM_BASE_URL!);
  return { ...env, ANSWER_LLM_BASE_URL: `${new URL(model.url).origin}${base.pathname}` };
}

const QUESTION = { message: 'How do I roll back a release?', bot_id: 'demo' };

describe('README recipes for written answers', { timeout: 30_000 }, () => {
  for (const name of ['ollama', 'openai'] as const) {
    it(`${name}: npm start answers with the model, and the demo page says which`, async () => {
      const model = await startFakeModel();
      const options = await optionsFrom([], { ...at(model, RECIPES[name]), ANSWER_KB: FIXTURE_KB, ANSWER_KB_WATCH: 'false' });
      assert.ok(options !== 'help');
      const demo = await startDemoServer({ ...options, port: 0, log: false, handleSignals: false });
      try {
        model.answer(stream(['Run the rollback script [1].']));
        const response = await fetch(`${demo.url}/api/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(QUESTION) });
        const answer = (await response.json()) as { answer: string; answer_found: boolean };
        assert.equal(answer.answer, 'Run the rollback script [[1]](https://git.example.com/platform/billing/blob/main/docs/deploy.md).');
        const [request] = model.requests;
        assert.equal(request!.body.model, RECIPES[name].ANSWER_LLM_MODEL);
        assert.equal(request!.headers.authorization, name === 'openai' ? `Bearer ${RECIPES.openai.ANSWER_LLM_API_KEY}` : undefined);
        assert.deepEqual(await (await fetch(`${demo.url}/demo-info.json`)).json(), { mode: 'demo', answers: 'written', model: RECIPES[name].ANSWER_LLM_MODEL });
      } finally {
        await demo.close();
        await model.close();
      }
    });
  }

  it('any OpenAI-compatible server: npm run upstream answers with it', async () => {
    const model = await startFakeModel();
    const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'packages', 'bot-answer-engine', 'src', 'upstream', 'cli.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', cli], {
      env: { ...process.env, ...at(model, RECIPES.compatible), PORT: '0', ANSWER_KB: FIXTURE_KB, ANSWER_API_KEYS: 'recipe-key' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const lines: string[] = [];
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: child.stdout! }).on('line', (line) => {
          lines.push(line);
          if (line.includes('API key')) resolve();
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${lines.join('\n')}`)));
      });
      assert.ok(lines.some((line) => line === `[answer-api] answers: written by Qwen/Qwen2.5-7B-Instruct at ${model.url}; the docs answer when it fails`), lines.join('\n'));
      const url = /listening on (\S+):/.exec(lines.join('\n'))![1];
      model.answer(stream(['Run the rollback script [1].']));
      const response = await fetch(`${url}/v1/answer`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer recipe-key' }, body: JSON.stringify(QUESTION) });
      assert.equal(((await response.json()) as { answer_found: boolean }).answer_found, true);
      assert.equal(model.requests[0]!.body.temperature, 0.2);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
      await model.close();
    }
  });
});
