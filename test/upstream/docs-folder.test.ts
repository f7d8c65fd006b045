import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AnswerResponse } from '../../packages/bot-answer/src/protocol/types.js';
import { startAnswerApi, type AnswerApiOptions, type RunningAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { ask, KEY } from './helpers.js';

/** A docs site's folder as generators keep it: no front-matter, an index and a README, MDX, and files that cannot be read. */
async function writeDocsSite(dir: string): Promise<void> {
  await mkdir(join(dir, 'guide'), { recursive: true });
  await mkdir(join(dir, 'api'), { recursive: true });
  await mkdir(join(dir, 'odd.md'), { recursive: true });
  await writeFile(join(dir, 'index.md'), '# Welcome to Quokka\n\nQuokka is a queue for photographs of marsupials.\n');
  await writeFile(
    join(dir, 'guide', 'installing.md'),
    '# Installing Quokka\n\n## Requirements\n\nQuokka needs a kettle.\n\n## Rolling back an upgrade\n\nTo downgrade, reinstall the previous tarball with `quokka pin`.\n\n## Requirements\n\nThe second requirements list mentions a teapot.\n',
  );
  await writeFile(join(dir, 'guide', 'README.md'), 'The guide folder explains how wombat herding works, step by step.\n');
  await writeFile(
    join(dir, 'api', 'client.mdx'),
    [
      "import Tabs from '@theme/Tabs';",
      'import {',
      '  TabItem,',
      "} from '@theme/TabItem';",
      'export const meta = { sidebar: true };',
      '',
      '# Client API',
      '',
      '## Platypus uploads',
      '',
      '<Tabs groupId="os">',
      '<TabItem value="npm" label="npm">',
      'Upload a platypus picture with the client uploader.',
      '</TabItem>',
      '</Tabs>',
      '{/* an MDX comment about echidnas */}',
      '<Note type="tip" onClick={() => a > b} />',
      '',
      '```jsx',
      "import Keep from 'keep';",
      '<Tabs>kept inside code</Tabs>',
      '```',
      '',
      '## Bandicoot signatures',
      '',
      'Bandicoots sign with a paw print.',
      '',
      '<TSDoc',
      'definition={`',
      'interface Bandicoot {',
      '  /** The paw used. */',
      '  paw: string;',
      '}',
      'export default Bandicoot;`}',
      '/>',
    ].join('\n'),
  );
  await writeFile(join(dir, 'own.md'), '---\ntitle: Numbat notes\nurl: https://wiki.example.com/numbats\napp_name: Wiki\n---\n## Feeding numbats\n\nNumbats eat termites.\n');
  await writeFile(join(dir, 'sleep.md'), '---\nurl: https://wiki.example.com/dasyurids#quolls\n---\n## Sleeping places\n\nQuolls sleep in hollow logs.\n');
  await writeFile(join(dir, 'odd.md', 'inner.md'), '# Inner\n\nA folder named like a file holds the bilby page.\n');
  await writeFile(join(dir, 'bad-bytes.md'), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a, 0x62, 0x69, 0x6c, 0x62, 0x79]));
  await writeFile(join(dir, 'bad-yaml.md'), '---\ntitle: [unclosed\n---\nwallaby\n');
  await symlink(join(dir, 'nowhere.md'), join(dir, 'dangling.md'));
  await writeFile(join(dir, 'notes.txt'), 'Not Markdown: kangaroo.');
  const time = new Date('2026-01-02T03:04:05Z');
  for (const file of ['index.md', 'guide/installing.md', 'guide/README.md', 'api/client.mdx']) await utimes(join(dir, file), time, time);
}

