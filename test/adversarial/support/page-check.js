// Evaluated in the test page after a batch settles: checks each <bot-answer data-case> for
// dangerous URLs, handler attributes, forbidden elements, layout escapes and its sentinels.
// Argument: [{ id, before, after, sourceSentinel }]. Returns one result per case.
(cases) => {
  const BAD_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:']);
  const URL_ATTRS = ['href', 'src', 'xlink:href', 'action', 'formaction', 'poster', 'background', 'data', 'ping', 'srcdoc', 'codebase', 'cite', 'longdesc', 'lowsrc', 'dynsrc'];
  const FORBIDDEN = new Set(['SCRIPT', 'IFRAME', 'FRAME', 'FRAMESET', 'OBJECT', 'EMBED', 'FORM', 'BASE', 'META', 'LINK', 'STYLE']);
  const walk = (root, visit) => {
    for (const el of root.querySelectorAll('*')) {
      visit(el);
      if (el.shadowRoot) walk(el.shadowRoot, visit);
    }
  };
  const protocolOf = (value) => {
    try {
      return new URL(value, document.baseURI).protocol.toLowerCase();
    } catch {
      return '';
    }
  };
  const inContent = (el) => {
    for (let n = el; n; n = n.parentElement) {
      const part = n.getAttribute && n.getAttribute('part');
      if (part && /\b(answer|sources)\b/.test(part)) return true;
    }
    return false;
  };
  const page = {
    baseURI: document.baseURI === location.href,
    polluted: Object.prototype.polluted !== undefined || {}.innerHTML !== undefined,
    clobbered: typeof document.getElementById !== 'function' || typeof document.createElement !== 'function' || window.__xssFlag !== undefined,
  };
  return cases.map(({ id, before, after, sourceSentinel }) => {
    const problems = [];
    const host = document.querySelector(`bot-answer[data-case="${CSS.escape(id)}"]`);
    if (!host || !host.shadowRoot) return { id, problems: ['element missing'] };
    const hostRect = host.getBoundingClientRect();
    walk(host.shadowRoot, (el) => {
      for (const name of URL_ATTRS) {
        const value = el.getAttribute(name);
        if (value !== null && BAD_SCHEMES.has(protocolOf(value))) problems.push(`${el.tagName.toLowerCase()} ${name}=${value.slice(0, 80)}`);
      }
      for (const value of [el.getAttribute('srcset'), el.getAttribute('imagesrcset')]) {
        if (value) for (const candidate of value.split(',')) if (BAD_SCHEMES.has(protocolOf(candidate.trim().split(/\s+/)[0] || ''))) problems.push(`srcset ${value.slice(0, 80)}`);
      }
      for (const attr of el.attributes) {
        if (/^on/i.test(attr.name)) problems.push(`handler attribute ${attr.name} on ${el.tagName.toLowerCase()}`);
        if (attr.name.toLowerCase() === 'style' && /url\(|expression|fixed|absolute/i.test(attr.value) && inContent(el)) problems.push(`style ${attr.value.slice(0, 80)}`);
      }
      if (FORBIDDEN.has(el.tagName.toUpperCase()) && inContent(el)) problems.push(`forbidden element <${el.tagName.toLowerCase()}>`);
      if (el.hasAttribute('popover') && inContent(el)) problems.push('popover element');
      // Layout: the visible part of each element stays within the host's box (clipped by scrolling ancestors).
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) return;
      const style = getComputedStyle(el);
      if (style.position === 'fixed' && inContent(el)) problems.push(`position:fixed <${el.tagName.toLowerCase()}>`);
      let left = rect.left, top = rect.top, right = rect.right, bottom = rect.bottom;
      for (let a = el.parentElement; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
          const r = a.getBoundingClientRect();
          left = Math.max(left, r.left);
          top = Math.max(top, r.top);
          right = Math.min(right, r.right);
          bottom = Math.min(bottom, r.bottom);
        }
      }
      if (right <= left || bottom <= top) return;
      const slack = 1;
      if (left < hostRect.left - slack || top < hostRect.top - slack || right > hostRect.right + slack || bottom > hostRect.bottom + slack) {
        problems.push(`<${el.tagName.toLowerCase()}${el.getAttribute('part') ? ` part=${el.getAttribute('part')}` : ''}> escapes the box: ${[left, top, right, bottom].map(Math.round)} vs ${[hostRect.left, hostRect.top, hostRect.right, hostRect.bottom].map(Math.round)}`);
      }
    });
    const answers = host.shadowRoot.querySelectorAll('[part~="answer"]');
    const answerText = answers.length ? answers[answers.length - 1].textContent : '';
    const visibleText = (needle) => {
      const walker = document.createTreeWalker(host.shadowRoot, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.data.includes(needle)) {
          const range = document.createRange();
          range.selectNodeContents(n);
          const r = range.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && n.parentElement.checkVisibility({ visibilityProperty: true, opacityProperty: true });
        }
      }
      return false;
    };
    if (before && !(answerText.includes(before) && visibleText(before))) problems.push('the text before the payload is not shown');
    if (after && !(answerText.includes(after) && visibleText(after))) problems.push('the rest of the answer (after the payload) is not shown');
    if (sourceSentinel && !visibleText(sourceSentinel)) problems.push('the other source is not shown');
    if (!page.baseURI) problems.push('document base URL changed');
    if (page.polluted) problems.push('Object.prototype polluted');
    if (page.clobbered) problems.push('document or window clobbered');
    return { id, problems, state: host.state };
  });
};
