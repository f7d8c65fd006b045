/** The stub answer endpoint's controls (test/widget/stub-endpoint.mjs), for tests with or without the element loaded. */

let n = 0;
/** A bot id unique to this run: the stub picks its behaviour from the part before `:`. */
export const bot = (scenario: string) => `${scenario}:${Date.now()}-${n++}`;

/** Requests the stub received for a bot id. */
export const count = async (id: string) => +(await (await fetch(`/stub/count?bot=${encodeURIComponent(id)}`)).text());

/**
 * Makes the stub's `script` scenario answer `result` for a new bot id, and returns that id. `slow` (or `true`)
 * streams with long pauses, `fine` as many small events.
 */
export async function scripted(result: { answer: string; answer_found?: boolean; sources?: unknown[]; outcome?: string }, pace: boolean | 'slow' | 'fine' = false) {
  const id = bot(pace ? `script+${pace === true ? 'slow' : pace}` : 'script');
  await fetch(`/stub/script?bot=${encodeURIComponent(id)}`, { method: 'POST', body: JSON.stringify({ answer_found: true, sources: [], ...result }) });
  return id;
}