describe('a documentation folder used as it is', () => {
  let dir: string;
  let api: RunningAnswerApi;
  const logs: string[] = [];
  const start = (options: AnswerApiOptions = {}): Promise<RunningAnswerApi> =>
    startAnswerApi({ kb: dir, keys: [KEY], paceMs: 0, watch: false, kbBaseUrl: 'https://docs.example.com/quokka', log: (line) => logs.push(line), ...options });
  const answer = async (target: RunningAnswerApi, message: string): Promise<AnswerResponse> => {
    const response = await ask(target, { message, bot_id: 'demo' });
    assert.equal(response.status, 200);
    return (await response.json()) as AnswerResponse;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'answer-docs-'));
    await writeDocsSite(dir);
    api = await start({ kbAppName: 'Quokka Docs' });
  });
  after(async () => {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves every readable file, and logs each one it skips with the reason', () => {
    assert.equal(api.bots[0]!.documents, 7);
    const skipped = logs.filter((line) => line.includes('skipped'));
    assert.equal(skipped.length, 3, skipped.join('\n'));
    assert.ok(skipped.some((line) => /skipped bad-bytes\.md in .*: not valid UTF-8 text/.test(line)));
    assert.ok(skipped.some((line) => /skipped bad-yaml\.md in .*: front-matter is not valid YAML/.test(line)));
    assert.ok(skipped.some((line) => /skipped dangling\.md in .*: cannot be read: ENOENT/.test(line)));
  });

  it('cites a file by the docs-site URL of its section, with its first heading as title and its time', async () => {
    const result = await answer(api, 'How do I roll back an upgrade?');
    assert.equal(result.answer_found, true);
    assert.deepEqual(result.sources[0], {
      title: 'Installing Quokka › Rolling back an upgrade',
      url: 'https://docs.example.com/quokka/guide/installing#rolling-back-an-upgrade',
      app_name: 'Quokka Docs',
      modified_time: Date.parse('2026-01-02T03:04:05Z') / 1000,
      snippet: 'To downgrade, reinstall the previous tarball with quokka pin.',
    });
    assert.ok(result.answer.includes('[[1]](https://docs.example.com/quokka/guide/installing#rolling-back-an-upgrade)'));
    const second = await answer(api, 'teapot');
    assert.equal(second.sources[0]?.url, 'https://docs.example.com/quokka/guide/installing#requirements-1', 'a repeated heading gets -1');
  });

  it('an index or README stands for its folder; a folder named x.md is a folder', async () => {
    assert.equal((await answer(api, 'marsupial photographs queue')).sources[0]?.url, 'https://docs.example.com/quokka/');
    const readme = await answer(api, 'wombat herding');
    assert.equal(readme.sources[0]?.url, 'https://docs.example.com/quokka/guide/');
    assert.equal(readme.sources[0]?.title, 'guide');
    assert.equal((await answer(api, 'bilby page')).sources[0]?.url, 'https://docs.example.com/quokka/odd.md/inner');
  });

  it('front-matter wins over what the file says, and its URL gets no anchor by default', async () => {
    const result = await answer(api, 'What do numbats eat?');
    assert.equal(result.sources[0]?.url, 'https://wiki.example.com/numbats');
    assert.equal(result.sources[0]?.title, 'Numbat notes');
    assert.equal(result.sources[0]?.app_name, 'Wiki');
  });

  it('reads MDX without its imports, exports, comments and component tags, keeping their text and code blocks', async () => {
    const result = await answer(api, 'platypus uploads');
    assert.equal(result.sources[0]?.url, 'https://docs.example.com/quokka/api/client#platypus-uploads');
    assert.ok(result.answer.includes('Upload a platypus picture with the client uploader.'));
    assert.ok(result.answer.includes("```jsx\nimport Keep from 'keep';\n<Tabs>kept inside code</Tabs>\n```"), result.answer);
    for (const gone of ['@theme', 'TabItem', 'groupId', 'echidnas', '<Note', 'sidebar']) assert.ok(!result.answer.replace(/```[\s\S]*```/, '').includes(gone), gone);
    assert.equal((await answer(api, 'echidnas')).answer_found, false);
  });

  it('drops a component tag whose attribute is a template literal over lines, an `export` line within it', async () => {
    const result = await answer(api, 'How do bandicoots sign?');
    assert.equal(result.sources[0]?.url, 'https://docs.example.com/quokka/api/client#bandicoot-signatures');
    assert.ok(result.answer.includes('Bandicoots sign with a paw print.'), result.answer);
    for (const gone of ['TSDoc', 'definition', 'interface Bandicoot', 'paw: string', 'export default']) assert.ok(!result.answer.includes(gone), gone);
  });

  it('anchors off: sources are pages; on: front-matter URLs get them too', async () => {
    const off = await start({ kbAnchors: false, kbUrlExtension: '.html' });
    const on = await start({ kbAnchors: true });
    try {
      assert.equal((await answer(off, 'How do I roll back an upgrade?')).sources[0]?.url, 'https://docs.example.com/quokka/guide/installing.html');
      assert.equal((await answer(off, 'How do I roll back an upgrade?')).sources[0]?.title, 'Installing Quokka');
      assert.equal((await answer(on, 'What do numbats eat?')).sources[0]?.url, 'https://wiki.example.com/numbats#feeding-numbats');
      assert.equal((await answer(on, 'Where do quolls sleep?')).sources[0]?.url, 'https://wiki.example.com/dasyurids#quolls', 'a URL with a fragment keeps it');
      assert.equal((await answer(off, 'What do numbats eat?')).sources[0]?.app_name, 'Wiki');
    } finally {
      await Promise.all([off.close(), on.close()]);
    }
  });

  it('the app name defaults to the folder name', async () => {
    const plain = await start();
    try {
      assert.equal((await answer(plain, 'wombat herding')).sources[0]?.app_name, dir.split('/').pop());
    } finally {
      await plain.close();
    }
  });

  it('without a base URL, start fails naming the file and the setting that fixes it', async () => {
    await assert.rejects(start({ kbBaseUrl: undefined }), /^KnowledgeBaseError: api\/client\.mdx: no URL to cite it by: set ANSWER_KB_BASE_URL to the address the folder is published at, or give the file a "url" in its front-matter \(and 4 more files in /);
    await assert.rejects(start({ kbBaseUrl: 'javascript:alert(1)' }), /ANSWER_KB_BASE_URL must be an http\(s\) URL/);
  });
});

