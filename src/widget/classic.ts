/**
 * The classic-script entry (`bot-answer.iife.js`, also `window.BotAnswer`): the same loader as the ES
 * module's, finding its other files (the box, the chat) beside its own URL. It is read now: `document.currentScript` is only
 * set while a classic script runs (an inline copy has no URL: the page's is used).
 */
import { BotAnswer } from './bot-answer.js';
import { register } from './register.js';
import { STAGE_FILES, stageUrl } from './stage-url.js';
import type { BoxModule, ChatModule } from './stage.js';

declare const __BOT_ANSWER_VERSION__: string;

const script = (document.currentScript as HTMLScriptElement | null)?.src || document.baseURI;
const url = (file: string) => stageUrl(script, file, __BOT_ANSWER_VERSION__);
// Modules loaded from a classic script: they inherit the script's nonce, and need no Trusted Types policy.
register({
  box: () => import(/* @vite-ignore */ url(STAGE_FILES.box)) as Promise<BoxModule>,
  chat: () => import(/* @vite-ignore */ url(STAGE_FILES.chat)) as Promise<ChatModule>,
});

export { BotAnswer };
