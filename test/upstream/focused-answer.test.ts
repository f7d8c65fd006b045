import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Lexer, type Token } from 'marked';
import type { AnswerResponse } from '../../packages/bot-answer/src/protocol/types.js';
import { composeAnswer } from '../../packages/bot-answer-engine/src/upstream/compose/extractive.js';
import { sentencesOf } from '../../packages/bot-answer-engine/src/upstream/compose/passage-units.js';
import { linkDefinitions } from '../../packages/bot-answer-engine/src/upstream/folder/clean-markdown.js';
import type { KbDocument, Passage } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { loadBots } from '../../packages/bot-answer-engine/src/upstream/bots.js';
import { startAnswerApi, type RunningAnswerApi } from '../../packages/bot-answer-engine/src/upstream/index.js';
import { ask, FIXTURES, KEY } from './helpers.js';

const URL = 'https://docs.example.com/guide';

function doc(body: string, index = 0, title = 'Guide'): KbDocument {
  return { index, path: `${title}.md`, body, anchors: true, links: linkDefinitions(body), source: { title, url: `${URL}/${index}` } };
}

/** A passage of `document` at position `index` of the knowledge base. */
function passage(document: KbDocument, index: number, headings: string[], markdown: string): Passage {
  return { index, document, headings, markdown, url: `${document.source.url}#${headings.join('-').toLowerCase().replace(/\W+/g, '-')}` };
}