describe('links quoted from a page, read on another site', () => {
  let dir: string;
  const start = (options: AnswerApiOptions = {}): Promise<RunningAnswerApi> =>
    startAnswerApi({ kb: dir, keys: [KEY], paceMs: 0, watch: false, kbBaseUrl: 'https://docs.example.com/kiwi/', ...options });
  const answerOf = async (target: RunningAnswerApi, message: string, inline_sources = false): Promise<string> => {
    const response = await ask(target, { message, bot_id: 'demo', inline_sources });
    assert.equal(response.status, 200);
    const body = (await response.json()) as AnswerResponse;
    assert.equal(body.answer_found, true);
    return body.answer;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'answer-links-'));
    await mkdir(join(dir, 'guide'), { recursive: true });
    await mkdir(join(dir, 'api'), { recursive: true });
    await writeFile(
      join(dir, 'guide', 'feeding.md'),
      [
        '# Feeding kiwis',
        '',
        '## Night feeding',
        '',
        'Kiwis feed at night: see [the burrow page](./burrows.md#night-shifts), the [feeder API](../api/feeder.mdx), [the index](../README.md),',
        'the [next section](#day-feeding), [a picture](../img/kiwi%20night.png "A kiwi"), [the spec](https://example.org/spec.md),',
        'a [referenced page][ref], [mail](mailto:kiwi@example.com), ![a chart](chart.svg), [the changes](../../CHANGELOG.md#v2),',
        '[the licence](../../LICENSE), [the burrows from the root](/kiwi/guide/burrows.md#night-shifts), [the shop](/shop/kiwi.md)',
        'and [a bad one](%zz.md), [another](/kiwi/%zz.md).',
        '',
        '[ref]: ./burrows.md',
        '',
        '## Day feeding',
        '',
        'Kiwis sleep by day.',
      ].join('\n'),
    );
    await writeFile(join(dir, 'guide', 'burrows.md'), '# Burrows\n\n## Night shifts\n\nKiwi burrows have night shifts.\n');
    await writeFile(join(dir, 'api', 'feeder.mdx'), '# Feeder\n\nThe feeder API.\n');
    await writeFile(join(dir, 'README.md'), '# Kiwi docs\n\nAll about kiwis.\n');
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("points each link at its target's published URL, not the visitor's page", async () => {
    const api = await start({ kbUrlExtension: '.html' });
    try {
      const answer = await answerOf(api, 'When do kiwis feed at night?');
      const base = 'https://docs.example.com/kiwi/';
      for (const expected of [
        `[the burrow page](${base}guide/burrows.html#night-shifts)`,
        `[feeder API](${base}api/feeder.html)`,
        `[the index](${base})`,
        `[next section](${base}guide/feeding.html#day-feeding)`,
        `[a picture](${base}img/kiwi%20night.png "A kiwi")`,
        '[the spec](https://example.org/spec.md)',
        `[referenced page](${base}guide/burrows.html)`,
        '[mail](mailto:kiwi@example.com)',
        `![a chart](${base}guide/chart.svg)`,
        // Above the folder's root: as far above the base URL (the site's other pages), not the folder's index.
        '[the changes](https://docs.example.com/CHANGELOG.html#v2)',
        '[the licence](https://docs.example.com/LICENSE)',
        // Written from the site's root: a page of the folder as when written from the page; elsewhere on the site as written.
        `[the burrows from the root](${base}guide/burrows.html#night-shifts)`,
        '[the shop](https://docs.example.com/shop/kiwi.md)',
      ]) assert.ok(answer.includes(expected), `${expected} in:\n${answer}`);
      assert.ok(answer.includes('and a bad one, another.'), 'a target no URL can be made of keeps its text, without the link');
      assert.ok(!/\]\((?!https:|mailto:)/.test(answer), `no link left relative:\n${answer}`);
    } finally {
      await api.close();
    }
  });

  it('follows the extension setting, as the citations do', async () => {
    const api = await start();
    try {
      const answer = await answerOf(api, 'When do kiwis feed at night?', true);
      assert.ok(answer.includes('[the burrow page](https://docs.example.com/kiwi/guide/burrows#night-shifts)'), answer);
      assert.ok(answer.includes('[[1]](https://docs.example.com/kiwi/guide/feeding#night-feeding)'), answer);
    } finally {
      await api.close();
    }
  });
});

