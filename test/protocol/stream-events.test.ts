import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { formatStreamEvent, HEARTBEAT } from '../../packages/bot-answer/src/protocol/stream-events.js';

test('formatted events parse back with eventsource-parser, whatever the chunking', () => {
  const wire = formatStreamEvent('delta', { text: 'line one\nline two: "quoted" é 🙂' }) + HEARTBEAT + formatStreamEvent('done', { answer_found: true });
  const bytes = new TextEncoder().encode(wire);
  for (let size = 1; size <= bytes.length; size += 3) {
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e) });
    const decoder = new TextDecoder();
    for (let i = 0; i < bytes.length; i += size) parser.feed(decoder.decode(bytes.subarray(i, i + size), { stream: true }));
    assert.deepEqual(events.map((e) => [e.event, JSON.parse(e.data)]), [
      ['delta', { text: 'line one\nline two: "quoted" é 🙂' }],
      ['done', { answer_found: true }],
    ]);
  }
});
