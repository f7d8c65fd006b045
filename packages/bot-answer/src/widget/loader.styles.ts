/**
 * Styles of `<bot-answer>` that the loader needs for the launcher: its colours, radius, spacing and font from
 * `--bot-answer-*`, and buttons. The box (`box/box.styles.ts`) and the chat (`chat/chat.styles.ts`) add
 * theirs after these: together they are one style sheet, split by the file that first needs each rule. A
 * rule per source line but joined without newlines (the build folds the constants; a newline in a template
 * literal would ship as two bytes each). Every default colour passes WCAG AA (4.5:1) against its
 * background in both schemes.
 */
const dark = '--ac:var(--bot-answer-accent,#9cc0ff);--af:var(--bot-answer-accent-fg,#10131a)';

export const loaderStyles =
  ':host{--ac:var(--bot-answer-accent,#0b57d0);--af:var(--bot-answer-accent-fg,#fff);--r:var(--bot-answer-radius,8px);--s:var(--bot-answer-space,8px);display:block;font:var(--bot-answer-font-size,1rem)/1.5 var(--bot-answer-font,system-ui,sans-serif)}' +
  `:host([theme=dark]){${dark}}` +
  `@media(prefers-color-scheme:dark){:host([theme=auto]){${dark}}}` +
  'button{border:1px solid;border-radius:var(--r);font:inherit;cursor:pointer}' +
  '[part=send],[part=launcher],.note button{color:var(--af);background:var(--ac);border-color:var(--ac)}' +
  ':focus-visible{outline:2px solid var(--ac);outline-offset:1px}' +
  '[part=launcher]{position:fixed;inset-inline-end:24px;bottom:24px;z-index:var(--bot-answer-z-index,999999);padding:var(--s) calc(var(--s)*2)}';
