import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { optionsFrom } from '../../packages/bot-answer-proxy/src/proxy/cli-options.js';
import { startAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { ask, assertNoKeyLeak, observe, parseStream, remember, replay } from './helpers.js';

after(() => assertNoKeyLeak());

/** Starts the command; resolves with its URL once it logs that it listens. */
async function startCli(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/bot-answer-proxy/src/proxy/cli.ts', ...args], { env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = await new Promise<string>((resolve, reject) => {
    // Generous (a loaded machine starts it slowly); on giving up, the process goes too, so it cannot hold the run open.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no listening line in: ${output}`));
    }, 60_000);
    const check = () => {
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', () => reject(new Error(`exited: ${output}`)));
  });
  return { child, url, output: () => output };
}

describe('bot-answer-proxy command', () => {
  it('in demo mode starts the local Answer API in-process, says so, answers, and exits cleanly on SIGTERM', async () => {
    const { child, url, output } = await startCli(['--port', '0'], { RATE_LIMIT_PER_MINUTE: '100' });
    try {
      assert.match(output(), /demo mode/);
      const got = await ask(url, { message: 'How do I book a hotel for a business trip?', bot_id: 'demo', stream: true });
      assert.equal(got.status, 200);
      assert.equal(replay(parseStream(got.text).events).end?.event, 'done');
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      assert.equal(code, 0);
      observe(output());
      // The generated demo key is never printed.
      assert.doesNotMatch(output(), /ak_[A-Za-z0-9_-]{20,}/);
      for (const line of output().trim().split('\n')) assert.doesNotThrow(() => JSON.parse(line), line);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('in demo mode answers from the docs folder ANSWER_KB names, with URLs from ANSWER_KB_BASE_URL', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'bot-answer-demo-kb-'));
    try {
      await mkdir(join(folder, 'guides'));
      await writeFile(join(folder, 'guides', 'rollback.md'), '# Rollback\n\nTo roll a release back, run `deploy rollback` with the release number. The previous build is live again within a minute.\n');
      const { child, url, output } = await startCli(['--port', '0'], { ANSWER_KB: folder, ANSWER_KB_BASE_URL: 'https://docs.example.com', ANSWER_KB_ANCHORS: 'off' });
      try {
        assert.match(output(), /answers from the documents in /);
        const got = await ask(url, { message: 'How do I roll back a release?', bot_id: 'demo', stream: false });
        assert.equal(got.status, 200);
        const body = JSON.parse(got.text) as { answer_found: boolean; sources: Array<{ url: string; title: string }> };
        assert.equal(body.answer_found, true);
        assert.deepEqual(body.sources.map((source) => [source.url, source.title]), [['https://docs.example.com/guides/rollback', 'Rollback']]);
      } finally {
        child.kill('SIGKILL');
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('in demo mode refuses a docs folder whose URLs cannot be formed, naming the setting', async () => {
    await assert.rejects(optionsFrom([], { ANSWER_KB: '/docs', ANSWER_KB_URL_EXTENSION: 'html' }), /ANSWER_KB_URL_EXTENSION/);
    await assert.rejects(optionsFrom([], { ANSWER_KB_ANCHORS: 'sometimes' }), /ANSWER_KB_ANCHORS/);
    // With an API key the local Answer API does not run, so its settings are not read.
    assert.equal((await optionsFrom([], { ANSWER_API_KEY: 'k', ANSWER_KB_ANCHORS: 'sometimes' }) as { localAnswerApi?: unknown }).localAnswerApi, undefined);
  });

  it('with ANSWER_API_KEY forwards to ANSWER_BASE_URL and never prints the key', async () => {
    const key = remember('ak_cli_test_key_0123456789abcdefghij');
    const upstream = await startAnswerApi({ port: 0, keys: [key], paceMs: 0 });
    const { child, url, output } = await startCli(['--port', '0', '--allowed-bot-ids', 'demo', '--debug'], { ANSWER_API_KEY: key, ANSWER_BASE_URL: upstream.url, ALLOWED_ORIGINS: 'https://site.example' });
    try {
      assert.doesNotMatch(output(), /demo mode/);
      assert.equal((await ask(url, { message: 'hotel booking', bot_id: 'demo' })).status, 200);
      assert.equal((await ask(url, { message: 'hotel booking', bot_id: 'other' })).status, 403);
      assert.equal((await ask(url, { message: 'hotel booking', bot_id: 'demo' }, { origin: 'https://site.example' })).headers.get('access-control-allow-origin'), 'https://site.example');
      assert.equal(upstream.requests.length, 2);
      child.kill('SIGINT');
      const [code] = await once(child, 'exit');
      assert.equal(code, 0);
      observe(output());
    } finally {
      child.kill('SIGKILL');
      await upstream.close();
    }
  });
});

describe('command options', () => {
  it('reads the environment, and flags win', async () => {
    const options = await optionsFrom(['--port', '9000', '--allowed-origins', 'https://a.example, https://b.example', '--trust-proxy', '2'], {
      PORT: '1234',
      HOST: '0.0.0.0',
      ANSWER_API_KEY: 'k',
      ANSWER_BASE_URL: 'https://api.example',
      ALLOWED_BOT_IDS: 'demo,sales',
      RATE_LIMIT_PER_MINUTE: '5',
      UPSTREAM_IDLE_TIMEOUT_MS: '1000',
    });
    assert.notEqual(options, 'help');
    if (options === 'help') return;
    assert.equal(options.port, 9000);
    assert.equal(options.host, '0.0.0.0');
    assert.equal(options.apiKey, 'k');
    assert.equal(options.baseUrl, 'https://api.example');
    assert.deepEqual(options.allowedOrigins, ['https://a.example', 'https://b.example']);
    assert.deepEqual(options.allowedBotIds, ['demo', 'sales']);
    assert.equal(options.rateLimitPerMinute, 5);
    assert.equal(options.trustProxy, 2);
    assert.equal(options.idleTimeoutMs, 1000);
    assert.equal(options.debug, false);
  });

  it('defaults to 127.0.0.1:8787, and demo mode without a key', async () => {
    const options = await optionsFrom([], {});
    assert.notEqual(options, 'help');
    if (options === 'help') return;
    assert.equal(options.port, 8787);
    assert.equal(options.host, '127.0.0.1');
    assert.equal(options.apiKey, undefined);
  });

  it('refuses bad values with a readable message, and has no flag for the key', async () => {
    await assert.rejects(optionsFrom(['--port', 'abc'], {}), /--port/);
    await assert.rejects(optionsFrom([], { RATE_LIMIT_PER_MINUTE: '-1' }), /RATE_LIMIT_PER_MINUTE/);
    await assert.rejects(optionsFrom(['--trust-proxy', 'maybe'], {}), /trust-proxy/);
    await assert.rejects(optionsFrom(['--api-key', 'secret'], {}));
    assert.equal(await optionsFrom(['--help'], {}), 'help');
  });
});
