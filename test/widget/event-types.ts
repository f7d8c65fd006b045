/**
 * Type-level test, compiled by `npm run typecheck` (never run): the events of `<bot-answer>` are typed
 * where pages listen to them, on the element, the document and the window, and a wrong detail field fails.
 */
import type { BotAnswer } from '../../packages/bot-answer/src/widget/index.js';

declare const el: BotAnswer;
declare const any: HTMLElement;

document.addEventListener('bot-answer-done', (e) => e.detail.answer.toUpperCase());
document.addEventListener('bot-answer-done', (e) => e.detail.requestId?.length);
window.addEventListener('bot-answer-done', (e) => e.detail.sources.map((s) => s.url));
el.addEventListener('bot-answer-done', (e) => e.detail.answer_found === true);
any.addEventListener('bot-answer-error', (e) => e.detail.code.length);
document.addEventListener('bot-answer-submit', (e) => (e.detail.message.trim() ? undefined : e.preventDefault()));
window.addEventListener('bot-answer-start', (e) => e.detail.message.length);
el.addEventListener('bot-answer-feedback', (e): 'up' | 'down' => e.detail.value);
document.addEventListener('bot-answer-feedback', (e) => [e.detail.requestId, e.detail.comment, e.detail.question, e.detail.answer]);
window.addEventListener('bot-answer-source-click', (e) => e.detail.source.title ?? e.detail.index);
el.removeEventListener('bot-answer-done', (e) => e.detail.answer);

// @ts-expect-error `done` carries no `message`
document.addEventListener('bot-answer-done', (e) => e.detail.message);
// @ts-expect-error `error` carries no `answer`
window.addEventListener('bot-answer-error', (e) => e.detail.answer);
// @ts-expect-error the rating is `value`, not `rating`
el.addEventListener('bot-answer-feedback', (e) => e.detail.rating);
// @ts-expect-error a feedback value is a string
document.addEventListener('bot-answer-feedback', (e) => e.detail.value.toFixed());
