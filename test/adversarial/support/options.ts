/**
 * Run size of the adversarial suite. The default run stays within a few minutes on a
 * 2-core machine; `--full` (or ADVERSARIAL_FULL=1, which the runner sets) runs the large sizes.
 * ADVERSARIAL_SEED replays a run.
 */
const full = process.argv.includes('--full') || process.env.ADVERSARIAL_FULL === '1';

export const RUN = {
  full,
  seed: Number(process.env.ADVERSARIAL_SEED ?? '') || 0x5eed,
  /** Random chunkings per upstream dialect, checked at the HTTP level through the proxy. */
  chunkingsPerDialect: full ? 10_000 : 1_000,
  /** Broken-stream cases sent through the browser. */
  browserStreamSamples: full ? 60 : 16,
  /** Requests fired from one client address against the rate limit. */
  floodRequests: full ? 50_000 : 10_000,
  /** Clients that disconnect mid-stream. */
  disconnectingClients: full ? 3_000 : 1_000,
  /** Open streams when SIGTERM arrives. */
  shutdownStreams: full ? 500 : 200,
  /** Random generated payloads on top of the fixed corpus. */
  fuzzPayloads: full ? 600 : 60,
} as const;
