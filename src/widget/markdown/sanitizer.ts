import DOMPurify, { type Config } from 'dompurify';

/** Scheme allow-list for `href`/`src`: absolute http(s) and mailto only (no relative, protocol-relative or other schemes). */
export const SAFE_URL = /^(?:https?:|mailto:)/i;

/** Class names the Markdown renderer itself emits; any other class value is dropped. */
const OWN_CLASS = /^(?:citation|language-[\w+#-]{1,32})$/;

type Purifier = ReturnType<typeof DOMPurify>;
let purifiers: [Purifier, Purifier] | undefined;

/** The private Trusted Types policy, shared by both sanitiser instances. Its only caller is DOMPurify's inert parse. */
function ttPolicy() {
  const tt = (window as { trustedTypes?: { createPolicy(name: string, rules: object): unknown } }).trustedTypes;
  try {
    return tt?.createPolicy('bot-answer', { createHTML: (s: string) => s, createScriptURL: (s: string) => s });
  } catch {
    // Name already taken (a second copy of the bundle) or not allowed by the page: let DOMPurify use its own default.
    return undefined;
  }
}

function create(images: boolean, policy: unknown): Purifier {
  const p = DOMPurify(window);
  const config: Config = {
    ALLOWED_TAGS: `a b blockquote br code del em h1 h2 h3 h4 h5 h6 hr i li ol p pre s strong sup table tbody td th thead tr ul${
      images ? ' img' : ''
    }`.split(' '),
    // No id/name (DOM clobbering), no style, no event handlers; class, tabindex and data-citation are value-checked below.
    ALLOWED_ATTR: ['href', 'title', 'class', 'data-citation', 'align', 'start', 'tabindex', ...(images ? ['src', 'alt'] : [])],
    // Values of these are not URLs (DOMPurify would otherwise test them against ALLOWED_URI_REGEXP); checked in the hook.
    ADD_URI_SAFE_ATTR: ['align', 'start', 'tabindex', 'data-citation'],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOWED_URI_REGEXP: SAFE_URL,
    RETURN_DOM_FRAGMENT: true,
    ...(policy ? { TRUSTED_TYPES_POLICY: policy as Config['TRUSTED_TYPES_POLICY'] } : {}),
  };
  p.setConfig(config);
  p.addHook('uponSanitizeAttribute', (_node, data) => {
    const { attrName: n, attrValue: v } = data;
    if (
      (n === 'class' && !OWN_CLASS.test(v)) ||
      (n === 'tabindex' && v !== '0') ||
      (n === 'align' && !/^(?:left|center|right)$/.test(v)) ||
      ((n === 'data-citation' || n === 'start') && !/^\d{1,9}$/.test(v))
    ) {
      data.keepAttr = false;
    }
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    // Set here, inside sanitising, so the returned fragment is never edited afterwards.
    if (node.nodeName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    } else if (node.nodeName === 'IMG') {
      node.setAttribute('loading', 'lazy');
      node.setAttribute('referrerpolicy', 'no-referrer');
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
 * gets `target="_blank" rel="noopener noreferrer"`, every image `loading="lazy" referrerpolicy="no-referrer"`.
 * @param html HTML produced by the Markdown renderer (untrusted content inside).
 * @param images Keep `<img>` elements (default false).
 */
export function sanitize(html: string, images = false): DocumentFragment {
  if (!purifiers) {
    const policy = ttPolicy();
    purifiers = [create(false, policy), create(true, policy)];
  }
  return purifiers[+images].sanitize(html) as unknown as DocumentFragment;
}