/** Every fenced block of the answer closes, and every table keeps its header: lexing finds no stray fence. */
function assertValidMarkdown(markdown: string): void {
  const fences = markdown.split('\n').filter((line) => /^\s*```/.test(line));
  assert.equal(fences.length % 2, 0, `unclosed fence in:\n${markdown}`);
  const walk = (tokens: Token[]): void => {
    for (const token of tokens) {
      if (token.type === 'table') assert.ok((token as { header: unknown[] }).header.length > 0);
      if ('tokens' in token && token.tokens) walk(token.tokens);
      if (token.type === 'list') for (const item of (token as { items: Array<{ tokens: Token[] }> }).items) walk(item.tokens);
    }
  };
  walk(new Lexer({ gfm: true }).lex(markdown));
}

// Filler states no fact (no number, code or bold): an answer brings such a sentence only for its words.
const LONG_PROSE = Array.from({ length: 12 }, (_, i) => `Filler sentence ${'abcdefghijkl'[i]} talks about the weather in general terms.`).join(' ');

describe('focused answers', () => {
  it('quotes the sentence that holds the question, under the heading path, with its citation', () => {
    const d = doc('');
    const p = passage(
      d,
      0,
      ['Client', 'Options'],
      `${LONG_PROSE}\n\nThe socket closes after the keepalive interval has passed. ${LONG_PROSE}`,
    );
    const { answer, sources } = composeAnswer([p], true, 'When does the socket close?');
    assert.equal(answer, `**Guide › Client › Options** [[1]](${p.url})\n\nThe socket closes after the keepalive interval has passed.`);
    assert.equal(sources[0]!.url, p.url);
    assertValidMarkdown(answer);
  });

  it('quotes the best passage first, its page\'s others after it in page order, then the next page', () => {
    const d = doc('');
    const other = doc('', 1, 'Other');
    const late = passage(d, 7, ['Late'], `${LONG_PROSE}\n\nQuokka rotation happens weekly.`);
    const early = passage(d, 2, ['Early'], `Quokka feeding happens daily. Wombats are elsewhere.\n\n${LONG_PROSE}\n\nQuokka naps are long.`);
    const middle = passage(d, 4, ['Middle'], 'Quokka weighing happens monthly.');
    const third = passage(other, 9, ['Third'], 'Quokka photos go to the shared folder.');
    const { answer, sources } = composeAnswer([late, third, middle, early], true, 'quokka');
    const order = ['Guide › Late', 'Quokka rotation', 'Guide › Early', 'Quokka feeding', 'Quokka naps', 'Guide › Middle', 'Quokka weighing', 'Other › Third', 'Quokka photos'].map((text) => answer.indexOf(text));
    assert.deepEqual([...order].sort((a, b) => a - b), order, answer);
    assert.ok(order.every((at) => at >= 0));
    assert.deepEqual(sources.map((s) => s.url), [late.url, early.url, middle.url, third.url], 'sources numbered as first cited');
    assert.ok(!answer.includes('Wombats'), 'a sentence without the term is left out');
  });

  it('keeps a page in page order when its best passage comes first there', () => {
    const d = doc('');
    const early = passage(d, 2, ['Early'], 'Quokka feeding happens daily.');
    const late = passage(d, 7, ['Late'], 'Quokka rotation happens weekly.');
    const { answer } = composeAnswer([early, late], false, 'quokka');
    assert.ok(answer.indexOf('Guide › Early') < answer.indexOf('Guide › Late'), answer);
  });

  it('keeps a table header above the matching rows, and leaves the other rows out', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `| City ${i} | €${100 + i} |`);
    rows[23] = '| Lisbon | €190 |';
    const table = ['| City | Hotel per night |', '|------|-----------------|', ...rows].join('\n');
    const p = passage(doc(''), 0, ['Allowances'], `Allowances depend on the city.\n\n${table}`);
    const { answer } = composeAnswer([p], true, 'What is the hotel allowance in Lisbon?');
    assert.ok(answer.includes('| City | Hotel per night |\n|------|-----------------|\n| Lisbon | €190 |'), answer);
    assert.ok(!answer.includes('City 22') && !answer.includes('City 24'), answer);
    assertValidMarkdown(answer);
  });

  it('brings the code block that follows a matching sentence', () => {
    const code = '```js\nconst client = new Client(url, { timeout: 5000 });\n```';
    const p = passage(doc(''), 0, ['Client'], `${LONG_PROSE}\n\nTo give up on a slow server, set a timeout:\n\n${code}\n\n${LONG_PROSE}\n\n\`\`\`js\nunrelated()\n\`\`\``);
    const { answer } = composeAnswer([p], true, 'How do I set a timeout?');
    assert.ok(answer.includes(`To give up on a slow server, set a timeout:\n\n${code}`), answer);
    assert.ok(!answer.includes('unrelated()'), answer);
    assertValidMarkdown(answer);
  });

  it('brings the short code block a quoted paragraph describes, right before it, and not a long one', () => {
    const registers = [
      '    rw brightness: u0.8 / @ intensity',
      'Set the luminosity.',
      '    rw length = 15: u16 # @ 0x81',
      'Specifies the number of pixels in the strip.',
    ].join('\n\n');
    const p = passage(doc(''), 0, ['LED strip', 'Registers'], `${LONG_PROSE}\n\n${registers}\n\n${LONG_PROSE}`);
    const { answer } = composeAnswer([p], true, 'How many pixels are in the strip?');
    assert.ok(/length = 15: u16 # @ 0x81\n(```\n)?\nSpecifies the number of pixels in the strip\./.test(answer), answer);
    assert.ok(!answer.includes('brightness'), answer);
    assertValidMarkdown(answer);
    const example = ['```js', ...Array.from({ length: 8 }, (_, i) => `led.fill(${i}, 'red');`), '```'].join('\n');
    const long = composeAnswer([passage(doc(''), 0, ['Setup'], `${LONG_PROSE}\n\n${example}\n\nSpecifies the number of pixels in the strip.\n\n${LONG_PROSE}`)], true, 'How many pixels are in the strip?');
    assert.ok(long.answer.includes('Specifies the number of pixels'), long.answer);
    assert.ok(!long.answer.includes('led.fill'), long.answer);
  });

  it("keeps a nested item's parents and markers, and numbers of an ordered list", () => {
    const list = [
      '* `url` {string}',
      '* `options` {Object}',
      '  * `agent` {Agent} Controls the agent.',
      '  * `timeout` {number} The socket timeout in milliseconds.',
      '* `callback` {Function}',
      '',
      'Steps:',
      '',
      '1. Open the door.',
      '2. Feed the quokka.',
      '3. Close the door.',
    ].join('\n');
    const p = passage(doc(''), 0, ['`request(url[, options])`'], `${list}\n\n${LONG_PROSE}`);
    const { answer } = composeAnswer([p], true, 'socket timeout');
    assert.ok(answer.includes('* `options` {Object}\n  * `timeout` {number} The socket timeout in milliseconds.'), answer);
    assert.ok(!answer.includes('agent'), answer);
    const steps = composeAnswer([passage(doc(''), 0, ['Steps'], `${list}\n\n${LONG_PROSE}`)], true, 'door');
    assert.ok(steps.answer.endsWith('Steps:\n\n1. Open the door.\n\n…\n\n3. Close the door.'), steps.answer);
    assertValidMarkdown(answer);
    assertValidMarkdown(steps.answer);
  });

  it('stays near 1,200 characters, cutting one long code block between lines with its fence closed', () => {
    const many = Array.from({ length: 60 }, (_, i) => `The quokka rule ${i} says something about quokkas.`).join('\n\n');
    const long = composeAnswer([passage(doc(''), 0, ['Rules'], many)], true, 'quokka rule');
    assert.ok(long.answer.length <= 1300, `${long.answer.length}`);
    const code = ['```js', ...Array.from({ length: 200 }, (_, i) => `quokka(${i});`), '```'].join('\n');
    const big = composeAnswer([passage(doc(''), 0, ['Example'], `Call quokka like this:\n\n${code}`)], true, 'How do I call quokka?');
    assert.ok(big.answer.length <= 1500, `${big.answer.length}`);
    assert.ok(big.answer.includes('quokka(0);') && big.answer.includes('\n…\n```'), big.answer);
    assertValidMarkdown(big.answer);
    assert.throws(() => assertValidMarkdown(big.answer.replace(/```$/, '')), /unclosed fence/, 'control: the check sees a cut fence');
  });

  it('falls back to the opening of a passage where nothing matches beyond its heading', () => {
    const p = passage(doc(''), 0, ['Quokka care'], `First things first: water daily.\n\nSecond, shade.\n\n${LONG_PROSE}\n\n${LONG_PROSE}`);
    const { answer } = composeAnswer([p], true, 'quokka care');
    assert.ok(answer.startsWith(`**Guide › Quokka care** [[1]](${p.url})\n\nFirst things first: water daily.\n\nSecond, shade.`), answer);
    assert.ok(answer.length < 900, `${answer.length}`);
  });

  it('shows a function heading named by the question with its opening sentence', () => {
    const p = passage(doc(''), 0, ['`feed(quokka[, options])`'], `* \`quokka\` {Quokka}\n* \`options\` {Object}\n  * \`portion\` {number} Grams per meal.\n\nFeeds a quokka. ${LONG_PROSE}`);
    const { answer } = composeAnswer([p], true, 'What portion does feed use?');
    assert.ok(answer.includes('`portion` {number} Grams per meal.'), answer);
    assert.ok(answer.includes('Feeds a quokka.'), answer);
  });

  it('quotes nothing twice when two pages say the same', () => {
    const text = 'The `bodyTimeout` option sets the body timeout in milliseconds.';
    const a = passage(doc(''), 0, ['Client'], `${text}\n\nThe headers timeout is separate.`);
    const b = passage(doc('', 1, 'Pool'), 5, ['Pool'], `${text}\n\nA pool shares the timeout.`);
    const { answer } = composeAnswer([a, b], true, 'body timeout');
    assert.equal(answer.split(text).length - 1, 1, answer);
  });

  it('leaves out what the site does not show, resolving links defined elsewhere on the page', () => {
    const body = '## Install\n\nRead [the guide][g].\n\n[g]: https://docs.example.com/g';
    const d = doc(body);
    const p = passage(d, 0, ['Install <a id="install"></a>'], '<!-- YAML\nadded: v1.0.0\n-->\n\nRead [the guide][g] to install quokka.\n\n[![CI](https://img.shields.io/x.svg)](https://ci.example.com)');
    const { answer, sources } = composeAnswer([p], true, 'install quokka');
    assert.equal(answer, `**Guide › Install** [[1]](${p.url})\n\nRead [the guide](https://docs.example.com/g) to install quokka.`);
    assert.equal(sources[0]!.snippet, 'Read the guide to install quokka.');
  });

  it('brings the sentence after a matching one when it states a fact, and not when it does not', () => {
    const d = doc('');
    const p = passage(d, 0, ['Camp'], `${LONG_PROSE}\n\nThe quokka camp lasts three nights. It costs **£180** a member. Tents are shared between members of the same patrol, and the leaders sleep in the cabins beside them.\n\n${LONG_PROSE}\n\nThe quokka walk starts early. Walkers meet at the gate beside the old boathouse.\n\n${LONG_PROSE}`);
    const { answer } = composeAnswer([p], false, 'quokka camp');
    assert.ok(answer.includes('The quokka camp lasts three nights. It costs **£180** a member.'), answer);
    assert.ok(!answer.includes('Tents are shared') && !answer.includes('Walkers meet'), answer);
  });

  it('brings the list that a sentence brought for its fact introduces with a colon', () => {
    const p = passage(doc(''), 0, ['Float grid'], `${LONG_PROSE}\n\nThe quokka grid is off by default.\n\nTo turn it on in version 6.4, you need to:\n\n* import \`quokka-float.css\` in place of \`quokka.css\`;\n* set \`$xy-grid\` to \`false\`.\n\n${LONG_PROSE}`);
    const { answer } = composeAnswer([p], false, 'quokka grid');
    assert.ok(answer.includes('you need to:\n\n* import `quokka-float.css` in place of `quokka.css`;\n* set `$xy-grid` to `false`.'), answer);
    assertValidMarkdown(answer);
  });

  it('does not stop on a question the page asks: the sentence after it, which answers it, comes too', () => {
    const p = passage(doc(''), 0, ['Refresh'], `${LONG_PROSE}\n\nQuokka laptops are replaced on a fixed cycle.\n\n${LONG_PROSE}\n\nBroken before the quokka refresh? Open a ticket and IT lends you a spare one while yours is repaired.\n\n${LONG_PROSE}`);
    const { answer } = composeAnswer([p], false, 'My quokka laptop is broken, when is the refresh?');
    assert.ok(answer.includes('Broken before the quokka refresh? Open a ticket and IT lends you a spare one while yours is repaired.'), answer);
  });

  it('leaves out a question whose answer does not fit, where the passage quotes something else', () => {
    const p = passage(doc(''), 0, ['Refresh'], `${LONG_PROSE}\n\nQuokka laptops are replaced on a fixed cycle.\n\n${LONG_PROSE}\n\nBroken before the quokka refresh? ${'Open a ticket and IT lends you a spare one while yours is repaired, '.repeat(25)}and that is all.\n\n${LONG_PROSE}`);
    const { answer } = composeAnswer([p], false, 'My quokka laptop is broken, when is the refresh?');
    assert.ok(answer.includes('Quokka laptops are replaced on a fixed cycle.'), answer);
    assert.ok(!answer.includes('Broken before the quokka refresh?'), answer);
  });

  it('quotes more of the best passage while the answer is short: the sentence that answers with one of the question words', () => {
    const p = passage(
      doc(''),
      0,
      ['Branding'],
      `You can change the quokka fonts used across every page to match the typography of your brand.\n\n${LONG_PROSE}\n\nOnly Serif Web Fonts are supported, picked from the list that the branding editor shows beside each page.`,
    );
    const { answer } = composeAnswer([p], false, 'Which quokka fonts can I use?');
    assert.equal(
      answer,
      '**Guide › Branding**\n\nYou can change the quokka fonts used across every page to match the typography of your brand.\n\n…\n\nOnly Serif Web Fonts are supported, picked from the list that the branding editor shows beside each page.',
    );
  });

  it('while the answer is still short, fills the holes of its quote with the units stating a fact, not the others', () => {
    const p = passage(
      doc(''),
      0,
      ['Lost quokka property'],
      `If you leave quokka property on a bike, report it in the app as soon as you can.\n\nOur team checks the bike the next time it is in a van.\n\nThings found are taken to the **Harbour Road depot**, open on weekdays.\n\nWe keep quokka property for thirty days after it is found.\n\n${LONG_PROSE}`,
    );
    const { answer } = composeAnswer([p], false, 'Where do I pick up quokka property?');
    assert.ok(answer.includes('Things found are taken to the **Harbour Road depot**, open on weekdays.'), answer);
    assert.ok(!answer.includes('Our team checks'), answer);
  });

  it('quotes the unit stating the figure a "how long" question asks for, beside one of its words', () => {
    const tours = passage(
      doc(''),
      0,
      ['Tours'],
      `Quokka tours leave from the north gate every morning with a guide who knows each quokka on the island by name, who walks the group past the salt lake and the old chapel, who tells the story of the island and of the settlers who farmed it, who points out the nests of the terns in the dunes and the seals on the rocks below the cliffs, and who stops at the lookout above the bay where the whole coast can be seen on a clear day, from the harbour in the south to the reef in the north.\n\n${LONG_PROSE}\n\nA tour lasts **90 minutes**, and walkers should bring water, a hat and sturdy shoes for the rocky paths along the shore.\n\n${LONG_PROSE}`,
    );
    const ferry = passage(
      doc('', 1, 'Ferry'),
      1,
      ['Getting there'],
      `${LONG_PROSE}\n\nThe quokka ferry crosses from the harbour to the island jetty, where the tour guides meet each boat and walk visitors up the hill to the north gate, past the lighthouse and the old salt store, and along the boardwalk over the dunes where the quokkas feed in the shade of the pines before the heat of the afternoon sends them under the scrub again until the evening comes.`,
    );
    const question = 'How long is the quokka tour?';
    assert.ok(composeAnswer([tours, ferry], false, question).answer.includes('A tour lasts **90 minutes**'));
    // Without the question word asking for a figure, the sentence holding both topic words answers alone.
    assert.ok(!composeAnswer([tours, ferry], false, 'Tell me about the quokka tour').answer.includes('90 minutes'));
  });

  it('quotes a name the source wraps across lines on one line, keeping a hard break', () => {
    const p = passage(doc(''), 0, ['Inspector'], 'Open the quokka inspector with `<ctrl> +\n<alt> + i` on any scene.\n\n- The quokka inspector\n  lists the scene graph.\n\nWrite to the quokka keeper at Harbour Road,  \nKelmouth.');
    const { answer } = composeAnswer([p], false, 'How do I open the quokka inspector?');
    assert.ok(answer.includes('Open the quokka inspector with `<ctrl> + <alt> + i` on any scene.'), answer);
    assert.ok(answer.includes('- The quokka inspector lists the scene graph.'), answer);
    assert.ok(composeAnswer([p], false, 'Where is the quokka keeper?').answer.includes('Harbour Road,  \nKelmouth.'));
  });

  it('quotes the first lines of a passage whose opening is a code block too long for the room left, not a bare label', () => {
    const filler = Array.from({ length: 14 }, (_, i) => `Quokka step ${'abcdefghijklmn'[i]} keeps the export going while the space is copied to a file.`).join(' ');
    const guide = passage(doc('', 0, 'Export'), 0, ['Export'], filler);
    const usage = passage(doc('', 1, 'Usage'), 1, ['Usage'], `\`\`\`sh\nUsage: contentful space export [options]\n${Array.from({ length: 60 }, (_, i) => `  --flag-${i}  a setting of the command`).join('\n')}\n\`\`\``);
    const { answer } = composeAnswer([guide, usage], false, 'How do I export a quokka space?');
    assert.ok(answer.includes('**Usage › Usage**\n\n```sh\nUsage: contentful space export [options]\n'), answer);
    assert.ok(answer.length < 1600, `${answer.length}`);
    assertValidMarkdown(answer);
  });

  it('while the answer is short, quotes more of the best page\'s other sections too: the row that answers with one question word', () => {
    const d = doc('');
    const counter = passage(d, 0, ['Counter'], 'Each quokka page has a counter, out of the total.');
    const others = ['next', 'prev', 'first', 'last', 'go', 'back'].map((name) => `| \`$nav.${name}()\` | A function that moves the deck somewhere else |`);
    const variables = passage(d, 1, ['Variables'], ['| Name | Meaning |', '|---|---|', '| `$nav.current` | The quokka page now shown |', '| `$nav.layout` | The layout of the page |', '| `$nav.total` | Total slides |', ...others].join('\n'));
    const { answer } = composeAnswer([counter, variables], false, 'show the quokka page counter out of total');
    assert.ok(answer.includes('`$nav.total`'), answer);
  });

  it('quotes more of the best page while its own quote is short, whatever other pages quote: the sentence with the fine', () => {
    const alarms = passage(
      doc(''),
      0,
      ['False alarms'],
      `Most quokka alarms go off because of burnt toast or steam from a shower.\n\n${LONG_PROSE}\n\nEach false alarm costs the flat **£150**, shared between everyone living in it.`,
    );
    const rules = passage(
      doc('', 1, 'Rules'),
      1,
      ['Damage'],
      'The quokka flat pays when someone sets off the alarm by burning toast, and the hall pays when the alarm itself is faulty, which the warden checks within a week of the report by reading the panel log, the sensor readings for the time of the alarm and the weather that day, since steam and heat from a shower or a kettle can trip a sensor without any smoke at all, and the warden writes to everyone in the flat with what was found and who pays.',
    );
    const { answer } = composeAnswer([alarms, rules], false, 'who pays when burnt toast sets off the quokka alarm');
    assert.ok(answer.includes('The quokka flat pays'), answer);
    assert.ok(answer.includes('**£150**'), answer);
  });

  it('quotes first the rows holding a question word of a table too long to quote whole after the sentence that answers', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `| Browser number ${i} | works with every setting |`).join('\n');
    const p = passage(doc(''), 0, ['Transforms'], `Quokka transforms on previews have mixed support, Safari included:\n\n| Browser | Rotate |\n|---|---|\n${rows}\n| Safari | broken |\n\n${LONG_PROSE}`);
    const { answer } = composeAnswer([p], false, 'Can I rotate quokka previews in Safari?');
    assert.ok(answer.includes('| Safari | broken |'), answer);
    assertValidMarkdown(answer);
  });

  it('is deterministic, and without a question quotes each passage from its start', () => {
    const p = passage(doc(''), 0, ['Part'], `${LONG_PROSE}\n\nQuokka.`);
    const first = composeAnswer([p], true, 'weather quokka');
    for (let i = 0; i < 3; i++) assert.deepEqual(composeAnswer([p], true, 'weather quokka'), first);
    assert.ok(composeAnswer([p], false).answer.startsWith('**Guide › Part**\n\nFiller sentence a'));
  });

  it('splits sentences where a reader would, never inside code, links or emphasis', () => {
    assert.deepEqual(sentencesOf('Call `a. B()` first. Then\nread [the docs. Really](https://x.example.com). **Bold. Text.** End.'), [
      'Call `a. B()` first.',
      'Then\nread [the docs. Really](https://x.example.com).',
      '**Bold. Text.** End.',
    ]);
  });
});

