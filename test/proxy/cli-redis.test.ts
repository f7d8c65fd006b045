import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { optionsFrom } from '../../packages/bot-answer-proxy/src/proxy/cli-options.js';
import { ask } from './helpers.js';
import { startTestRedis, type TestRedis } from './redis-server.js';

let redis: TestRedis;
before(async () => (redis = await startTestRedis()));
after(() => redis.close());

/** Starts the command in demo mode; resolves with its URL once it logs that it listens. */
async function startCli(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/bot-answer-proxy/src/proxy/cli.ts', '--port', '0'], { env: { PATH: process.env.PATH!, RATE_LIMIT_PER_MINUTE: '100', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = await new Promise<string>((resolve, reject) => {
    // Generous (a loaded machine starts it slowly); on giving up, the process goes too, so it cannot hold the run open.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no listening line in: ${output}`));
    }, 60_000);
    child.stdout!.on('data', () => {
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', () => reject(new Error(`exited: ${output}`)));
  });
  return { child, url, output: () => output };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/**
 * Runs `--clear-cache`. Not with spawnSync: a blocked event loop misses the CLI server closing an idle
 * pooled connection (its keep-alive timeout passes while the command runs on a loaded machine), and
 * the next request is sent on the dead socket.
 */
async function clearCache(env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/bot-answer-proxy/src/proxy/cli.ts', '--clear-cache'], { env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, stdout, stderr };
}

describe('bot-answer-proxy with REDIS_URL and CACHE_TTL_SECONDS', () => {
  it('caches answers in Redis, and --clear-cache empties it', async () => {
    const env = { REDIS_URL: redis.url, CACHE_TTL_SECONDS: '60', REDIS_KEY_PREFIX: 'cli-test' };
    const { child, url } = await startCli(env);
    try {
      const question = { message: 'How do I book a hotel for a business trip?', bot_id: 'demo' };
      assert.equal((await ask(url, question)).headers.get('x-cache'), 'MISS');
      assert.equal((await ask(url, question)).headers.get('x-cache'), 'HIT');
      const cleared = await clearCache(env);
      assert.equal(cleared.status, 0, cleared.stderr);
      assert.match(cleared.stdout, /removed 1 cached answer\b/);
      assert.equal((await ask(url, question)).headers.get('x-cache'), 'MISS');
    } finally {
      await stop(child);
    }
  });

  it('starts and answers without Redis reachable (fallback), logs one outage line, and never prints the Redis password', async () => {
    const { child, url, output } = await startCli({ REDIS_URL: 'redis://:hunter2-redis-secret@127.0.0.1:1', CACHE_TTL_SECONDS: '60' });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await ask(url, { message: 'What is the travel policy?', bot_id: 'demo' })).status, 200);
      assert.equal(output().split('\n').filter((line) => line.includes('redis unavailable')).length, 1, output());
      assert.doesNotMatch(output(), /hunter2/);
    } finally {
      await stop(child);
    }
  });

  it('--clear-cache without REDIS_URL says the memory cache goes with the process, and fails', async () => {
    const cleared = await clearCache({});
    assert.equal(cleared.status, 1);
    assert.match(cleared.stderr, /in memory without REDIS_URL/);
  });

  it('checks the new settings and says which one is wrong, without echoing a Redis URL', async () => {
    await assert.rejects(optionsFrom([], { REDIS_FAILURE_MODE: 'maybe' }), /REDIS_FAILURE_MODE.*fallback or refuse/);
    await assert.rejects(optionsFrom([], { REDIS_URL: 'http://:pw-secret@host' }), (error: Error) => /REDIS_URL/.test(error.message) && !error.message.includes('pw-secret'));
    await assert.rejects(optionsFrom([], { CACHE_TTL_SECONDS: 'soon' }), /CACHE_TTL_SECONDS/);
    const options = await optionsFrom(['--cache-ttl-seconds', '30', '--redis-failure-mode', 'refuse'], { REDIS_URL: 'redis://127.0.0.1:6379' });
    assert.ok(options !== 'help');
    assert.equal(options.cacheTtlSeconds, 30);
    assert.equal(options.redisFailureMode, 'refuse');
    assert.equal(options.redisUrl, 'redis://127.0.0.1:6379');
  });
});
