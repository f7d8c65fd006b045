/** An element with attributes and children (text or nodes). Plain DOM calls: no HTML is parsed, so no Trusted Types sink. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: (Node | string)[]) {
  const e = document.createElement(tag);
  for (const name in attributes) e.setAttribute(name, attributes[name]!);
  e.append(...children);
  return e;
}

/** Adds a listener to `e` and returns `e`. */
export function on<E extends EventTarget>(e: E, type: string, listener: (event: Event) => void): E {
  e.addEventListener(type, listener);
  return e;
}

/** Sets `e`'s text only when it differs (a status line announces each change). */
export function text(e: Element, s: string) {
  if (e.textContent != s) e.textContent = s;
}

/**
 * Adds `css` to a shadow root, and returns the root: one constructed sheet shared by every root (made on first
 * use). Where constructed sheets are missing (Safari before 16.4) the element is unstyled: a `<style>` in the root
 * would not last, since each render leaves only its own nodes there.
 */
export function adopt(root: ShadowRoot, css: string, cache: { sheet?: CSSStyleSheet }): ShadowRoot {
  if ('adoptedStyleSheets' in root) {
    if (!cache.sheet) (cache.sheet = new CSSStyleSheet()).replaceSync(css);
    root.adoptedStyleSheets.push(cache.sheet);
  }
  return root;
}
