// `<bot-answer>` in templates: its props, properties and events.
import type {} from 'bot-answer/vue';
