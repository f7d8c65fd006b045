// Baseline (b) of the streaming render benchmark: what a hurried implementation does.
// On every streamed chunk it re-parses the whole answer with marked, re-sanitises it with
// DOMPurify and replaces innerHTML. Same wire protocol and libraries as <bot-answer>.
// With `render="none"` it only reads and parses the stream and shows the text once at the
// end: the transport floor, what any streaming renderer pays before it renders anything.
import { marked } from 'marked';
import DOMPurify from 'dompurify';
import { createParser } from 'eventsource-parser';

export class NaiveAnswer extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).innerHTML = '<div part="answer"></div>';
    this.text = '';
  }

  /** Asks the endpoint and renders the stream, re-rendering everything per chunk. */
  async ask(message) {
    const out = /** @type {HTMLElement} */ (this.shadowRoot.querySelector('[part=answer]'));
    this.text = '';
    const response = await fetch(this.getAttribute('endpoint') ?? '/api/answer', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ message, bot_id: this.getAttribute('bot-id'), stream: true }),
    });
    let done = false;
    const render = this.getAttribute('render') === 'none' ? () => {} : () => (out.innerHTML = DOMPurify.sanitize(/** @type {string} */ (marked.parse(this.text, { async: false }))));
    const parser = createParser({
      onEvent: (event) => {
        const data = JSON.parse(event.data);
        if (event.event === 'delta') {
          this.text += data.text;
          render();
        } else if (event.event === 'replace') {
          this.text = data.text;
          render();
        } else if (event.event === 'done') {
          done = true;
        }
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      parser.feed(value);
    }
    if (this.getAttribute('render') === 'none') out.textContent = this.text;
    if (done) this.dispatchEvent(new CustomEvent('bot-answer-done', { bubbles: true, composed: true, detail: { answer: this.text } }));
  }
}

if (!customElements.get('naive-answer')) customElements.define('naive-answer', NaiveAnswer);