describe('a focused answer over API docs, through the HTTP API', () => {
  let api: RunningAnswerApi;
  before(async () => {
    api = await startAnswerApi({ kb: join(FIXTURES, 'api-docs'), keys: [KEY], paceMs: 0, watch: false, kbBaseUrl: 'https://nodejs.example/api/', kbUrlExtension: '.html' });
  });
  after(() => api.close());

  it('answers "an HTTP request with a timeout" with the timeout option, not the change history', async () => {
    const response = await ask(api, { bot_id: 'demo', message: 'How do I make an HTTP request with a timeout?' });
    const result = (await response.json()) as AnswerResponse;
    assert.equal(result.answer_found, true);
    assert.ok(result.answer.includes('* `options` {Object}\n  '), result.answer);
    assert.ok(result.answer.includes('* `timeout` {number}: A number specifying the socket timeout in milliseconds.'), result.answer);
    for (const noise of ['<!--', 'YAML', 'pr-url', 'changes:', '-->']) assert.ok(!result.answer.includes(noise), noise);
    assert.ok(result.answer.length <= 1200, `${result.answer.length}`);
    assert.ok(!result.sources[0]!.snippet!.includes('YAML'));
    assertValidMarkdown(result.answer);
  });

  it('resolves a reference link whose definition is at the end of the page, served from the on-disk index', async () => {
    const response = await ask(api, { bot_id: 'demo', message: 'Can the url of http.request be a string?' });
    const result = (await response.json()) as AnswerResponse;
    assert.ok(result.answer.includes('[`new URL()`](https://nodejs.example/api/url.html#new-urlinput-base)'), result.answer);
    assert.ok(!result.answer.includes('[`new URL()`][]'), result.answer);
  });
});

