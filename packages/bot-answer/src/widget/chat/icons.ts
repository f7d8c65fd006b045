import { html } from 'lit/html.js';

/**
 * The thumb of a rating button, drawn in `currentColor` (an emoji needs a font many systems lack, and shows
 * as an empty box there); the thumb down is the thumb up turned over. Decorative: the button's
 * `aria-label` names it.
 */
export const thumb = (value: 'up' | 'down') =>
  html`<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path transform=${
    value == 'down' ? 'rotate(180 12 12)' : ''
  } d="M7 10v11H3V10zm0 0 4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8a2 2 0 0 1-2 1.7H7"/></svg>`;
