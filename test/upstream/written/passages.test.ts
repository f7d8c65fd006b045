import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROMPT_PASSAGE_CHARS } from '../../../packages/bot-answer-engine/src/upstream/compose/written/prompt.js';
import { ask, readEvents } from '../helpers.js';
import { reassemble } from '../reassemble.js';
import { stream } from './fake-model.js';
import { startWritten, type WrittenSetup } from './helpers.js';

// A page shaped like Node.js's crypto docs: YAML history comments above each section, the answer in one of many.
const filler = (name: string, algorithm = 'SHA-256'): string =>
  `## \`${name}\`\n\n<!-- YAML\nadded: v15.0.0\nchanges:\n  - version: v17.0.0\n    pr-url: https://github.com/nodejs/node/pull/1\n-->\n\nThe \`${name}\` member of the import parameters: an algorithm name such as \`'${algorithm}'\`. ${'It takes a digest name and nothing else. '.repeat(12)}\n`;
const CRYPTO = [
  '# Crypto',
  '',
  filler('rsaHashedImportParams.hash'),
  '## `crypto.getHashes()`',
  '',
  '<!-- YAML\nadded: v0.9.3\n-->',
  '',
  'Returns an array of the names of the supported hash algorithms, such as `sha256`.',
  '',
  '## `crypto.createHash(algorithm[, options])`',
  '',
  '<!-- YAML\nadded: v0.1.92\n-->',
  '',
  'Creates and returns a `Hash` object that can be used to compute a hash digest of a string with the given algorithm, such as `sha256`:',
  '',
  '```js\nconst hash = crypto.createHash(\'sha256\').update(\'some string\').digest(\'hex\');\n```',
  '',
  ...Array.from({ length: 12 }, (_, i) => filler(`importParams${i}.name`, i < 5 ? 'SHA-256' : 'Ed25519')),
].join('\n');

describe('the passages a model is given', { timeout: 30_000 }, () => {
  let root: string;
  let setup: WrittenSetup;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'written-passages-'));
    await writeFile(join(root, 'crypto.md'), CRYPTO);
    setup = await startWritten({ kb: root, kbBaseUrl: 'https://docs.example.com/api/', kbIndex: join(root, '.index') });
  });
  after(async () => {
    await setup.close();
    await rm(root, { recursive: true, force: true });
  });

  it('are the best passages, cleaned as quotes are, more than the three an extractive answer quotes, within the budget', async () => {
    setup.model.answer(stream(['Use `crypto.createHash` [1].']));
    const before = setup.model.requests.length;
    const response = await ask(setup.api, { message: 'How do I compute a SHA-256 hash of a string?', bot_id: 'demo', stream: true });
    const result = reassemble('named', (await readEvents(response)).events);
    assert.equal(result.answerFound, true);
    const prompt = setup.model.requests[before]!.body.messages.at(-1)!.content;
    const passages = prompt.slice(0, prompt.indexOf('\n\nQuestion:'));
    assert.match(passages, /crypto\.createHash\('sha256'\)/, 'the passage that answers');
    assert.doesNotMatch(passages, /<!--|YAML|pr-url/, 'no YAML history comments');
    assert.ok((passages.match(/^\[\d+\] /gm) ?? []).length > 3, 'more passages than an extractive answer quotes');
    assert.ok(passages.length <= PROMPT_PASSAGE_CHARS + 2000, `${passages.length} characters`);
  });
});
