import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AnswerResponse } from '../../packages/bot-answer/src/protocol/types.js';
import { startAnswerApi, type RunningAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { ask, KEY } from './helpers.js';

/** An API reference in MDX whose parameters live in components' attributes, as the AI SDK's, Fumadocs' and Mintlify's do. */
async function writeReference(dir: string): Promise<void> {
  await mkdir(join(dir, 'reference'), { recursive: true });
  await writeFile(join(dir, 'index.md'), '# Wombat SDK\n\nThe Wombat SDK digs burrows for you.\n');
  await writeFile(
    join(dir, 'reference', 'use-burrow.mdx'),
    [
      "import { PropertiesTable } from '@/components/properties-table';",
      '',
      '# useBurrow()',
      '',
      'A hook that digs a burrow and reports on it.',
      '',
      '## Parameters',
      '',
      '<PropertiesTable',
      '  content={[',
      "    { name: 'depth', type: 'number', description: 'How deep the burrow is dug, in centimetres.' },",
      '    {',
      "      name: 'backfill',",
      "      type: '() => void',",
      '      isOptional: true,',
      '      description:',
      "        'Fills the burrow in again once the wombat has left, so the lawn is level.',",
      '    },',
      '  ]}',
      '/>',
      '',
      '## Fields',
      '',
      '<ParamField query="soil" type="string" default="loam">',
      '  The kind of earth the burrow is dug in.',
      '</ParamField>',
    ].join('\n'),
  );
}

describe('an MDX reference whose parameters are in component attributes', () => {
  let dir: string;
  let api: RunningAnswerApi;
  const answer = async (message: string): Promise<AnswerResponse> => {
    const response = await ask(api, { message, bot_id: 'demo' });
    assert.equal(response.status, 200);
    return (await response.json()) as AnswerResponse;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'answer-mdx-reference-'));
    await writeReference(dir);
    api = await startAnswerApi({ kb: dir, keys: [KEY], paceMs: 0, watch: false, kbBaseUrl: 'https://docs.example.com/wombat' });
  });
  after(async () => {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("answers a parameter's question from its reference page, quoting the parameter, its type and its text", async () => {
    const result = await answer('How do I fill the burrow in again after the wombat has left?');
    assert.equal(result.answer_found, true);
    assert.equal(result.sources[0]?.url, 'https://docs.example.com/wombat/reference/use-burrow#parameters');
    assert.ok(result.answer.includes('`backfill` (`() => void`, optional): Fills the burrow in again once the wombat has left, so the lawn is level.'), result.answer);
    for (const gone of ['PropertiesTable', 'content={', 'isOptional', "name: '"]) assert.ok(!result.answer.includes(gone), gone);
  });

  it("puts a field tag's name and type before its text", async () => {
    const result = await answer('What kind of soil is the burrow dug in by default?');
    assert.equal(result.sources[0]?.url, 'https://docs.example.com/wombat/reference/use-burrow#fields');
    assert.ok(result.answer.includes('`soil` (`string`, default: `loam`):'), result.answer);
    assert.ok(!result.answer.includes('ParamField'), result.answer);
  });
});