describe('compound and split forms of a word', () => {
  let dir: string;
  let api: RunningAnswerApi;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'answer-compounds-'));
    const docs: Record<string, string> = {
      'deploys.md': '# Deploys\n\n## Rollback\n\nA rollback restores the previous release of the quokka service.\n',
      'releases.md': '# Releases\n\nTo roll back a wombat release, run the revert command.\n',
      'accounts.md': '# Accounts\n\nTo log in, open the numbat portal and enter your badge number.\n',
      'workstations.md': '# Workstations\n\nThe setup of a bilby workstation takes one afternoon.\n',
      'contact.md': '# Contact\n\nSend an e-mail to the potoroo office.\n',
      'kettles.md': '# Kettles\n\nFill the kettle with water.\n',
    };
    for (const [name, text] of Object.entries(docs)) await writeFile(join(dir, name), text);
    api = await startAnswerApi({ kb: dir, keys: [KEY], watch: false, kbBaseUrl: 'https://docs.example.com/' });
  });
  after(async () => {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  });

  const cases: Array<[string, string]> = [
    ['How do I roll back the quokka service?', 'https://docs.example.com/deploys#rollback'],
    ['wombat rollback', 'https://docs.example.com/releases'],
    ['numbat portal login', 'https://docs.example.com/accounts'],
    ['How do I set up a bilby workstation?', 'https://docs.example.com/workstations'],
    ['What is the email of the potoroo office?', 'https://docs.example.com/contact'],
  ];
  for (const [question, url] of cases) {
    it(`"${question}" finds the page that writes it the other way`, async () => {
      const result = (await (await ask(api, { message: question, bot_id: 'demo' })).json()) as AnswerResponse;
      // Found: the page comes first when answered; not sure (two words, a page titled "Rollback"
      // scoring best though it matches one), it is among the related pages, after that page.
      if (result.answer_found) assert.equal(result.sources[0]?.url, url);
      else assert.ok(result.sources.slice(0, 2).some((source) => source.url === url), JSON.stringify(result.sources.map((source) => source.url)));
    });
  }

  it('a stop word and the next word are no compound ("the kettle" is not "thekettle")', async () => {
    const result = (await (await ask(api, { message: 'thekettle', bot_id: 'demo' })).json()) as AnswerResponse;
    assert.equal(result.answer_found, false);
  });
});

describe('a folder of one page', () => {
  let dir: string;
  let api: RunningAnswerApi;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'answer-one-page-'));
    await writeFile(join(dir, 'deploys.md'), '# Deploys\n\nRun `deploy rollback` to put the previous release of the quokka service back.\n');
    api = await startAnswerApi({ kb: dir, keys: [KEY], watch: false, kbBaseUrl: 'https://docs.example.com/' });
  });
  after(async () => {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  });

  // Every word is in every passage here, so rarity cannot tell words apart: a matched word still counts.
  it('answers a one-word question from it, and refuses one it does not cover', async () => {
    const found = (await (await ask(api, { message: 'rollback?', bot_id: 'demo' })).json()) as AnswerResponse;
    assert.equal(found.answer_found, true);
    assert.equal(found.sources[0]?.url, 'https://docs.example.com/deploys');
    const missed = (await (await ask(api, { message: 'How do I bake sourdough bread?', bot_id: 'demo' })).json()) as AnswerResponse;
    assert.equal(missed.answer_found, false);
  });
});
