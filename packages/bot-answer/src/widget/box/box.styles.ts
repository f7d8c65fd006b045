// The rest of the colours (the loader's styles set the accent) and the colour scheme, in both schemes.
const dark =
  '--bg:var(--bot-answer-bg,#1c1c20);--fg:var(--bot-answer-fg,#ececf0);--mu:var(--bot-answer-muted,#b4b4bc);--bd:var(--bot-answer-border,#6a6a74);--sb:var(--bot-answer-subtle,#2a2a30);--er:var(--bot-answer-error,#ffb4ab);color-scheme:dark';

/**
 * Styles of the box: the inline panel or the floating dialog, its heading, suggestions, question field and
 * status line, notes and errors. Added after the loader's (`loader.styles.ts`), whose custom properties and
 * button rules they build on. Joined without newlines, as the loader's.
 */
export const boxStyles =
  ':host{--bg:var(--bot-answer-bg,#fff);--fg:var(--bot-answer-fg,#1b1b1f);--mu:var(--bot-answer-muted,#55555e);--bd:var(--bot-answer-border,#8c8c96);--sb:var(--bot-answer-subtle,#f0f1f4);--er:var(--bot-answer-error,#b3261e);color:var(--fg);color-scheme:light}' +
  `:host([theme=dark]){${dark}}` +
  `@media(prefers-color-scheme:dark){:host([theme=auto]){${dark}}}` +
  '.panel,button,textarea,input{color:var(--fg);background:var(--bg);border:1px solid var(--bd);border-radius:var(--r);padding:var(--s);font:inherit}' +
  'button{padding:2px var(--s)}' +
  // Not `.panel`: that would override the browser's rule hiding a closed dialog.
  'section,dialog[open]{display:flex;flex-direction:column;gap:var(--s)}' +
  'dialog{box-sizing:border-box;width:min(640px,90vw);height:min(720px,90vh)}' +
  'dialog::backdrop{background:#0008}' +
  '@media(max-width:640px){dialog{min-width:100%;min-height:100%;margin:0;border-radius:0}}' +
  '.hd,form,.acts,.sg{display:flex;flex-wrap:wrap;gap:var(--s);align-items:center}' +
  'h2{flex:1;font-size:1.1em}' +
  'h2,.status,.hint{margin:0}' +
  '.thread{position:relative;flex:1;overflow:auto;max-height:var(--bot-answer-max-height,70vh)}' +
  'dialog .thread{max-height:none}' +
  '.note,.status,.hint{color:var(--mu)}' +
  '[part=error],.error.status{color:var(--er)}' +
  '.status,.hint{font-size:.85em}' +
  'ul.sg{padding:0;list-style:none}' +
  'textarea{flex:1;font-size:max(16px,1em)}' +
  '.status{min-height:1.5em}';
