// The markup typings reject what the element would not take: each line below must be an error.
import type { SvelteHTMLElements } from 'svelte/elements';

type Attributes = SvelteHTMLElements['bot-answer'];

// @ts-expect-error suggestions is an array of strings
export const wrongSuggestions: Attributes = { suggestions: 3 };
// @ts-expect-error mode is 'inline' or 'floating'
export const wrongMode: Attributes = { mode: 'sideways' };
// @ts-expect-error the done event's detail has no `text`
export const wrongDetail: Attributes = { 'onbot-answer-done': (event) => event.detail.text };
