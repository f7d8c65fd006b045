// An app's entry, bundled by Vite or webpack: the element's loader goes into it, its box and chat into
// chunks of their own, fetched when the element asks for them.
import 'bot-answer';

window.appReady = true;
