/**
 * The process a sync runs in (see `KbIndex.sync`): given the job as its one message, it brings
 * the index file up to date with its folder, answers `{outcome}`, or `{error}` with the error's
 * name, message and code, and ends; whatever the build allocated goes with it. It ends at once
 * when the process that started it goes (its channel closes): the sync then never commits.
 */
import { syncIndexFile, type SyncJob } from './index-writer.js';

let answered = false;
const answer = (reply: unknown): void => {
  answered = true;
  process.send!(reply, () => process.disconnect());
};

process.once('disconnect', () => {
  if (!answered) process.exit(1);
});
process.once('message', (job: SyncJob) => {
  syncIndexFile(job).then(
    (outcome) => answer({ outcome }),
    (error: unknown) => {
      const { name, message, code } = error instanceof Error ? (error as Error & { code?: string }) : { name: 'Error', message: String(error), code: undefined };
      answer({ error: { name, message, code } });
    },
  );
});
