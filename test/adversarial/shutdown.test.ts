import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { startHostileUpstream, type HostileUpstream } from './support/hostile-upstream.js';
import { RUN } from './support/options.js';
import { sleep, waitFor } from './support/pool.js';
import { ask, replay, type ProxyReply } from './support/proxy-client.js';
import { findKey, KEY } from './support/secret.js';
import { count } from './support/tally.js';

/**
 * Shutdown under load: the `bot-answer-proxy` command as a child process, many open streams,
 * SIGTERM. New requests are refused, open streams finish or end with an error event within
 * the deadline, nothing hangs, and the process exits 0.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEADLINE_MS = 3000;
let upstream: HostileUpstream;
let child: ChildProcess | undefined;
let output = '';

before(async () => {
  upstream = await startHostileUpstream({
    key: KEY,
    script: (body) => {
      const message = (body as { message?: string })?.message ?? '';
      // Half the streams finish a second after they start (inside the deadline); half never end.
      if (message.startsWith('finishing')) return { chunks: ['event: delta\ndata: {"text":"one "}\n\n', ...Array.from({ length: 10 }, () => 'event: delta\ndata: {"text":"more "}\n\n'), 'event: done\ndata: {"answer_found":true}\n\n'], gapMs: 150 };
      return { chunks: ['event: delta\ndata: {"text":"forever "}\n\n'], forever: () => 'event: delta\ndata: {"text":"."}\n\n', gapMs: 500 };
    },
  });
});

after(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await upstream?.close();
});

function startCli(): Promise<string> {
  child = spawn(process.execPath, ['--import', 'tsx', 'packages/bot-answer-proxy/src/proxy/cli.ts'], {
    cwd: ROOT,
    env: { ...process.env, ANSWER_API_KEY: KEY, ANSWER_BASE_URL: upstream.url, PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '0', SHUTDOWN_TIMEOUT_MS: String(DEADLINE_MS), HEARTBEAT_MS: '1000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the proxy did not start:\n${output}`)), 20_000);
    const look = () => {
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child!.stdout!.off('data', look);
        resolve(match[1]!);
      }
    };
    child!.stdout!.on('data', look);
    child!.once('exit', (code) => reject(new Error(`the proxy exited (${code}) before listening:\n${output}`)));
  });
}

test(`SIGTERM with ${RUN.shutdownStreams} open streams: refused, finished or errored in time, exit 0`, { timeout: 120_000 }, async () => {
  const url = await startCli();
  const n = RUN.shutdownStreams;
  const replies: Array<Promise<ProxyReply & { endedAt: number }>> = [];
  for (let i = 0; i < n; i++) {
    const message = `${i % 2 === 0 ? 'finishing' : 'forever'} ${i}`;
    replies.push(ask(url, { message, timeoutMs: 60_000 }).then((r) => ({ ...r, endedAt: Date.now() })));
  }
  // Every stream must be open before the signal: a request still in the listen backlog at SIGTERM is a new
  // request, refused by design (503 or a reset), not an open stream lost.
  assert.ok(await waitFor(() => upstream.requests.length >= n, 30_000), `only ${upstream.requests.length} of ${n} streams reached the upstream`);
  await sleep(200);
  const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
  const sentAt = Date.now();
  child!.kill('SIGTERM');
  await sleep(150);
  const late = await ask(url, { message: 'finishing late', timeoutMs: 5000 });
  assert.ok(late.networkError !== undefined || (late.status === 503 && /shutting_down/.test(late.body)), `a request after SIGTERM got ${late.status} ${late.body.slice(0, 120)}`);

  const all = await Promise.all(replies);
  const code = await Promise.race([exited, sleep(DEADLINE_MS + 10_000).then(() => 'hung' as const)]);
  let held = 0;
  const lost: string[] = [];
  for (const [i, reply] of all.entries()) {
    const shown = replay(reply.events);
    assert.deepEqual(findKey(reply.body, 'stream at shutdown'), []);
    if (reply.status !== 200) {
      lost.push(`#${i}: status ${reply.status} ${reply.networkError ?? ''}`);
      continue;
    }
    const finishing = i % 2 === 0;
    const inTime = reply.endedAt - sentAt <= DEADLINE_MS + 2500;
    if (finishing && shown.terminal === 'done' && shown.text === 'one ' + 'more '.repeat(10) && inTime) held++;
    else if (shown.terminal === 'error' && inTime && shown.error?.code) held++;
    else lost.push(`#${i} (${finishing ? 'finishing' : 'forever'}): terminal ${shown.terminal ?? 'none'} after ${reply.endedAt - sentAt} ms, network ${reply.networkError ?? '-'}`);
  }
  count('streamsHeldAtShutdown', held);
  count('streamsLost', lost.length);
  assert.deepEqual(lost, [], `${lost.length} streams lost`);
  assert.equal(code, 0, `exit code ${code}\n${output.slice(-2000)}`);
  assert.deepEqual(findKey(output, 'proxy command output'), []);
  await upstream.settled(5000);
});
