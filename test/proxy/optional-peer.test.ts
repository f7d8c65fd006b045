import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { importPeer, MissingPeerError, requirePeer } from '../../packages/bot-answer-proxy/src/proxy/optional-peer.js';

describe('optional peer dependencies', () => {
  it('a package that is installed loads, by require and by import', async () => {
    assert.equal(typeof requirePeer<typeof import('ioredis')>('ioredis', 'REDIS_URL').Redis, 'function');
    assert.equal(typeof (await importPeer('pg', 'INSIGHTS_DB', () => import('pg'))).default.Pool, 'function');
  });

  it('a package that is not installed names the setting, the package and the command', async () => {
    const name = 'bot-answer-no-such-package';
    assert.throws(
      () => requirePeer(name, 'REDIS_URL'),
      (error: MissingPeerError) => error instanceof MissingPeerError && error.package === name && error.message === `REDIS_URL needs the ${name} package, which is not installed: npm install ${name}`,
    );
    const specifier: string = name;
    await assert.rejects(importPeer(name, 'Demo mode', () => import(specifier)), (error: Error) => error instanceof MissingPeerError && /^Demo mode needs the bot-answer-no-such-package package.*npm install bot-answer-no-such-package$/.test(error.message));
  });

  it('a package whose own dependency is missing is not reported as the one to install', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bot-answer-peer-'));
    try {
      await mkdir(join(dir, 'broken'));
      await writeFile(join(dir, 'broken', 'index.mjs'), "import 'bot-answer-missing-dependency';\n");
      const url = pathToFileURL(join(dir, 'broken', 'index.mjs')).href;
      await assert.rejects(importPeer('broken', 'A setting', () => import(url)), (error: Error & { code?: string }) => !(error instanceof MissingPeerError) && error.code === 'ERR_MODULE_NOT_FOUND' && error.message.includes('bot-answer-missing-dependency'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
