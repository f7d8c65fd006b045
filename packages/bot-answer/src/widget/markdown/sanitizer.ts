import DOMPurify from 'dompurify';

/** Scheme allow-list for `href`/`src`: absolute http(s) and mailto only (no relative, protocol-relative or other schemes). */
export const SAFE_URL = /^(?:https?:|mailto:)/i;

/**
 * The attributes the Markdown renderer emits that are not URLs, title or alt, each with the only values it
 * may take (`name=value`): kept when they match, dropped otherwise (none of them is in ALLOWED_ATTR).
 */
const OWN_ATTR = /^(?:class=(?:citation|language-[\w+#-]{1,32})|align=(?:left|center|right)|(?:start|data-citation)=\d{1,9})$/;

/** What {@link sanitize} may keep beyond its fixed allow-list. */
export interface SanitizeOptions {
  /** Keep `<img>` elements (https or http sources; the renderer only emits https ones). */
  images?: boolean;
}

/** The configured purifiers, without and with images, made on first use. */
let purifiers: ReturnType<typeof DOMPurify>[] | undefined;

function createPurifiers() {
  const tt = (window as { trustedTypes?: { createPolicy(name: string, rules: object): unknown } }).trustedTypes;
  let policy;
  try {
    // One policy for both: its only caller is DOMPurify's inert parse.
    policy = tt?.createPolicy('bot-answer', { createHTML: (s: string) => s, createScriptURL: (s: string) => s });
  } catch {
    // Name already taken (a second copy of the bundle) or not allowed by the page: DOMPurify uses its own default.
  }
  return [create(false, policy), create(true, policy)];
}

function create(images: boolean, policy: unknown) {
  const p = DOMPurify(window);
  p.setConfig({
    ALLOWED_TAGS: ('a b blockquote br code del em h1 h2 h3 h4 h5 h6 hr i li ol p pre s strong sup table tbody td th thead tr ul' + (images ? ' img' : '')).split(' '),
    // No id/name (DOM clobbering), no style, no event handlers, no data-/aria- attributes (OWN_ATTR aside).
    ALLOWED_ATTR: ['href', 'title', 'src', 'alt'],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOWED_URI_REGEXP: SAFE_URL,
    RETURN_DOM_FRAGMENT: true,
    TRUSTED_TYPES_POLICY: policy as never,
  });
  p.addHook('uponSanitizeAttribute', (_node, data) => {
    data.forceKeepAttr = OWN_ATTR.test(data.attrName + '=' + data.attrValue);
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    // Set here, inside sanitising, so the returned fragment is never edited afterwards.
    const n = node.nodeName;
    if (n == 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    } else if (n == 'IMG') {
      node.setAttribute('loading', 'lazy');
      node.setAttribute('referrerpolicy', 'no-referrer');
    } else if (n == 'PRE') {
      // Long code scrolls inside its box: focusable, so a keyboard can scroll it.
      node.setAttribute('tabindex', '0');
    }
  });
  return p;
}

/**
 * Sanitises renderer output with a private, once-configured DOMPurify instance and returns an inert
 * fragment ready to append (no string sink: safe with Trusted Types enforced; a policy named
 * `bot-answer` is created on first use when the browser supports Trusted Types).
 *
 * Allowed: headings, p, lists, tables, pre/code, blockquote, a, em/strong/del/b/i/s, hr, br, sup; `img`
 * only when `images` is true. Links and image sources must be http(s) or mailto; every remaining link
 * gets `target="_blank" rel="noopener noreferrer"`, every image `loading="lazy" referrerpolicy="no-referrer"`,
 * every `pre` `tabindex="0"`.
 * @param html HTML produced by the Markdown renderer (untrusted content inside).
 * @param options `images` keeps `<img>` elements (default false).
 */
export function sanitize(html: string, { images = false }: SanitizeOptions = {}): DocumentFragment {
  return (purifiers ??= createPurifiers())[+images].sanitize(html) as unknown as DocumentFragment;
}
