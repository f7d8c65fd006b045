/**
 * The box of `<bot-answer>` (`bot-answer-box.js`): the inline panel or the floating dialog around the
 * thread. Inline boxes load it at once, floating ones on the visitor's first sign of intent, so a page
 * with only a launcher does not pay for it.
 */
import { BOX_STRINGS } from '../strings.js';

export { Shell } from './shell.js';
export const strings = BOX_STRINGS;
