import { customElements, HTMLElement } from '@lit-labs/ssr-dom-shim';

const global = globalThis as { HTMLElement?: unknown; customElements?: unknown };
// Imported before the element (see server.ts): its classes extend HTMLElement, which a server has not.
const installed = !global.HTMLElement;
if (installed) global.HTMLElement = HTMLElement;
global.customElements ??= customElements;

/** Removes the `HTMLElement` installed above, once the element's classes are defined. */
export function uninstallHTMLElement() {
  if (installed) delete global.HTMLElement;
}
