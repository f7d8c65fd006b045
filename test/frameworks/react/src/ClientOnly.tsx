import { useRef, useState } from 'react';
import 'bot-answer';
import type { BotAnswer, BotAnswerDoneDetail } from 'bot-answer';

const SUGGESTIONS = ['How do I verify a webhook signature?', 'What are the API rate limits for each plan?'];

/** Rendered on the client only (createRoot): React 19 sets the array property and adds the listener from JSX. */
export function ClientOnly() {
  const box = useRef<BotAnswer>(null);
  const [done, setDone] = useState<BotAnswerDoneDetail>();

  return (
    <main data-hydrated="">
      <button id="ask" onClick={() => box.current?.ask(SUGGESTIONS[0]!)}>
        Ask about webhooks
      </button>
      <bot-answer
        ref={box}
        bot-id="demo"
        heading="Ask the docs"
        suggestions={SUGGESTIONS}
        onbot-answer-done={(event) => setDone(event.detail)}
      />
      <output id="done">{done && `${done.answer_found ? 'found' : 'not found'}, ${done.sources.length} sources`}</output>
    </main>
  );
}
