/**
 * Noisy answers: an answer that quotes what is not content for a reader: an HTML comment
 * (Node's `<!-- YAML ... -->` history blocks), a YAML or metadata block, an MDX import/export or
 * component tag (`<Tabs>`, `<Note />`), a link reference definition (`[id]: https://...`) or a
 * badge (an image from shields.io and the like, or one linking elsewhere), or an HTML tag a site
 * would have rendered (`<a id>`, `<div>`). Code blocks and code
 * spans are left out of the check: code may hold any of these as the thing explained.
 */
import { FENCE_LINE } from '../../packages/bot-answer-engine/src/upstream/compose/excerpt-markdown.js';

const NOISE: Array<[string, RegExp]> = [
  ['HTML comment', /<!--|-->/],
  ['YAML block', /^(?:---|\+\+\+)[ \t]*\n(?:[\w-]+[ \t]*:.*\n)+(?:---|\+\+\+)[ \t]*$/m],
  // Node's `<!-- YAML` history, quoted once its comment markers are gone or kept.
  ['YAML history', /^[ \t]*(?:added|deprecated|removed|changes|napiVersion|pr-url)[ \t]*:|^[ \t]*-[ \t]+version:[ \t]*v?\d/m],
  ['MDX import/export', /^[ \t]*(?:import|export)\s[^\n]*(?:from\s|=)/m],
  ['component tag', /<\/?[A-Z][\w.]*(?:\s[^<>]*)?\/?>/],
  ['link definition', /^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*\S+/m],
  ['HTML tag', /<\/?(?:a|abbr|b|br|center|details|div|em|h[1-6]|i|img|kbd|p|picture|source|span|strong|sub|summary|sup|table|td|th|tr)(?:[ \t\n][^<>]*)?\/?>/i],
  ['badge', /!\[[^\]\n]*\]\([^)\n]*(?:shields\.io|badge|badgen\.net|travis-ci|coveralls|codecov)[^)\n]*\)|\[!\[[^\]\n]*\]\([^)\n]*\)\]\([^)\n]*\)/i],
];

/** The kinds of noise an answer quotes (empty: none), outside its code. */
export function noiseIn(answer: string): string[] {
  const prose = answer
    .replace(/^([ \t]*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1?\2[ \t]*$/gm, '')
    .replace(/(`+)[^`\n][\s\S]*?\1/g, '');
  return NOISE.filter(([, pattern]) => pattern.test(prose)).map(([kind]) => kind);
}

/** A sentence ending a question, before any closing quote, bracket or emphasis, then an omission (` …`) or the line's end. */
const QUESTION_STOP = /\?["'\u201d\u2019)*_]*(?= …|\s*$)/;
/** A source's label line: `**Title › Section**`, with its citation. */
const LABEL_LINE = /^\*\*.+\*\*(?: \[\[\d+\]\]\(.*\))?$/;

/**
 * Whether an answer's quote stops on a question (the page's own: "Broken before the refresh
 * date?") where the page goes on: a quoted line, outside code, whose question an omission (`…`)
 * follows, or that ends the passage's quote (the next source's label line, or the answer's end).
 */
export function stopsOnQuestion(answer: string): boolean {
  const lines = answer
    .replace(/^([ \t]*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1?\2[ \t]*$/gm, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.some((line, i) => {
    if (LABEL_LINE.test(line)) return false;
    const match = QUESTION_STOP.exec(line);
    if (!match) return false;
    const next = lines[i + 1];
    return / …/.test(line.slice(match.index)) || next === undefined || next === '…' || LABEL_LINE.test(next);
  });
}

/**
 * The answer's first quote: its first source's label line and what it quotes, up to the next
 * source's label line (a line that is one bold span, after a blank line, outside code). What a
 * visitor reads first; a quoted paragraph that is one bold line would end it early.
 */
export function firstQuote(answer: string): string {
  const lines = answer.split('\n');
  let fence: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const mark = FENCE_LINE.exec(lines[i]!)?.[1];
    if (mark) {
      if (!fence) fence = mark;
      else if (mark[0] === fence[0] && mark.length >= fence.length) fence = undefined;
      continue;
    }
    if (!fence && lines[i - 1] === '' && LABEL_LINE.test(lines[i]!.trim())) return lines.slice(0, i).join('\n').trimEnd();
  }
  return answer;
}
