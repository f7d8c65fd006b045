import { rawUpstream, sleep, type RawUpstream } from './helpers.js';

export const PIECES = ['Book hotels ', 'through the ', 'travel portal ', '[[1]](https://wiki.example.com/travel).'];
export const ANSWER = PIECES.join('');
export const SOURCES = [{ url: 'https://wiki.example.com/travel', title: 'Travel policy' }];

/**
 * An upstream for the cache tests, answering in the asked mode: a paced stream of
 * {@link PIECES} or one JSON answer. A message containing `fail` gets a 500; one containing
 * `break` gets a stream cut off after its first piece. `holdAfterFirstPiece()` makes the next
 * stream wait after its first piece until the function it returns is called.
 */
export async function cacheUpstream(paceMs = 20): Promise<RawUpstream & { holdAfterFirstPiece(): () => void }> {
  let hold: Promise<void> | undefined;
  const upstream = await rawUpstream(async (_req, res, text) => {
    const body = JSON.parse(text) as { message: string; stream?: boolean };
    if (body.message.includes('fail')) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":"boom"}');
      return;
    }
    if (!body.stream) {
      await sleep(paceMs);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ answer: ANSWER, answer_found: true, sources: SOURCES }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const [i, piece] of PIECES.entries()) {
      res.write(`event: delta\ndata: ${JSON.stringify({ text: piece })}\n\n`);
      await sleep(paceMs);
      if (i === 0 && body.message.includes('break')) {
        res.destroy();
        return;
      }
      if (i === 0 && hold) {
        const held = hold;
        hold = undefined;
        await held;
      }
    }
    res.write(`event: sources\ndata: ${JSON.stringify({ sources: SOURCES })}\n\n`);
    res.end('event: done\ndata: {"answer_found":true}\n\n');
  });
  return Object.assign(upstream, {
    holdAfterFirstPiece(): () => void {
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
  });
}
