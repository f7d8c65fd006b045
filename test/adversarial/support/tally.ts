import { appendFileSync } from 'node:fs';

/**
 * Counts for the runner's summary. Each test file runs in its own process, so counts are
 * appended as JSON lines to the file named by ADVERSARIAL_TALLY (when the runner set it).
 */
export type Counter =
  | 'payloadsTried'
  | 'payloadPagesChecked'
  | 'scriptsExecuted'
  | 'badUrlsFound'
  | 'unexpectedRequests'
  | 'layoutEscapes'
  | 'longTasks'
  | 'streamsChecked'
  | 'faultsSurvived'
  | 'textMismatches'
  | 'falseDones'
  | 'abusiveRequests'
  | 'rateLimited'
  | 'othersServedDuringFlood'
  | 'disconnectsAborted'
  | 'streamsHeldAtShutdown'
  | 'streamsLost'
  | 'keyScans'
  | 'bytesScannedForKey'
  | 'keySightings';

export function count(name: Counter, by = 1): void {
  const file = process.env.ADVERSARIAL_TALLY;
  if (!file || by === 0) return;
  appendFileSync(file, JSON.stringify({ name, by }) + '\n');
}
