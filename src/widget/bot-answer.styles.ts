import { unsafeCSS } from 'lit';

// Every default colour passes WCAG AA (4.5:1) against its background in both schemes.
const dark =
  '--bg:var(--bot-answer-bg,#1c1c20);--fg:var(--bot-answer-fg,#ececf0);--mu:var(--bot-answer-muted,#b4b4bc);--ac:var(--bot-answer-accent,#9cc0ff);--af:var(--bot-answer-accent-fg,#10131a);--bd:var(--bot-answer-border,#6a6a74);--sb:var(--bot-answer-subtle,#2a2a30);--er:var(--bot-answer-error,#ffb4ab);color-scheme:dark';

/**
 * Styles of `<bot-answer>`; colours, font, radius, spacing and z-index come from `--bot-answer-*`.
 * One static string of our own (`unsafeCSS` only skips the check of interpolated values that `css` makes),
 * a rule per source line but joined without newlines (the build folds the constants; a newline in a
 * template literal would ship as two bytes each).
 */
export const styles = unsafeCSS(
  ':host{--bg:var(--bot-answer-bg,#fff);--fg:var(--bot-answer-fg,#1b1b1f);--mu:var(--bot-answer-muted,#55555e);--ac:var(--bot-answer-accent,#0b57d0);--af:var(--bot-answer-accent-fg,#fff);--bd:var(--bot-answer-border,#8c8c96);--sb:var(--bot-answer-subtle,#f0f1f4);--er:var(--bot-answer-error,#b3261e);--r:var(--bot-answer-radius,8px);--s:var(--bot-answer-space,8px);display:block;color:var(--fg);font:var(--bot-answer-font-size,1rem)/1.5 var(--bot-answer-font,system-ui,sans-serif);color-scheme:light}' +
  `:host([theme=dark]){${dark}}` +
  `@media(prefers-color-scheme:dark){:host([theme=auto]){${dark}}}` +
  '.panel,button,textarea,input{color:var(--fg);background:var(--bg);border:1px solid var(--bd);border-radius:var(--r);padding:var(--s);font:inherit}' +
  // Not `.panel`: that would override the browser's rule hiding a closed dialog.
  'section,dialog[open]{display:flex;flex-direction:column;gap:var(--s)}' +
  'dialog{box-sizing:border-box;width:min(640px,90vw);height:min(720px,90vh)}' +
  'dialog::backdrop{background:#0008}' +
  '@media(max-width:640px){dialog{min-width:100%;min-height:100%;margin:0;border-radius:0}}' +
  '.hd,form,.acts,.sg{display:flex;flex-wrap:wrap;gap:var(--s);align-items:center}' +
  'h2{flex:1;font-size:1.1em}' +
  'h2,.status,.hint,[part=source] p{margin:0}' +
  'button{padding:2px var(--s);cursor:pointer}' +
  '[part=send],.launcher,.note button{color:var(--af);background:var(--ac);border-color:var(--ac)}' +
  ':focus-visible{outline:2px solid var(--ac);outline-offset:1px}' +
  '.launcher{position:fixed;inset-inline-end:24px;bottom:24px;z-index:var(--bot-answer-z-index,999999);padding:var(--s) calc(var(--s)*2)}' +
  '.thread{position:relative;flex:1;overflow:auto;max-height:var(--bot-answer-max-height,70vh)}' +
  'dialog .thread{max-height:none}' +
  '.q,pre{padding:var(--s);background:var(--sb);border-radius:var(--r)}' +
  '.q{white-space:pre-wrap}' +
  '.q,.md,ol{overflow-wrap:anywhere}' +
  '.plain{overflow-wrap:normal;overflow-x:auto}' +
  'a{color:var(--ac)}' +
  'pre{overflow:auto;max-height:50vh}' +
  'table{border-collapse:collapse;display:block;overflow:auto}' +
  'td,th{border:1px solid var(--bd);padding:2px 6px}' +
  '.md img{max-width:100%}' +
  '.streaming table{table-layout:fixed}' +
  ".answering .md:after{content:'▍'}" +
  '.note,.status,.hint,[part=source] p,.meta{color:var(--mu)}' +
  '[part=error],.error.status{color:var(--er)}' +
  '.cc{display:block;margin-inline-start:auto}' +
  '[part=source]>a,[part=source]>bdi,.meta>*{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}' +
  '.meta{display:flex;gap:var(--s)}' +
  '.meta,.status,.hint{font-size:.85em}' +
  '[part=source] p{max-height:4.5em;overflow:hidden}' +
  'ul.sg{padding:0;list-style:none}' +
  'textarea{flex:1;font-size:max(16px,1em)}' +
  '.status{min-height:1.5em}',
);
