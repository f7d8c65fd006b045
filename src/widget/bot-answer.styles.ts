import { css, unsafeCSS } from 'lit';

// Every colour passes WCAG AA (4.5:1) against its background in both schemes.
const dark = unsafeCSS(
  '--bg:var(--bot-answer-bg,#1c1c20);--fg:var(--bot-answer-fg,#ececf0);--mu:var(--bot-answer-muted,#b4b4bc);--ac:var(--bot-answer-accent,#9cc0ff);--af:var(--bot-answer-accent-fg,#10131a);--bd:var(--bot-answer-border,#5a5a64);--sb:var(--bot-answer-subtle,#2a2a30);--er:var(--bot-answer-error,#ffb4ab);color-scheme:dark',
);

/** Styles of `<bot-answer>`; colours, font, radius, spacing and z-index come from `--bot-answer-*`. */
export const styles = css`
:host{--bg:var(--bot-answer-bg,#fff);--fg:var(--bot-answer-fg,#1b1b1f);--mu:var(--bot-answer-muted,#55555e);--ac:var(--bot-answer-accent,#0b57d0);--af:var(--bot-answer-accent-fg,#fff);--bd:var(--bot-answer-border,#8c8c96);--sb:var(--bot-answer-subtle,#f2f3f6);--er:var(--bot-answer-error,#b3261e);--r:var(--bot-answer-radius,10px);--s:var(--bot-answer-space,8px);display:block;color:var(--fg);font:var(--bot-answer-font-size,1rem)/1.5 var(--bot-answer-font,system-ui,sans-serif);color-scheme:light}
:host([theme=dark]){${dark}}
@media(prefers-color-scheme:dark){:host([theme=auto]){${dark}}}
*{box-sizing:border-box}
[hidden]{display:none!important}
.panel{display:flex;flex-direction:column;gap:var(--s);background:var(--bg);color:var(--fg);border:1px solid var(--bd);border-radius:var(--r);padding:calc(var(--s)*2)}
dialog.panel{width:min(640px,calc(100% - 32px));height:min(720px,calc(100% - 32px));max-width:none;max-height:none}
dialog::backdrop{background:#0008}
@media(max-width:640px){dialog.panel{width:100%;height:100%;margin:0;border-radius:0}}
header{display:flex;align-items:center;gap:var(--s)}
h2{flex:1;margin:0;font-size:1.1em}
button{font:inherit;color:var(--af);background:var(--ac);border:1px solid var(--ac);border-radius:calc(var(--r)*.6);padding:calc(var(--s)*.5) calc(var(--s)*1.5);cursor:pointer}
.ghost,.sugg button{color:var(--fg);background:none;border-color:var(--bd)}
:focus-visible{outline:2px solid var(--ac);outline-offset:2px}
.launcher{position:fixed;inset-inline-end:24px;bottom:24px;z-index:var(--bot-answer-z-index,2147483000);border-radius:99px;padding:calc(var(--s)*1.5) calc(var(--s)*3);box-shadow:0 4px 16px #0004}
.thread{position:relative;flex:1;overflow:auto;max-height:var(--bot-answer-max-height,70vh);overscroll-behavior:contain}
dialog .thread{max-height:none}
.turn{padding-block:var(--s);border-top:1px solid var(--bd)}
.turn:first-child{border:0}
.q{margin:0 0 var(--s);padding:var(--s) calc(var(--s)*1.5);background:var(--sb);border-radius:var(--r);white-space:pre-wrap;font-weight:600}
.q,.md,li{overflow-wrap:anywhere}
.md a{color:var(--ac)}
.md pre{background:var(--sb);padding:var(--s);border-radius:calc(var(--r)*.6);overflow:auto;max-height:60vh}
.md table{border-collapse:collapse;display:block;overflow:auto}
.md td,.md th{border:1px solid var(--bd);padding:2px 6px}
.md img{max-width:100%}
.streaming table{table-layout:fixed}
.md .citation{font-size:.75em;text-decoration:none;padding:0 2px}
.answering .md::after{content:'▍';animation:b 1s steps(2) infinite}
@keyframes b{50%{opacity:0}}
@media(prefers-reduced-motion:reduce){*,::after{animation:none!important;scroll-behavior:auto!important}}
.note{color:var(--mu);font-style:italic}
.error .note{color:var(--er);font-style:normal;border-inline-start:3px solid var(--er);padding-inline-start:var(--s)}
.acts{display:flex;gap:4px}
.acts button,[part=sources-toggle],.cc{padding:2px var(--s);font-size:.85em}
.cc{position:absolute;inset-inline-end:var(--s);background:var(--bg)}
ol{margin:var(--s) 0;padding-inline-start:calc(var(--s)*3);font-size:.9em}
li[part=source]{margin-bottom:var(--s);border-radius:4px}
li[part=source]:focus{background:var(--sb)}
li[part=source]>a,li[part=source]>bdi{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:var(--ac)}
li[part=source]>bdi{color:var(--fg)}
.meta{display:flex;flex-wrap:wrap;gap:0 var(--s);color:var(--mu);font-size:.9em}
.meta>*{max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.au{display:inline-flex;align-items:center;gap:4px}
.av{position:relative;display:inline-grid;place-items:center;width:20px;height:20px;flex:none;border-radius:50%;background:var(--sb);font-size:9px;overflow:hidden}
.av img{position:absolute;inset:0}
li p{margin:2px 0;color:var(--mu);display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden}
.sugg p{margin:0;color:var(--mu)}
.sugg ul{display:flex;flex-wrap:wrap;gap:var(--s);margin:var(--s) 0;padding:0;list-style:none}
form{display:flex;gap:var(--s);align-items:end}
textarea{flex:1;font:inherit;font-size:max(16px,1em);color:inherit;background:var(--bg);border:1px solid var(--bd);border-radius:calc(var(--r)*.6);padding:var(--s);resize:vertical}
.status{margin:0;min-height:1.5em;font-size:.85em;color:var(--mu)}
.status.error,.err{color:var(--er)}
`;