describe('a focused answer over a guide, through the HTTP API', () => {
  let api: RunningAnswerApi;
  before(async () => {
    api = await startAnswerApi({ kb: join(FIXTURES, 'guide-docs'), keys: [KEY], paceMs: 0, watch: false, kbBaseUrl: 'https://guide.example/' });
  });
  after(() => api.close());

  it('quotes the table beside the sentence that answers, with the codes asked about, not the section introduction', async () => {
    const response = await ask(api, { bot_id: 'demo', message: 'Which deprecation warnings can the server emit?' });
    const result = (await response.json()) as AnswerResponse;
    assert.equal(result.answer_found, true);
    assert.ok(result.answer.includes('These are the deprecation warnings the server can emit:\n\n| Code | What is deprecated | What to do instead |'), result.answer);
    for (const code of ['SRV_DEP_001', 'SRV_DEP_002', 'SRV_DEP_003']) assert.ok(result.answer.includes(code), code);
    assert.ok(!result.answer.includes('silenced'), result.answer);
    assertValidMarkdown(result.answer);
  });
});

describe('a focused answer over a handbook in everyday words, through the HTTP API', () => {
  let api: RunningAnswerApi;
  before(async () => {
    api = await startAnswerApi({ kb: join(FIXTURES, 'club-docs'), keys: [KEY], paceMs: 0, watch: false, kbBaseUrl: 'https://club.example/' });
  });
  after(() => api.close());

  it('quotes the fact right after the sentence holding the question words: the price after the trip', async () => {
    const response = await ask(api, { bot_id: 'demo', message: 'How much is the summer camp at the lake?' });
    const result = (await response.json()) as AnswerResponse;
    assert.equal(result.answer_found, true);
    assert.equal(result.sources[0]!.url, 'https://club.example/trips#summer-camp');
    assert.ok(result.answer.includes('three nights at the Brackenwater lake camp: canoeing, climbing and orienteering. It costs **£180**, including the coach, food and insurance.'), result.answer);
    assert.ok(!result.answer.includes('Places go to members'), 'a sentence stating no fact is not brought along');
    assert.ok(!result.answer.includes('first-aider'), result.answer);
    assertValidMarkdown(result.answer);
  });

  it('quotes a section with its subsection that holds the fact, under the section\'s link', async () => {
    const response = await ask(api, { bot_id: 'demo', message: 'Can guests park at the clubhouse?' });
    const result = (await response.json()) as AnswerResponse;
    assert.equal(result.answer_found, true);
    assert.deepEqual(
      result.sources.map((s) => s.url),
      ['https://club.example/clubhouse#parking-for-guests'],
    );
    const cited = '[[1]](https://club.example/clubhouse#parking-for-guests)';
    assert.ok(result.answer.startsWith(`**The clubhouse › Parking for guests** ${cited}\n\nGuests are welcome to park in the car park behind the clubhouse.`), result.answer);
    assert.ok(result.answer.includes(`**The clubhouse › Parking for guests › How long they can stay** ${cited}\n\nA guest's car may stay parked up to **24 hours**`), result.answer);
    assert.ok(!result.answer.includes('Bikes'), 'a subsection holding none of the question\'s words is left out');
    assertValidMarkdown(result.answer);
  });

  it('quotes, for a "how long" question, the section of the page stating the figure beside its words, linked as itself', async () => {
    const response = await ask(api, { bot_id: 'demo', message: 'How long can members borrow a canoe for?' });
    const result = (await response.json()) as AnswerResponse;
    assert.equal(result.answer_found, true);
    assert.deepEqual(
      result.sources.map((s) => s.url),
      ['https://club.example/equipment#borrowing-canoes', 'https://club.example/equipment#bringing-it-back'],
    );
    assert.ok(result.answer.includes('**Equipment › Bringing it back** [[2]](https://club.example/equipment#bringing-it-back)\n\nA borrowed canoe must come back within **3 days**'), result.answer);
    // A question not asking for a figure is answered from the first section alone (with `shortSection`
    // off: the page's sections are short, so that rule would bring the next one for any question).
    const indexFolder = await mkdtemp(join(tmpdir(), 'answer-typed-section-'));
    const bot = (await loadBots(join(FIXTURES, 'club-docs'), undefined, { kbSettings: { baseUrl: 'https://club.example/' }, indexFolder, watch: false, retrieval: { shortSection: 0 } })).get('demo')!;
    try {
      assert.deepEqual(bot.find('Can members borrow a canoe?').passages.map((p) => p.url), ['https://club.example/equipment#borrowing-canoes']);
      assert.deepEqual(bot.find('How long can members borrow a canoe for?').passages.map((p) => p.url), [
        'https://club.example/equipment#borrowing-canoes',
        'https://club.example/equipment#bringing-it-back',
      ]);
    } finally {
      bot.close();
      await rm(indexFolder, { recursive: true, force: true });
    }
    assertValidMarkdown(result.answer);
  });
});
