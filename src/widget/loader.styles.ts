// Every default colour passes WCAG AA (4.5:1) against its background in both schemes.
const dark =
  '--bg:var(--bot-answer-bg,#1c1c20);--fg:var(--bot-answer-fg,#ececf0);--mu:var(--bot-answer-muted,#b4b4bc);--ac:var(--bot-answer-accent,#9cc0ff);--af:var(--bot-answer-accent-fg,#10131a);--bd:var(--bot-answer-border,#6a6a74);--sb:var(--bot-answer-subtle,#2a2a30);--er:var(--bot-answer-error,#ffb4ab);color-scheme:dark';

/**
 * Styles of `<bot-answer>` the loader needs: the element's colours, font, radius and spacing from
 * `--bot-answer-*`, buttons (the launcher), notes and errors. The box (`box/box.styles.ts`) and the chat
 * (`chat/chat.styles.ts`) add theirs after these, in this order: together they are one style sheet, split
 * by the file that first needs each rule. A rule per source line but joined without newlines (the build
 * folds the constants; a newline in a template literal would ship as two bytes each).
 */
export const loaderStyles =
  ':host{--bg:var(--bot-answer-bg,#fff);--fg:var(--bot-answer-fg,#1b1b1f);--mu:var(--bot-answer-muted,#55555e);--ac:var(--bot-answer-accent,#0b57d0);--af:var(--bot-answer-accent-fg,#fff);--bd:var(--bot-answer-border,#8c8c96);--sb:var(--bot-answer-subtle,#f0f1f4);--er:var(--bot-answer-error,#b3261e);--r:var(--bot-answer-radius,8px);--s:var(--bot-answer-space,8px);display:block;color:var(--fg);font:var(--bot-answer-font-size,1rem)/1.5 var(--bot-answer-font,system-ui,sans-serif);color-scheme:light}' +
  `:host([theme=dark]){${dark}}` +
  `@media(prefers-color-scheme:dark){:host([theme=auto]){${dark}}}` +
  '.panel,button,textarea,input{color:var(--fg);background:var(--bg);border:1px solid var(--bd);border-radius:var(--r);padding:var(--s);font:inherit}' +
  'button{padding:2px var(--s);cursor:pointer}' +
  '[part=send],.launcher,.note button{color:var(--af);background:var(--ac);border-color:var(--ac)}' +
  ':focus-visible{outline:2px solid var(--ac);outline-offset:1px}' +
  '.launcher,.launcher+.note{position:fixed;inset-inline-end:24px;bottom:24px;z-index:var(--bot-answer-z-index,999999);padding:var(--s) calc(var(--s)*2)}' +
  '.note{color:var(--mu)}' +
  '[part=error]{color:var(--er)}' +
  // Where the box could not be loaded either: the message above the launcher.
  '.launcher+.note{bottom:72px;margin:0;background:var(--bg);border:1px solid;border-radius:var(--r)}';
