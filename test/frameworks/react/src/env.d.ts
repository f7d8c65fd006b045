// `<bot-answer>` in JSX: its props, properties and `on<event>` listeners.
import type {} from 'bot-answer/react';
