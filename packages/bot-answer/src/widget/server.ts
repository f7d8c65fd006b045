/**
 * The package's entry on a server (its `node` export condition, which Vite SSR, Next.js, Nuxt, SvelteKit and
 * Astro resolve): the element, defined in a server-side `customElements` registry from Lit's DOM shim, as Lit
 * elements are. Importing it renders nothing and touches no DOM; a framework renders `<bot-answer>` as a tag
 * with its attributes, and the browser's copy upgrades it.
 */
import { uninstallHTMLElement } from './server-dom.js';

export * from './index.js';

// The classes are defined now; code that looks for a DOM by `HTMLElement` finds none on a server, as before.
uninstallHTMLElement();
