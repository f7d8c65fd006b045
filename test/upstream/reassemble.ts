import type { EventSourceMessage } from 'eventsource-parser';
import type { Source } from '../../packages/bot-answer/src/protocol/types.js';
import type { StreamDialect } from '../../packages/bot-answer-engine/src/upstream/index.js';

/** What a client makes of one dialect's stream: the text pieces, the whole text, sources, answer_found, end marker. */
export interface Reassembled {
  pieces: string[];
  text: string;
  sources?: Source[];
  answerFound?: boolean;
  ended: boolean;
}

/**
 * Reads a stream in the given dialect as a strict client would: every event must have the
 * dialect's exact shape, or this throws.
 */
export function reassemble(dialect: Exclude<StreamDialect, 'json'>, events: EventSourceMessage[]): Reassembled {
  const out: Reassembled = { pieces: [], text: '', ended: false };
  const piece = (text: unknown): void => {
    if (typeof text !== 'string') throw new Error(`piece is not text: ${JSON.stringify(text)}`);
    out.pieces.push(text);
    out.text += text;
  };
  for (const event of events) {
    if (out.ended) throw new Error(`event after the end marker: ${event.event} ${event.data}`);
    switch (dialect) {
      case 'named': {
        const data = JSON.parse(event.data) as { text?: string; sources?: Source[]; answer_found?: boolean };
        if (event.event === 'delta') piece(data.text);
        else if (event.event === 'sources') out.sources = data.sources;
        else if (event.event === 'done') [out.answerFound, out.ended] = [data.answer_found, true];
        else throw new Error(`unexpected event ${event.event}`);
        break;
      }
      case 'typed': {
        if (event.event !== undefined) throw new Error(`named event ${event.event} in typed dialect`);
        const data = JSON.parse(event.data) as { type: string; text?: string; sources?: Source[]; answer_found?: boolean };
        if (data.type === 'answer') piece(data.text);
        else if (data.type === 'sources') out.sources = data.sources;
        else if (data.type === 'end') [out.answerFound, out.ended] = [data.answer_found, true];
        else throw new Error(`unexpected type ${data.type}`);
        break;
      }
      case 'openai': {
        if (event.event !== undefined) throw new Error(`named event ${event.event} in openai dialect`);
        if (event.data === '[DONE]') {
          out.ended = true;
          break;
        }
        const data = JSON.parse(event.data) as {
          choices: Array<{ delta: { content?: string }; finish_reason: string | null }>;
          sources?: Source[];
          answer_found?: boolean;
        };
        const choice = data.choices[0]!;
        if (choice.finish_reason === 'stop') [out.sources, out.answerFound] = [data.sources, data.answer_found];
        else piece(choice.delta.content);
        break;
      }
      case 'cumulative': {
        if (event.event === 'end') {
          out.ended = true;
          break;
        }
        if (event.event !== undefined) throw new Error(`unexpected event ${event.event}`);
        const data = JSON.parse(event.data) as { answer: string; sources?: Source[]; answer_found?: boolean };
        if (!data.answer.startsWith(out.text)) throw new Error('a cumulative event does not extend the previous one');
        if (data.sources) {
          if (data.answer !== out.text) throw new Error('the final cumulative event changes the answer');
          [out.sources, out.answerFound] = [data.sources, data.answer_found];
        } else {
          piece(data.answer.slice(out.text.length));
        }
        break;
      }
      case 'final': {
        if (event.event === 'end') {
          out.ended = true;
          break;
        }
        if (event.event !== undefined) throw new Error(`unexpected event ${event.event}`);
        const data = JSON.parse(event.data) as { text?: string; answer?: string; sources?: Source[]; answer_found?: boolean };
        if (data.answer !== undefined) {
          if (data.answer !== out.text) throw new Error('the final object differs from the streamed text');
          [out.sources, out.answerFound] = [data.sources, data.answer_found];
        } else {
          piece(data.text);
        }
        break;
      }
      case 'plain': {
        if (event.event === undefined) piece(event.data);
        else if (event.event === 'sources') out.sources = JSON.parse(event.data) as Source[];
        else if (event.event === 'end') [out.answerFound, out.ended] = [(JSON.parse(event.data) as { answer_found: boolean }).answer_found, true];
        else throw new Error(`unexpected event ${event.event}`);
        break;
      }
    }
  }
  return out;
}
