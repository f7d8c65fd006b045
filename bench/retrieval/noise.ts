/**
 * Noisy answers: an answer that quotes what is not content for a reader: an HTML comment
 * (Node's `<!-- YAML ... -->` history blocks), a YAML or metadata block, an MDX import/export or
 * component tag (`<Tabs>`, `<Note />`), a link reference definition (`[id]: https://...`) or a
 * badge (an image from shields.io and the like, or one linking elsewhere), or an HTML tag a site
 * would have rendered (`<a id>`, `<div>`). Code blocks and code
 * spans are left out of the check: code may hold any of these as the thing explained.
 */
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
