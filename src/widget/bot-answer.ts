import { LitElement, html } from 'lit';
import { property } from 'lit/decorators.js';

/** Placeholder shell; the full element lands with its own issue. */
export class BotAnswer extends LitElement {
  /** Identifier of the bot that answers (required). */
  @property({ attribute: 'bot-id' }) botId = '';

  override render() {
    return this.botId ? html`<div part="panel"></div>` : html`<p part="error" role="alert">bot-answer: set the bot-id attribute.</p>`;
  }
}
