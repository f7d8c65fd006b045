import { deriveOutcome } from '../protocol/outcome.js';
import type { HistoryMessage, Outcome, Source } from '../protocol/types.js';

/** Where one turn of the conversation stands. */
export type TurnState = 'answering' | 'done' | 'no-answer' | 'stopped' | 'error';

/** One question and its answer. */
export interface Turn {
  q: string;
  /** The answer Markdown so far, exactly as received. */
  a: string;
  sources: Source[];
  state: TurnState;
  /** Error code and, for rate limits, the wait in seconds. */
  err?: { code: string; message: string; wait?: number };
  /** The visitor's rating. */
  fb?: 'up' | 'down';
  /** The proxy's request id (`X-Request-Id`), which ties feedback to the answer in its logs. */
  id?: string;
  /** What the proxy accepted of the visitor's feedback: the rating, or the rating with a comment. */
  rated?: 'rating' | 'comment';
  /** How the complete answer ended, as the proxy said it (set with `done` and `no-answer`). */
  outcome?: Outcome;
}

/**
 * How `turn`'s answer ended, once it is complete (`done` or `no-answer`): as the proxy said it, else as a
 * proxy would derive it (from a proxy before the field, or a thread kept by an earlier release).
 */
export const outcomeOf = (turn: Turn): Outcome | undefined =>
  turn.state == 'done' || turn.state == 'no-answer' ? (turn.outcome ?? deriveOutcome(turn.state == 'done', turn.sources)) : undefined;

const key = (botId: string) => 'bot-answer:' + botId;

/** The thread kept for this tab's session, if any; a turn cut off by a reload counts as stopped. */
export function loadThread(botId: string): Turn[] {
  try {
    const turns: Turn[] = JSON.parse(sessionStorage.getItem(key(botId)) ?? '[]');
    return turns.map((t) => ({ ...t, state: t.state == 'answering' ? 'stopped' : t.state }));
  } catch {
    // Storage blocked or corrupt: start empty rather than fail.
    return [];
  }
}

/** Keeps `turns` for this tab's session (an empty thread removes the entry). */
export function saveThread(botId: string, turns: Turn[]) {
  try {
    if (turns.length) sessionStorage.setItem(key(botId), JSON.stringify(turns));
    else sessionStorage.removeItem(key(botId));
  } catch {
    // Storage full or blocked: the thread still works, it is just not kept.
  }
}

/** The thread kept for this tab's session, unread (the loader only needs to know there is one), or null. */
export function savedThread(botId: string): string | null {
  try {
    return sessionStorage.getItem(key(botId));
  } catch {
    return null;
  }
}

/** Removes the thread kept for this tab's session (before the chat that would restore it is here). */
export function forgetThread(botId: string) {
  try {
    sessionStorage.removeItem(key(botId));
  } catch {
    // Storage blocked: nothing was kept.
  }
}

/** Earlier turns sent with a question (the conversation so far), at most. */
export const HISTORY_TURNS = 3;

/**
 * The conversation before `turn`, oldest first, as the proxy takes it: the last
 * {@link HISTORY_TURNS} answered turns of the thread (question and answer), each message cut to
 * 1,500 characters (9,000 in all, well within the proxy's default limit).
 */
export const historyBefore = (turns: Turn[], turn: Turn): HistoryMessage[] =>
  turns
    .slice(0, turns.indexOf(turn))
    .filter((t) => t.state == 'done' || t.state == 'no-answer')
    .slice(-HISTORY_TURNS)
    .flatMap((t) => [
      { role: 'user', content: t.q.slice(0, 1500) },
      { role: 'assistant', content: t.a.slice(0, 1500) },
    ]);
