/**
 * The classic-script entry (`bot-answer.iife.js`): the same loader as the ES module's, finding its other files
 * (the box, the chat) beside its own URL, read now: `document.currentScript` is only set while a classic
 * script runs (an inline copy has no URL: the page's is used). It exposes the element's class as
 * `window.BotAnswer`.
 */
import { register } from './register.js';
import type { BoxModule, ChatModule } from './stage.js';
import { STAGE_FILES, stageFolder } from './stage-url.js';

declare const __BOT_ANSWER_VERSION__: string;

const script = (document.currentScript as HTMLScriptElement | null)?.src || document.baseURI;
// The folder is worked out when a file is first asked for, not as the script runs: parsing a URL and running
// a regular expression the first time cost about a millisecond of the page's load at 1x CPU.
const url = (file: string) => new URL(file, stageFolder(script, __BOT_ANSWER_VERSION__)).href;
// Modules loaded from a classic script: they inherit the script's nonce, and need no Trusted Types policy.
register({
  box: () => import(/* @vite-ignore */ url(STAGE_FILES.box)) as Promise<BoxModule>,
  chat: () => import(/* @vite-ignore */ url(STAGE_FILES.chat)) as Promise<ChatModule>,
});

// The class defined (a second copy of the script defines nothing, and exposes the first one's).
(globalThis as { BotAnswer?: unknown }).BotAnswer = customElements.get('bot-answer');
