// `<bot-answer>` in markup: its attributes, properties and `on<event>` listeners.
import type {} from 'bot-answer/svelte';
