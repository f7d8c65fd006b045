import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SearchResponse } from '../../packages/bot-answer/src/protocol/search.js';
import { startAnswerApi, type RunningAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { KEY } from './helpers.js';

const REVOKED = 'revoked-key-0123456';
const HOSTILE_TITLE = '<img src=x onerror=alert(1)> Leave & "perks" **now**';

const GUIDE = `# Leave guide

Everything about time off.

## Sabbatical

After **five years**, a <b>four-week</b> paid [sabbatical](https://example.com/s) on top of \`vacation\`.
<div class="note">Ask &amp; plan early: 😀 sabbaticals need approval.</div>

## Parental leave

Sixteen weeks for every parent. See the sabbatical rules for combining them.

## Input validation

Requests are validated against the schema before the handler runs.

## Hooks

The \`onRequest\` hook runs first; \`preHandler\` runs later.
`;

const WIDGETS = Array.from({ length: 10 }, (_, i) => `## Widget part ${i + 1}\n\nThe widget assembly step ${i + 1}.\n`).join('\n');

describe('GET /v1/search (local Answer API)', () => {
  let dir: string;
  let index: string;
  let api: RunningAnswerApi;
  const search = (query: string, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }, init: RequestInit = {}): Promise<Response> =>
    fetch(`${api.url}/v1/search?${query}`, { headers, ...init });
  const results = async (query: string): Promise<SearchResponse['results']> => {
    const response = await search(query);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    return ((await response.json()) as SearchResponse).results;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'search-kb-'));
    index = await mkdtemp(join(tmpdir(), 'search-index-'));
    await writeFile(join(dir, 'guide.md'), GUIDE);
    await writeFile(join(dir, 'widgets.md'), `# Widgets\n\n${WIDGETS}`);
    await writeFile(join(dir, 'quotas.md'), '# Quotas\n\nHow much storage each team may use, and how to ask for more.\n');
    await writeFile(join(dir, 'billing.md'), '# Billing\n\nInvoices go out monthly. Storage beyond the quotas is billed by the gigabyte, and so is traffic.\n');
    await writeFile(join(dir, 'repairs.md'), '# Repairs\n\nA dripping tap is fixed within a week.\n');
    // One word each, each in one passage: as rare in these docs, not in English.
    await writeFile(join(dir, 'announcements.md'), '# Announcements\n\nWe send the newsletter out.\n');
    await writeFile(join(dir, 'integrations.md'), '# Integrations\n\nA webhook posts each order.\n');
    await writeFile(join(dir, 'tools.md'), '# Tools\n\nThe quuxbar runs nightly.\n');
    // `findOne` named in one page; "find" (its other part, "one", is a stop word) all over another.
    await writeFile(join(dir, 'lookups.md'), '# Lookups\n\nCall `findOne()` for a single record.\n');
    await writeFile(join(dir, 'finding.md'), '# Finding\n\nFind a record, find a list, find the first: find what you need.\n');
    // The same option copied on two commands' pages, and a page of its own about it.
    const dryRun = '## Frobnicate dry run\n\nReports what frobnicating would change, and changes nothing.\n';
    await writeFile(join(dir, 'frob-build.md'), `# Frob build\n\nBuilds the frobs.\n\n${dryRun}`);
    await writeFile(join(dir, 'frob-ship.md'), `# Frob ship\n\nShips the frobs.\n\n${dryRun}`);
    await writeFile(join(dir, 'frob-plans.md'), '# Frob plans\n\nA dry run of a frobnicate plan, before it changes anything.\n');
    // A word a page's prose is about, and another page names once as code.
    await writeFile(join(dir, 'fleet-config.md'), '# Fleet config\n\nSet `zorbling` in the fleet file.\n');
    await writeFile(join(dir, 'spreading.md'), '# Spreading\n\nZorbling spreads jobs; zorbling evens them.\n');
    // A word one page says, and a word most pet pages say.
    await writeFile(join(dir, 'garden.md'), '# Garden\n\nThe gazebo stands by the pond.\n');
    for (const page of ['boarding', 'grooming', 'walking', 'daycare', 'training']) await writeFile(join(dir, `pets-${page}.md`), `# Pets ${page}\n\nThe kennel opens at eight for ${page}.\n`);
    // A number one page says, and a word another says: each in one passage.
    await writeFile(join(dir, 'juniors.md'), '# Juniors\n\nChildren from 14 may swim alone.\n');
    await writeFile(join(dir, 'small-pets.md'), '# Small pets\n\nA ferret may stay the night.\n');
    // The same words on two pages, next to each other on one (the page later by path).
    await writeFile(join(dir, 'lanes-east.md'), '# Lanes east\n\nSwimwear belongs downstairs where lifeguards distribute kickboards.\n');
    await writeFile(join(dir, 'lanes-west.md'), '# Lanes west\n\nSwimwear and kickboards belongs downstairs where lifeguards distribute.\n');
    // The same words close together on two pages, one after the other in the order typed on one (the page later by path).
    await writeFile(join(dir, 'pool-a.md'), '# Pool a\n\nSunbeds beside parasols stay shaded.\n');
    await writeFile(join(dir, 'pool-b.md'), '# Pool b\n\nParasols sunbeds beside shaded stay.\n');
    // A page whose title is one word, and a page saying the word more under a longer title.
    await writeFile(join(dir, 'aquarium.md'), '# Aquarium\n\nThe tank holds tropical fish, and a filter keeps the water clean.\n');
    await writeFile(join(dir, 'aquarium-lamps.md'), '# Aquarium lamps and heaters\n\nWhich lamp an aquarium needs, and how warm to keep an aquarium.\n');
    // Words a visitor may write another way ("practise") or shorter ("defib") than the docs do.
    await writeFile(join(dir, 'rehearsals.md'), '# Rehearsals\n\nBand practice is on Fridays.\n');
    await writeFile(join(dir, 'first-aid.md'), '# First aid\n\nA defibrillator hangs by the door.\n');
    await writeFile(join(dir, 'perks.md'), `---\ntitle: '${HOSTILE_TITLE.replace(/'/g, "''")}'\nurl: https://wiki.example.com/perks\n---\n\nThe company gym and the quarterly offsite.\n`);
    api = await startAnswerApi({ kb: dir, kbBaseUrl: 'https://docs.example.com/', kbIndex: index, keys: [KEY], revokedKeys: [REVOKED], watch: false });
  });
  after(async () => {
    await api.close();
    await rm(dir, { recursive: true, force: true });
    await rm(index, { recursive: true, force: true });
  });

  for (const [name, headers] of [
    ['no key', {}],
    ['an unknown key', { authorization: 'Bearer not-a-key' }],
    ['a revoked key', { authorization: `Bearer ${REVOKED}` }],
  ] as Array<[string, Record<string, string>]>) {
    it(`401 with ${name}, as answers do`, async () => {
      const response = await search('bot_id=demo&q=sabbat', headers);
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), 'Bearer');
      assert.equal(typeof ((await response.json()) as { detail: unknown }).detail, 'string');
    });
  }

  for (const [name, query, field] of [
    ['an empty q', 'bot_id=demo&q=', 'q'],
    ['a blank q', 'bot_id=demo&q=%20%20', 'q'],
    ['no q', 'bot_id=demo', 'q'],
    ['a q of 201 characters', `bot_id=demo&q=${'😀'.repeat(201)}`, 'q'],
    ['no bot_id', 'q=sabbat', 'bot_id'],
    ['limit 0', 'bot_id=demo&q=sabbat&limit=0', 'limit'],
    ['limit 21', 'bot_id=demo&q=sabbat&limit=21', 'limit'],
    ['a limit that is not a number', 'bot_id=demo&q=sabbat&limit=six', 'limit'],
  ] as const) {
    it(`400 for ${name}, naming the field`, async () => {
      const response = await search(query);
      assert.equal(response.status, 400);
      const body = (await response.json()) as { detail: Array<{ loc: string[]; msg: string }> };
      assert.deepEqual(body.detail.map((d) => d.loc), [['query', field]]);
      assert.ok(body.detail[0]!.msg.length > 0);
    });
  }

  it('takes 200 characters (code points, not UTF-16 units)', async () => {
    assert.deepEqual(await results(`bot_id=demo&q=${encodeURIComponent('😀'.repeat(200))}`), []);
  });

  it('404 for an unknown bot, 405 for another method', async () => {
    const unknown = await search('bot_id=nobody&q=sabbat');
    assert.equal(unknown.status, 404);
    assert.deepEqual(await unknown.json(), { detail: 'Bot not found' });
    const post = await search('bot_id=demo&q=sabbat', { authorization: `Bearer ${KEY}` }, { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET');
  });

  it('matches the last word as the beginning of a word: "sabbat" finds the sabbatical', async () => {
    for (const typed of ['sabbat', 'sabba', 'Sabbatical', 'sabbaticals', 'paid sabb']) {
      const hits = await results(`bot_id=demo&q=${encodeURIComponent(typed)}`);
      assert.equal(hits[0]?.title, 'Leave guide › Sabbatical', typed);
      assert.equal(hits[0]?.url, 'https://docs.example.com/guide#sabbatical', 'the URL answers cite: the page and the section');
    }
    // A complete word (a space after it) the docs use is not a beginning: "swim" is not "swimwear".
    assert.deepEqual((await results('bot_id=demo&q=swim%20')).map((hit) => hit.title), ['Juniors']);
  });

  it('matches a word being typed by its first 4 letters in the text too ("appr": approval)', async () => {
    const hits = await results('bot_id=demo&q=appr');
    assert.equal(hits[0]?.title, 'Leave guide › Sabbatical');
    assert.deepEqual(hits[0]!.highlights.map(([s, e]) => hits[0]!.snippet.slice(s, e)), ['approval']);
  });

  it('with three words or more, none held but one, finds the sections holding the most of them', async () => {
    const hits = await results('bot_id=demo&q=sure%20sabbatical%20neve');
    assert.equal(hits[0]?.title, 'Leave guide › Sabbatical');
    assert.ok(hits.every((hit) => hit.highlights.length > 0), 'each hit shows a word typed');
  });

  it('ranks a page whose title holds the word before one whose text does', async () => {
    const hits = await results('bot_id=demo&q=quota');
    assert.deepEqual(hits.map((hit) => hit.title), ['Quotas', 'Billing']);
  });

  it('when few sections hold all the words but one, shows those holding fewer too: a rare word the docs use', async () => {
    // Only "Parental leave" holds two of the three words; the repairs page holds the word being typed alone.
    const hits = await results('bot_id=demo&q=sixteen%20parent%20drippi');
    assert.equal(hits[0]?.title, 'Leave guide › Parental leave');
    assert.ok(hits.some((hit) => hit.title === 'Repairs'), hits.map((hit) => hit.title).join(', '));
  });

  it('of two words as rare in the docs, ranks first the section holding the one rarer in English', async () => {
    // Without English rarity the two tie, and the page first by path ("announcements") would come first.
    const hits = await results('bot_id=demo&q=send%20webhook%20');
    assert.deepEqual(hits.map((hit) => hit.title), ['Integrations', 'Announcements']);
  });

  it('weighs a word being typed by the English rarity of the word it most often begins ("quux": quuxbar, no English word)', async () => {
    // As a word of average frequency, "quux" would weigh less than "webhook" and the integrations page would come first.
    const hits = await results('bot_id=demo&q=webhook%20quux');
    assert.deepEqual(hits.map((hit) => hit.title), ['Tools', 'Integrations']);
  });

  it('weighs a word being typed by how many pages hold the word it most often begins: one most pages say tells little', async () => {
    // As a word in one passage of 100, "kenn" (kennel) would weigh more than "gazebo" and a kennel page would come first.
    const hits = await results('bot_id=demo&q=gazebo%20kenn');
    assert.equal(hits[0]?.title, 'Garden', hits.map((hit) => hit.title).join(', '));
    assert.ok(hits.slice(1).every((hit) => hit.title.startsWith('Pets ')), hits.map((hit) => hit.title).join(', '));
  });

  it('weighs a number as a word of average frequency in English, not as a name', async () => {
    // The English word list counts no numerals: as a word it lacks, "14" would weigh more than "ferret" and the juniors page would come first.
    const hits = await results('bot_id=demo&q=14%20ferret%20');
    assert.deepEqual(hits.map((hit) => hit.title), ['Small pets', 'Juniors']);
  });

  it('of sections holding the same words as often, ranks first the one saying them close together', async () => {
    // Without nearness the two tie, and the page first by path ("lanes-east", the words a sentence apart) would come first.
    const hits = await results('bot_id=demo&q=swimwear%20kickboards%20');
    assert.deepEqual(hits.map((hit) => hit.title), ['Lanes west', 'Lanes east']);
  });

  it('of sections saying the same words close together, ranks first the one saying them one after the other as typed', async () => {
    // Without the words' order the two tie, and the page first by path ("pool-a", "sunbeds beside parasols") would come first.
    const hits = await results('bot_id=demo&q=parasols%20sunbeds%20');
    assert.deepEqual(hits.map((hit) => hit.title), ['Pool b', 'Pool a']);
  });

  it('ranks a page whose title is the typed word before one saying it more under a longer title', async () => {
    // Without the title's share typed, the lamps page (the word twice in its text) would come first.
    assert.deepEqual((await results('bot_id=demo&q=aquarium%20')).map((hit) => hit.title), ['Aquarium', 'Aquarium lamps and heaters']);
    assert.deepEqual((await results('bot_id=demo&q=lamp%20aquar')).map((hit) => hit.title), ['Aquarium lamps and heaters', 'Aquarium']);
  });

  it('a word typed past its stem still matches ("validat" finds "validation")', async () => {
    const hits = await results('bot_id=demo&q=validat');
    assert.equal(hits[0]?.title, 'Leave guide › Input validation');
  });

  it('matches a whole word the docs lack as the word one letter from it they use, or the words it begins, as answers do', async () => {
    assert.deepEqual((await results('bot_id=demo&q=practise%20')).map((hit) => hit.title), ['Rehearsals']);
    assert.deepEqual((await results('bot_id=demo&q=defib%20')).map((hit) => hit.title), ['First aid']);
    assert.equal((await results('bot_id=demo&q=sabba%20'))[0]?.title, 'Leave guide › Sabbatical');
  });

  it('reads identifiers as the analyzer does: "onReq" finds `onRequest`', async () => {
    const hits = await results('bot_id=demo&q=onReq');
    assert.equal(hits[0]?.title, 'Leave guide › Hooks');
    const [start, end] = hits[0]!.highlights[0]!;
    assert.equal(hits[0]!.snippet.slice(start, end), 'onRequest');
  });

  it('reads a whole identifier as a word of its own: "findOne" finds the page naming it before one saying "find" often', async () => {
    const hits = await results('bot_id=demo&q=findOne%20');
    assert.deepEqual(hits.map((hit) => hit.title), ['Lookups', 'Finding']);
    assert.deepEqual(hits[0]!.highlights.map(([s, e]) => hits[0]!.snippet.slice(s, e)), ['findOne']);
  });

  it("shows a section's text copied on another page once, so the first hits are different texts", async () => {
    const hits = await results('bot_id=demo&q=frobnicate%20dry%20ru');
    const copies = hits.filter((hit) => hit.title.endsWith('› Frobnicate dry run'));
    assert.equal(copies.length, 1, hits.map((hit) => hit.title).join(', '));
    assert.ok(hits.slice(0, 2).some((hit) => hit.title === 'Frob plans'), hits.map((hit) => hit.title).join(', '));
  });

  it('ranks a page whose prose says the word twice before one naming it once as code', async () => {
    const hits = await results('bot_id=demo&q=zorbl');
    assert.deepEqual(hits.map((hit) => hit.title), ['Spreading', 'Fleet config']);
  });

  it('gives one result per section, at most limit (default 6, up to 20)', async () => {
    const six = await results('bot_id=demo&q=widg');
    assert.equal(six.length, 6);
    assert.equal(new Set(six.map((r) => r.url)).size, 6, 'each result a section of its own');
    assert.ok(six.every((r) => /^Widgets › Widget part \d+$/.test(r.title)));
    assert.equal((await results('bot_id=demo&q=widg&limit=3')).length, 3);
    assert.equal((await results('bot_id=demo&q=widg&limit=20')).length, 10);
    const twice = await results('bot_id=demo&q=sabbatical');
    assert.equal(new Set(twice.map((r) => r.title)).size, twice.length);
    assert.deepEqual(twice.map((r) => r.title).sort(), ['Leave guide › Parental leave', 'Leave guide › Sabbatical']);
  });

  it('highlights the matched words by UTF-16 ranges of the snippet, in order', async () => {
    for (const hit of await results('bot_id=demo&q=approval%20sabbat')) {
      let last = 0;
      assert.ok(hit.highlights.length > 0);
      for (const [start, end] of hit.highlights) {
        assert.ok(Number.isInteger(start) && start >= last && end > start && end <= hit.snippet.length);
        assert.match(hit.snippet.slice(start, end), /^(sabbat\w*|approval)$/i);
        last = end;
      }
    }
    const [sabbatical] = await results('bot_id=demo&q=approval');
    // An emoji (two UTF-16 code units) before the word: the range still slices the word exactly.
    assert.ok(sabbatical!.snippet.includes('😀 sabbaticals need approval'));
    const words = sabbatical!.highlights.map(([s, e]) => sabbatical!.snippet.slice(s, e));
    assert.deepEqual(words, ['approval']);
  });

  it('gives plain text: no Markdown or HTML of the page in the snippet', async () => {
    const [hit] = await results('bot_id=demo&q=sabbat');
    assert.equal(hit!.snippet, 'After five years, a four-week paid sabbatical on top of vacation. Ask & plan early: 😀 sabbaticals need approval.');
    assert.doesNotMatch(hit!.snippet, /[*`<>[\]]|&amp;/);
  });

  it('keeps a hostile title as the plain text it is', async () => {
    const [hit] = await results('bot_id=demo&q=gym');
    assert.equal(hit!.title, HOSTILE_TITLE);
    assert.equal(hit!.url, 'https://wiki.example.com/perks');
  });

  it('finds nothing for stop words alone or words it lacks', async () => {
    assert.deepEqual(await results('bot_id=demo&q=how%20do%20I'), []);
    assert.deepEqual(await results('bot_id=demo&q=kubernetes%20clus'), []);
  });
});
