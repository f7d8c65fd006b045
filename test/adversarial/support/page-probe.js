// Runs inside the test page (injected as text, before any page script). Records every sign
// of hostile content getting through; the suite reads window.__adv afterwards.
(() => {
  const hits = [];
  const record = (what, detail) => hits.push(`${what}: ${String(detail).slice(0, 200)}`);
  const adv = { hits, longest: 0, done: {}, errors: {} };
  Object.defineProperty(window, '__adv', { value: adv });
  for (const name of ['alert', 'prompt', 'confirm', 'print']) window[name] = (x) => record(name, x);
  window.__xss = (x) => record('__xss', x);
  window.open = (url) => (record('window.open', url), null);
  const realFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? String(input) : input.url, location.href);
    // The element's endpoints on this page: the real proxy, and the suite's direct protocol endpoint.
    if (url.origin !== location.origin || (url.pathname !== '/api/answer' && url.pathname !== '/direct')) record('fetch', url.href);
    return realFetch(input, init);
  };
  navigator.sendBeacon = (url) => (record('sendBeacon', url), true);
  const xhrOpen = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    record('xhr', url);
    return xhrOpen.call(this, method, url, ...rest);
  };
  const RealImage = window.Image;
  window.Image = function (...args) {
    record('new Image', '');
    return new RealImage(...args);
  };
  const onViolation = (e) => record('csp', `${e.violatedDirective} ${e.blockedURI} ${e.sample || ''}`);
  document.addEventListener('securitypolicyviolation', onViolation, true);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      adv.longest = Math.max(adv.longest, entry.duration);
      if (entry.duration > 1000) record('longtask', `${Math.round(entry.duration)} ms`);
    }
  }).observe({ type: 'longtask', buffered: true });
  const track = (kind) => (e) => {
    const id = e.target && e.target.dataset ? e.target.dataset.case : undefined;
    if (id) (kind === 'done' ? adv.done : adv.errors)[id] = e.detail;
  };
  document.addEventListener('bot-answer-done', track('done'));
  document.addEventListener('bot-answer-error', track('error'));
})();
