/**
 * Styles of the thread (questions, answers, sources, actions), added by the chat stage after the shell's
 * (`shell.styles.ts`), whose custom properties they use. Nothing here styles the shell's own parts, so the
 * box does not move when the chat arrives. Joined without newlines, as the shell's.
 */
export const chatStyles =
  '.q,pre{padding:var(--s);background:var(--sb);border-radius:var(--r)}' +
  '.q{white-space:pre-wrap}' +
  '.q,.md,ol{overflow-wrap:anywhere}' +
  '.plain{overflow-wrap:normal;overflow-x:auto}.plain>span{display:block;width:fit-content;content-visibility:auto;contain-intrinsic-size:auto 1.5em}' +
  'a{color:var(--ac)}' +
  'pre{overflow:auto;max-height:50vh}' +
  'table{border-collapse:collapse;display:block;overflow:auto}' +
  'td,th{border:1px solid var(--bd);padding:2px 6px}' +
  '.md img{max-width:100%}' +
  '.streaming table{table-layout:fixed}' +
  ".answering .md:after{content:'▍'}" +
  '[part=source] p{margin:0;max-height:4.5em;overflow:hidden}' +
  '[part=source] p,.meta{color:var(--mu)}' +
  '.cc{display:block;margin-inline-start:auto}' +
  '[part=source]>a,[part=source]>bdi,.meta>*{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}' +
  '.meta{display:flex;gap:var(--s);font-size:.85em}' +
  '.rl{margin:var(--s) 0 0;font-weight:600}' +
  '[part=related] ul{margin:0;padding-inline-start:1.2em}' +
  '.th svg{display:block}';
