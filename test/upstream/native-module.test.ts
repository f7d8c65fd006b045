import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FIXTURE_KB } from './helpers.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'packages', 'bot-answer-engine', 'src', 'upstream', 'cli.ts');

/** Runs the CLI until it serves (then stops it) or exits; its output and exit code. */
async function runCli(env: Record<string, string>, preload: string[] = []) {
  const child = spawn(process.execPath, [...preload, '--import', 'tsx', CLI], {
    env: { ...process.env, PORT: '0', ANSWER_KB: FIXTURE_KB, ANSWER_API_KEYS: 'test-key-0123456789', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (/listening on/.test(output)) child.kill('SIGTERM');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

/** Every file of `folder` with its bytes. */
async function snapshot(folder: string): Promise<Map<string, Buffer>> {
  const names = (await readdir(folder)).filter((name) => !name.endsWith('-shm') && !name.endsWith('-wal'));
  return new Map(await Promise.all(names.map(async (name) => [name, await readFile(join(folder, name))] as const)));
}

describe('start-up when the SQLite module does not load in this Node.js', { timeout: 60_000 }, () => {
  it('says what is wrong and how to fix it, and leaves the index file alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bot-answer-native-'));
    try {
      const index = join(dir, 'index');
      const built = await runCli({ ANSWER_KB_INDEX: index });
      assert.match(built.output, /listening on/);
      const before = await snapshot(index);
      assert.ok([...before.keys()].some((name) => name.endsWith('.sqlite')), 'the first start made the index');

      // better-sqlite3 as installed for another system: its package, with a compiled module that does not load here.
      const real = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
      const other = join(dir, 'node_modules', 'better-sqlite3');
      await cp(join(real, 'lib'), join(other, 'lib'), { recursive: true });
      await cp(join(real, 'package.json'), join(other, 'package.json'));
      await mkdir(join(other, 'build', 'Release'), { recursive: true });
      await writeFile(join(other, 'build', 'Release', 'better_sqlite3.node'), 'compiled for another Node.js');
      const hook = `export async function resolve(specifier, context, next) {
        return specifier === 'better-sqlite3' ? { url: ${JSON.stringify(pathToFileURL(join(other, 'lib', 'index.js')).href)}, shortCircuit: true } : next(specifier, context);
      }`;
      const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;

      const failed = await runCli({ ANSWER_KB_INDEX: index }, ['--import', `data:text/javascript,${encodeURIComponent(register)}`]);
      assert.notEqual(failed.code, 0);
      assert.match(failed.output, /better-sqlite3 .* does not load in Node\.js v\d+/);
      assert.match(failed.output, /npm rebuild better-sqlite3/);
      assert.doesNotMatch(failed.output, /removed, to be built anew|is corrupt|cannot be opened/);
      assert.deepEqual(await snapshot(index), before);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('start-up on a Node.js older than the SQLite module needs', () => {
  it('says which Node.js it needs before loading the module (below Node-API 10 loading it crashes the process)', async () => {
    const { checkSqliteRuntime } = await import('../../packages/bot-answer-engine/src/upstream/index/schema.js');
    assert.throws(() => checkSqliteRuntime(9), /needs Node\.js 22\.14 or later \(Node-API 10\); this is Node\.js v\d+.*Switch to a current Node\.js/);
    assert.doesNotThrow(() => checkSqliteRuntime(10));
  });
});
