/**
 * The classic-script entry (`bot-answer.iife.js`): the same loader as the ES module's, finding its other files
 * (the box, the chat) beside its own URL, read now: `document.currentScript` is only set while a classic
 * script runs (an inline copy has no URL: the page's is used). It exposes the element's class as
 * `window.BotAnswer`.
 */
import { register } from './register.js';
import { STAGE_FILES, stageFolder } from './stage-url.js';
import type { BoxModule, ChatModule } from './stage.js';

declare const __BOT_ANSWER_VERSION__: string;

const folder = stageFolder((document.currentScript as HTMLScriptElement | null)?.src || document.baseURI, __BOT_ANSWER_VERSION__);
// Modules loaded from a classic script: they inherit the script's nonce, and need no Trusted Types policy.
const [box, chat] = [STAGE_FILES.box, STAGE_FILES.chat].map((file) => new URL(file, folder).href) as [string, string];
register(
  { box: () => import(/* @vite-ignore */ box) as Promise<BoxModule>, chat: () => import(/* @vite-ignore */ chat) as Promise<ChatModule> },
  () => [box, chat],
);

// The class defined (a second copy of the script defines nothing, and exposes the first one's).
(globalThis as { BotAnswer?: unknown }).BotAnswer = customElements.get('bot-answer');
