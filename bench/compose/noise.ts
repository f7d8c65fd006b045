/**
 * What in an answer is not content a reader of the docs site would see: markup that a site
 * hides or turns into chrome, quoted as text. Code (fenced blocks and code spans) is not looked at.
 */
export type NoiseKind = 'html-comment' | 'yaml' | 'mdx' | 'link-definition' | 'badge' | 'html-tag';

const CHECKS: Array<[NoiseKind, RegExp]> = [
  ['html-comment', /<!--|-->/],
  // Node's `<!-- YAML` history blocks, quoted once their comment markers are gone or kept.
  ['yaml', /^[ \t]*(?:added|deprecated|removed|napiVersion|changes|pr-url|description):[ \t]*(?:v\d|\[|$|\S)|^[ \t]*-[ \t]+version:[ \t]*v?\d/m],
  ['mdx', /^(?:import[ \t][^\n]*\bfrom[ \t]*['"]|export[ \t]+(?:const|default|function)\b)|^[ \t]*<\/?[A-Z][\w.]*(?:[ \t][^<>]*)?\/?>[ \t]*$/m],
  ['link-definition', /^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*\S/m],
  ['badge', /!\[[^\]\n]*\]\((?:https?:)?\/\/[^)\s]*(?:shields\.io|badgen\.net|badge\.fury\.io|badge\.svg|\/badges?\/)[^)\s]*\)/i],
  ['html-tag', /<\/?(?:a|abbr|b|br|center|details|div|em|h[1-6]|i|img|kbd|p|picture|source|span|strong|sub|summary|sup|table|td|th|tr)(?:[ \t\n][^<>]*)?\/?>/i],
];

/** The kinds of noise found in an answer's Markdown, outside code. */
export function noiseIn(markdown: string): NoiseKind[] {
  const prose = markdown
    .replace(/^[ \t]*(`{3,}|~{3,})[^\n]*\n[^]*?(?:\n[ \t]*\1[ \t]*(?=\n|(?![^]))|(?![^]))/gm, '')
    .replace(/(`+)[^`][^]*?\1/g, '');
  return CHECKS.filter(([, pattern]) => pattern.test(prose)).map(([kind]) => kind);
}
