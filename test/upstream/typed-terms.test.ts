import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { leafStatesType, typedTerms, type AnswerType } from '../../packages/bot-answer-engine/src/upstream/compose/answer-type.js';
import { passageParts } from '../../packages/bot-answer-engine/src/upstream/compose/passage-units.js';
import { cleanMarkdown } from '../../packages/bot-answer-engine/src/upstream/folder/clean-markdown.js';
import { analyze } from '../../packages/bot-answer-engine/src/upstream/retrieval/analyzer.js';

/** Every unit parsed and read: what `typedTerms` must give, however little of a section it parses. */
function everyUnit(type: AnswerType, markdown: string, terms: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  for (const leaf of passageParts(cleanMarkdown(markdown)).leaves) {
    if (leafStatesType(type, leaf)) for (const term of analyze(leaf.markdown)) if (terms.has(term)) found.add(term);
  }
  return found;
}

const SECTIONS = [
  // A flag opening a list item: the unit starts where the marker ends.
  '- -p prints the port\n- other words here',
  // A flag opening a table row, and one after a sentence's end.
  '| flag | what |\n|---|---|\n--resume | resumes the upload\n\nRun it again. -v tells more.',
  // A code span broken over two lines of a paragraph: one line in its unit.
  'Set the `retry\nlimit` option to stop retrying uploads.',
  // A figure in a nested list item, a time in a sentence, a figure only in a link target.
  'Plans:\n\n- Growth\n  - costs 9 dollars a month\n\nRenewals happen after 3 days.\n\nSee [the plan](https://example.com/plans/latest).',
  // No figure, no code: nothing stated.
  'Uploads resume where they stopped, with the same retry limit.',
  // Code blocks: their names in code count, their figures do not.
  '```sh\nupload --resume 3 files\n```\n\nThe upload resumes.',
];
const ASKED = new Set(['port', 'resum', 'upload', 'retri', 'limit', 'option', 'cost', 'month', 'renew', 'dai', 'plan', 'tell', 'file', 'print']);

describe('typed terms', () => {
  for (const type of ['quantity', 'time', 'code'] as const) {
    it(`gives the terms beside ${type} units that reading every unit gives`, () => {
      for (const markdown of SECTIONS) {
        const expected = everyUnit(type, markdown, ASKED);
        assert.deepEqual([...typedTerms(type, markdown, ASKED)].sort(), [...expected].sort(), `${type}: ${JSON.stringify(markdown)}`);
        assert.deepEqual([...typedTerms(type, markdown, ASKED, cleanMarkdown(markdown))].sort(), [...expected].sort(), `${type}, cleaned given: ${JSON.stringify(markdown)}`);
      }
    });
  }

  it('finds a flag opening a list item and a code span over two lines', () => {
    assert.deepEqual([...typedTerms('code', SECTIONS[0]!, ASKED)].sort(), ['port', 'print']);
    assert.deepEqual([...typedTerms('code', SECTIONS[2]!, ASKED)].sort(), ['limit', 'option', 'retri', 'upload']);
  });

  it('finds nothing where no unit states the type, or no term is asked', () => {
    assert.equal(typedTerms('quantity', SECTIONS[4]!, ASKED).size, 0);
    assert.equal(typedTerms('code', SECTIONS[4]!, ASKED).size, 0);
    assert.equal(typedTerms('code', SECTIONS[2]!, new Set()).size, 0);
  });
});
