import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CliOptionsError, knowledgeBaseOptions, parseCliOptions } from '../../packages/bot-answer-engine/src/upstream/cli-options.js';
import { FIXTURE_KB } from './helpers.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'packages', 'bot-answer-engine', 'src', 'upstream', 'cli.ts');

/** Every CLI started: whatever a test left running (it failed or timed out) goes at the end, so it cannot hold the run open. */
const started = new Set<ChildProcess>();
after(() => {
  for (const child of started) child.kill('SIGKILL');
});

/** Starts the CLI, collects its output lines until `until` matches one, and returns them with the process. */
async function startCli(env: Record<string, string>, args: string[] = [], until = /API key/) {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, PORT: '0', ANSWER_KB: FIXTURE_KB, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  const lines: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (until.test(line)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the CLI exited with ${code} before it was ready: ${lines.join('\n')}`)));
  });
  await ready;
  const url = /listening on (http:\/\/[^\s/]+:\d+)/.exec(lines.join('\n'))?.[1];
  return { child, lines, url: url! };
}

// A guard against a hang, not a speed bound: four CLI starts on a loaded machine can take a minute.
describe('npm run upstream (the CLI)', { timeout: 120_000 }, () => {
  it('prints its URL and the generated key, answers with it, and stops cleanly on SIGTERM', async () => {
    const { child, lines, url } = await startCli({ ANSWER_API_KEYS: '' });
    try {
      const key = /API key \(generated.*\): (\S+)$/.exec(lines.find((l) => l.includes('API key'))!)?.[1];
      assert.ok(key && url);
      const response = await fetch(`${url}/v1/answer`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'How do I book a flight?', bot_id: 'demo' }),
      });
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { answer_found: boolean }).answer_found, true);
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
  });

  it('never prints configured keys, and applies its flags', async () => {
    const { child, lines, url } = await startCli(
      { ANSWER_API_KEYS: 'secret-one,secret-two', ANSWER_REVOKED_KEYS: 'old-key' },
      ['--dialect', 'typed', '--pace-ms', '0', '--fault-status', '502'],
      /API key/,
    );
    try {
      assert.ok(lines.some((l) => l.includes('2 API key(s) configured')));
      assert.ok(lines.some((l) => l.includes('FAULTS ON: status')));
      assert.ok(!lines.join('\n').includes('secret-'));
      const response = await fetch(`${url}/v1/answer`, {
        method: 'POST',
        headers: { authorization: 'Bearer secret-one', 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'How do I book a flight?', bot_id: 'demo' }),
      });
      assert.equal(response.status, 502);
      await response.arrayBuffer();
    } finally {
      child.kill('SIGTERM');
    }
    await once(child, 'exit');
  });

  it('exits with status 2 and a clear message for a bad option', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--dialect', 'smoke-signals'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 2);
    assert.match(stderr, /Unknown stream dialect "smoke-signals"/);
  });

  it('serves a docs folder without front-matter given its base URL, and says which setting is missing without it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'answer-cli-docs-'));
    try {
      await mkdir(join(dir, 'guide'));
      await writeFile(join(dir, 'guide', 'index.md'), '# Guide\n\n## Wombats\n\nWombats dig burrows.\n');
      const missing = spawn(process.execPath, ['--import', 'tsx', CLI], { env: { ...process.env, PORT: '0', ANSWER_KB: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      missing.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const [code] = (await once(missing, 'exit')) as [number | null];
      assert.equal(code, 1);
      assert.match(stderr, /answer-api: guide\/index\.md: no URL to cite it by: set ANSWER_KB_BASE_URL to the address the folder is published at/);

      const { child, lines, url } = await startCli({ ANSWER_KB: dir, ANSWER_KB_BASE_URL: 'https://docs.example.com', ANSWER_API_KEYS: 'k-0123456789' });
      try {
        assert.ok(lines.some((l) => /bot "demo": 1 documents from .*, watched for changes/.test(l)), lines.join('\n'));
        const response = await fetch(`${url}/v1/answer`, {
          method: 'POST',
          headers: { authorization: 'Bearer k-0123456789', 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'Do wombats dig burrows?', bot_id: 'demo' }),
        });
        const body = (await response.json()) as { sources: Array<{ url: string; app_name: string }> };
        assert.equal(body.sources[0]?.url, 'https://docs.example.com/guide/#wombats');
        assert.equal(body.sources[0]?.app_name, dir.split('/').pop());
      } finally {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('CLI options', () => {
  it('reads the environment of the contract, with defaults', () => {
    assert.deepEqual(parseCliOptions([], {}), { port: 8788, faults: {} });
    assert.deepEqual(
      parseCliOptions([], {
        PORT: '9000',
        HOST: '0.0.0.0',
        ANSWER_API_KEYS: ' a, b ,,',
        ANSWER_REVOKED_KEYS: 'c',
        ANSWER_KB: 'docs',
        ANSWER_BOTS: 'bots.json',
        ANSWER_DIALECT: 'openai',
        ANSWER_END_MARKER: 'false',
        ANSWER_PACE_MS: '0',
        ANSWER_WORDS_PER_CHUNK: '5',
        ANSWER_HEARTBEAT_MS: '1000',
        ANSWER_RATE_LIMIT_PER_MINUTE: '1',
        ANSWER_MAX_BODY_BYTES: '1024',
        ANSWER_KB_BASE_URL: ' https://docs.example.com/v2 ',
        ANSWER_KB_URL_EXTENSION: '.html',
        ANSWER_KB_APP_NAME: 'Acme Docs',
        ANSWER_KB_ANCHORS: 'off',
        ANSWER_KB_INDEX: ' /var/cache/answers ',
        ANSWER_KB_WATCH: 'false',
      }),
      {
        port: 9000,
        host: '0.0.0.0',
        keys: ['a', 'b'],
        revokedKeys: ['c'],
        kb: 'docs',
        botsFile: 'bots.json',
        dialect: 'openai',
        endMarker: false,
        paceMs: 0,
        wordsPerChunk: 5,
        heartbeatMs: 1000,
        rateLimitPerMinute: 1,
        maxBodyBytes: 1024,
        kbBaseUrl: 'https://docs.example.com/v2',
        kbUrlExtension: '.html',
        kbAppName: 'Acme Docs',
        kbAnchors: false,
        kbIndex: '/var/cache/answers',
        watch: false,
        faults: {},
      },
    );
    assert.equal(parseCliOptions([], { ANSWER_KB_ANCHORS: 'AUTO' })?.kbAnchors, 'auto');
    assert.equal(parseCliOptions([], { ANSWER_KB_ANCHORS: 'on' })?.kbAnchors, true);
    const model = { ANSWER_LLM_BASE_URL: 'http://127.0.0.1:11434/v1', ANSWER_LLM_MODEL: 'llama3.2' };
    assert.equal(parseCliOptions([], model)?.llmAskWhenNotSure, undefined, 'off unless set');
    assert.equal(parseCliOptions([], { ...model, ANSWER_LLM_ASK_WHEN_NOT_SURE: 'on' })?.llmAskWhenNotSure, true);
    assert.equal(parseCliOptions(['--llm-ask-when-not-sure', 'off'], { ...model, ANSWER_LLM_ASK_WHEN_NOT_SURE: 'on' })?.llmAskWhenNotSure, false);
    // The proxy's demo mode embeds the Answer API with the same settings.
    assert.equal(knowledgeBaseOptions({ ...model, ANSWER_LLM_ASK_WHEN_NOT_SURE: 'yes', PORT: '1' }).llmAskWhenNotSure, true);
  });

  it('lets flags override the environment, and sets faults only from flags', () => {
    const options = parseCliOptions(
      ['--port', '0', '--dialect', 'plain', '--no-end-marker', '--fault-stall-after-chunks', '3', '--fault-stall-ms', '500', '--fault-split-multibyte', '--fault-malformed-event', '--fault-oversized-event-bytes', '70000', '--fault-close-after-chunks', '9', '--fault-header-delay-ms', '20', '--fault-heartbeat-during-stall', '--fault-status', '500'],
      { PORT: '1234', ANSWER_DIALECT: 'typed', ANSWER_FAULTS: 'everything' },
    );
    assert.equal(options?.port, 0);
    assert.equal(options?.dialect, 'plain');
    assert.equal(options?.endMarker, false);
    assert.deepEqual(options?.faults, {
      headerDelayMs: 20,
      stallAfterChunks: 3,
      stallMs: 500,
      heartbeatDuringStall: true,
      closeAfterChunks: 9,
      malformedEvent: true,
      oversizedEventBytes: 70000,
      splitMultibyte: true,
      status: 500,
    });
    const kb = parseCliOptions(['--kb-base-url', 'https://b.example.com', '--kb-url-extension', '/', '--kb-app-name', 'B', '--kb-anchors', 'auto', '--kb-index', 'idx', '--no-watch'], {
      ANSWER_KB_BASE_URL: 'https://a.example.com',
      ANSWER_KB_ANCHORS: 'off',
      ANSWER_KB_INDEX: 'elsewhere',
      ANSWER_KB_WATCH: 'true',
    });
    assert.deepEqual([kb?.kbBaseUrl, kb?.kbUrlExtension, kb?.kbAppName, kb?.kbAnchors, kb?.kbIndex, kb?.watch], ['https://b.example.com', '/', 'B', 'auto', 'idx', false]);
    assert.equal(parseCliOptions(['--help'], {}), undefined);
    const site = parseCliOptions(['--kb-site-refresh', '6h'], { ANSWER_KB_SITE: 'https://docs.example.com/', ANSWER_KB_SITE_MAX_PAGES: '500', ANSWER_KB_SITE_REFRESH: '1d' });
    assert.deepEqual([site?.kbSite, site?.kbSiteMaxPages, site?.kbSiteRefreshMs], ['https://docs.example.com/', 500, 6 * 3_600_000]);
    assert.equal(parseCliOptions([], { ANSWER_KB_SITE: 'https://d.example.com', ANSWER_KB_SITE_REFRESH: 'off' })?.kbSiteRefreshMs, 0);
  });

  it('rejects bad values with a message naming them', () => {
    const bad: Array<[string[], NodeJS.ProcessEnv, RegExp]> = [
      [['--pace-ms', 'fast'], {}, /--pace-ms must be a whole number/],
      [[], { PORT: '-1' }, /PORT must be a whole number/],
      [[], { PORT: '70000' }, /PORT must be 0-65535/],
      [[], { ANSWER_DIALECT: 'xml' }, /Unknown stream dialect "xml"/],
      [[], { ANSWER_END_MARKER: 'maybe' }, /ANSWER_END_MARKER must be true or false/],
      [['--fault-status', '200'], {}, /--fault-status must be an error status/],
      [['--words-per-chunk', '0'], {}, /--words-per-chunk must be at least 1/],
      [['--frobnicate'], {}, /Unknown option '--frobnicate'/],
      [[], { ANSWER_KB_BASE_URL: 'docs.example.com' }, /ANSWER_KB_BASE_URL \(--kb-base-url\) must be an http\(s\) URL, not "docs.example.com"/],
      [['--kb-url-extension', 'html'], {}, /ANSWER_KB_URL_EXTENSION \(--kb-url-extension\) must be empty, "\/" or an extension such as "\.html"/],
      [[], { ANSWER_KB_ANCHORS: 'sometimes' }, /ANSWER_KB_ANCHORS must be on or off or auto, not "sometimes"/],
      [[], { ANSWER_KB_WATCH: 'maybe' }, /ANSWER_KB_WATCH must be on or off, not "maybe"/],
      [[], { ANSWER_LLM_ASK_WHEN_NOT_SURE: 'sometimes' }, /ANSWER_LLM_ASK_WHEN_NOT_SURE \(--llm-ask-when-not-sure\) must be on or off, not "sometimes"/],
      [[], { ANSWER_KB_SITE: 'file:///etc/' }, /ANSWER_KB_SITE \(--kb-site\) must be an http\(s\) URL/],
      [[], { ANSWER_KB_SITE: 'https://d.example.com', ANSWER_KB: 'docs' }, /ANSWER_KB and ANSWER_KB_SITE are both set/],
      [[], { ANSWER_KB_SITE: 'https://d.example.com', ANSWER_KB_SITE_MAX_PAGES: '0' }, /ANSWER_KB_SITE_MAX_PAGES must be at least 1/],
      [[], { ANSWER_KB_SITE: 'https://d.example.com', ANSWER_KB_SITE_REFRESH: 'weekly' }, /ANSWER_KB_SITE_REFRESH \(--kb-site-refresh\) must be a duration/],
    ];
    for (const [argv, env, message] of bad) assert.throws(() => parseCliOptions(argv, env), (e: unknown) => e instanceof CliOptionsError && message.test(e.message));
  });
});
