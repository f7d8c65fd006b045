import { useEffect, useRef, useState } from 'react';
import 'bot-answer';
import type { BotAnswer, BotAnswerDoneDetail } from 'bot-answer';

const SUGGESTIONS = ['How do I verify a webhook signature?', 'What are the API rate limits for each plan?'];

export function App() {
  const box = useRef<BotAnswer>(null);
  const [done, setDone] = useState<BotAnswerDoneDetail>();
  const [hydrated, setHydrated] = useState(false);

  // Properties that are not strings, and listeners, are set here rather than as JSX props: React 19
  // sets those when it creates the element, but not when it hydrates server-rendered markup.
  useEffect(() => {
    const element = box.current!;
    element.suggestions = SUGGESTIONS;
    const onDone = (event: HTMLElementEventMap['bot-answer-done']) => setDone(event.detail);
    element.addEventListener('bot-answer-done', onDone);
    setHydrated(true);
    return () => element.removeEventListener('bot-answer-done', onDone);
  }, []);

  return (
    <main data-hydrated={hydrated ? '' : undefined}>
      <button id="ask" onClick={() => box.current?.ask(SUGGESTIONS[0]!)}>
        Ask about webhooks
      </button>
      <bot-answer ref={box} bot-id="demo" heading="Ask the docs" />
      <output id="done">{done && `${done.answer_found ? 'found' : 'not found'}, ${done.sources.length} sources`}</output>
    </main>
  );
}
