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

const folder = stageFolder((document.currentScript as HTMLScriptElement | null)?.src || document.baseURI, __BOT_ANSWER_VERSION__);
const url = (file: string) => new URL(file, folder).href;
// Modules loaded from a classic script: they inherit the script's nonce, and need no Trusted Types policy.
register({
  box: () => import(/* @vite-ignore */ url(STAGE_FILES.box)) as Promise<BoxModule>,
  chat: () => import(/* @vite-ignore */ url(STAGE_FILES.chat)) as Promise<ChatModule>,
});

// The class defined (a second copy of the script defines nothing, and exposes the first one's).
(globalThis as { BotAnswer?: unknown }).BotAnswer = customElements.get('bot-answer');
