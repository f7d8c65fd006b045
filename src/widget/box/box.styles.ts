/**
 * Styles of the box: the inline panel or the floating dialog, its heading, suggestions, question field and
 * status line. Added after the loader's (`loader.styles.ts`), whose custom properties and button rules they
 * build on. Joined without newlines, as the loader's.
 */
export const boxStyles =
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
  '.status,.hint{color:var(--mu);font-size:.85em}' +
  '.error.status{color:var(--er)}' +
  'ul.sg{padding:0;list-style:none}' +
  'textarea{flex:1;font-size:max(16px,1em)}' +
  '.status{min-height:1.5em}';
