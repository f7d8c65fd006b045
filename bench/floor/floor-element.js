// The size floor: the smallest element that pulls in the same dependencies as <bot-answer>
// (lit, marked, dompurify, eventsource-parser) and uses each once, built exactly like the
// real bundle. Plain JavaScript because the benchmark folder is type-checked for Node.
import { LitElement, html, css } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { marked } from 'marked';
import DOMPurify from 'dompurify';
import { createParser } from 'eventsource-parser';

export class FloorElement extends LitElement {
  static properties = { text: { type: String } };
  static styles = css`:host { display: block; }`;

  constructor() {
    super();
    this.text = '**floor**';
    /** @type {string[]} */
    this.events = [];
    this.parser = createParser({ onEvent: (event) => this.events.push(event.data) });
  }

  render() {
    const safe = DOMPurify.sanitize(/** @type {string} */ (marked.parse(this.text, { async: false })));
    return html`<div part="answer">${unsafeHTML(safe)}</div>`;
  }
}

if (!customElements.get('floor-element')) customElements.define('floor-element', FloorElement);
