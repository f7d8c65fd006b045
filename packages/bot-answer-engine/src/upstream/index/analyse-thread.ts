/**
 * A thread that reads and analyses files for the index's writer (see `startAnalysers`): it
 * answers each `{id, file}` with `{id, result}`, or `{id, error}` when analysing failed for
 * another reason than the file (which the writer then fails with).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DocumentFile, KnowledgeBaseSettings } from '../folder/knowledge-base.js';
import { analyseFile } from './analyse-file.js';

const { settings } = workerData as { settings: KnowledgeBaseSettings };
const port = parentPort!;

port.on('message', ({ id, file }: { id: number; file: DocumentFile }) => {
  analyseFile(file, settings).then(
    (result) => port.postMessage({ id, result }),
    (error: unknown) => port.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
});
