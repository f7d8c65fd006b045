import { expect } from '@open-wc/testing';
import { stabilize } from '../../../packages/bot-answer/src/widget/markdown/stabilize.js';

describe('stabilize', () => {
  const cases: [string, string][] = [
    ['Some text\n-', 'Some text\n'],
    ['Some text\n==', 'Some text\n'],
    ['1.', ''],
    ['## ', ''],
    ['> quote\n> ', '> quote\n'],
    ['- [ ]', ''],
    ['| Name | Qty |\n|---|-', ''],
    ['Intro\n\n| Name | Qty |\n', 'Intro\n\n'],
    ['| Name | Qty |\n|---|---|\n', '| Name | Qty |\n|---|---|\n'],
    ['```js\nconst a = 1;\n``', '```js\nconst a = 1;\n'],
    ['Text\n\n```py', 'Text\n\n'],
    ['```js\nconst a = **1;\n', '```js\nconst a = **1;\n'],
    ['Some **bo', 'Some **bo**'],
    ['Some **bo ', 'Some **bo**'],
    ['Some **bold*', 'Some **bold**'],
    ['Some **', 'Some '],
    ['a *b and `c', 'a *b and `c`*'],
    ['x `a*b', 'x `a*b`'],
    ['snake_case and _it', 'snake_case and _it_'],
    ['~~gone', '~~gone~~'],
    ['done **x** and *y*', 'done **x** and *y*'],
    ['See [link](https://ex', 'See link'],
    ['See [link', 'See link'],
    ['Cited[[1]](https://a.ex', 'Cited'],
    ['Cited[[1', 'Cited'],
    ['An image ![cat](https://i', 'An image '],
    ['Complete [a](https://a.example) link', 'Complete [a](https://a.example) link'],
    ['- a\n- **b', '- a\n- **b**'],
  ];
  for (const [input, output] of cases) {
    it(`${JSON.stringify(input)} -> ${JSON.stringify(output)}`, () => expect(stabilize(input)).to.equal(output));
  }
});
