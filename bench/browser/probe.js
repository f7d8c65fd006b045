// Page-side instruments of the render benchmark, injected before any page script runs.
// window.__bench.run() asks one question through the element and measures, in the page:
// requestAnimationFrame intervals, long tasks, when the last byte of the answer arrived
// (Resource Timing responseEnd) and when the answer's last words were first in the DOM.
(() => {
  /** Text of a node and of every shadow root below it. */
  function deepText(root) {
    let text = root.textContent ?? '';
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) text += deepText(el.shadowRoot);
    return text;
  }

  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

  async function run({ selector, message, marker, expected, timeoutMs, countFrames = true }) {
    const el = document.querySelector(selector);
    await customElements.whenDefined(el.localName);
    if (el.updateComplete) await el.updateComplete;
    await nextFrame();
    await nextFrame();

    const frames = [];
    let recording = countFrames;
    const tick = (t) => {
      frames.push(t);
      if (recording) requestAnimationFrame(tick);
    };
    if (countFrames) requestAnimationFrame(tick);
    const longTasks = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push(entry.duration);
    });
    observer.observe({ type: 'longtask' });

    performance.clearResourceTimings();
    const start = performance.now();
    const outcome = new Promise((resolve, reject) => {
      el.addEventListener('bot-answer-done', (event) => resolve(event.detail), { once: true });
      el.addEventListener('bot-answer-error', (event) => reject(new Error(`bot-answer-error ${JSON.stringify(event.detail)}`)), { once: true });
      setTimeout(() => reject(new Error(`no bot-answer-done within ${timeoutMs} ms`)), timeoutMs);
    });
    void el.ask(message);
    const detail = await outcome;
    const doneAt = performance.now();
    // The answer is on screen in the first frame whose DOM holds its last words.
    let onScreenAt = Number.NaN;
    for (let i = 0; i < 600; i++) {
      const t = await nextFrame();
      if (deepText(el.shadowRoot ?? el).includes(marker)) {
        onScreenAt = t;
        break;
      }
    }
    recording = false;
    // Long tasks are reported asynchronously; give the observer a moment.
    await new Promise((resolve) => setTimeout(resolve, 50));
    observer.disconnect();
    const resource = performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname === '/api/answer').pop();
    const deltas = [];
    for (let i = 1; i < frames.length; i++) deltas.push(frames[i] - frames[i - 1]);
    return {
      start,
      doneAt,
      onScreenAt,
      responseStart: resource ? resource.responseStart : Number.NaN,
      responseEnd: resource ? resource.responseEnd : Number.NaN,
      frameDeltas: deltas,
      longTasks,
      answerMatches: typeof detail?.answer === 'string' ? detail.answer === expected : null,
      answerLength: typeof detail?.answer === 'string' ? detail.answer.length : null,
    };
  }

  window.__bench = { run, deepText };
})();
