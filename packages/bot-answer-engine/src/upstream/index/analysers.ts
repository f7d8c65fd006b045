import type { Worker } from 'node:worker_threads';
import type { DocumentFile, KnowledgeBaseSettings, SkippedFile } from '../folder/knowledge-base.js';
import { analyseFile, type AnalysedDocument } from './analyse-file.js';
import { startThread } from './spawn-module.js';

type Result = AnalysedDocument | SkippedFile;

/** Reads and analyses files for the index's writer: on threads of their own, or on the writer's. */
export interface Analysers {
  /** The file read and analysed (or the reason it is skipped). */
  analyse(file: DocumentFile): Promise<Result>;
  /** Stops the threads. */
  close(): Promise<void>;
}

/**
 * `count` threads that read and analyse files, each given the next file when it has the fewest
 * waiting; with `count` 0 the files are analysed on the calling thread. A thread that fails
 * fails every file it was given.
 */
export function startAnalysers(count: number, settings: KnowledgeBaseSettings): Analysers {
  if (count <= 0) return { analyse: (file) => analyseFile(file, settings), close: async () => {} };
  const threads = Array.from({ length: count }, () => new AnalyserThread(startThread('analyse-thread', { workerData: { settings } })));
  return {
    analyse: (file) => threads.reduce((a, b) => (b.waiting < a.waiting ? b : a)).analyse(file),
    close: async () => {
      await Promise.all(threads.map((thread) => thread.close()));
    },
  };
}

class AnalyserThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (result: Result) => void; reject: (error: Error) => void }>();
  #next = 0;
  #failure: Error | undefined;

  constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', ({ id, result, error }: { id: number; result?: Result; error?: string }) => {
      const waiting = this.#pending.get(id);
      this.#pending.delete(id);
      if (error !== undefined) waiting?.reject(new Error(error));
      else waiting?.resolve(result!);
    });
    worker.on('error', (error) => this.#fail(error));
    worker.on('exit', (code) => this.#fail(new Error(`an analysing thread stopped (exit code ${code})`)));
  }

  get waiting(): number {
    return this.#pending.size;
  }

  analyse(file: DocumentFile): Promise<Result> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, file });
    });
  }

  async close(): Promise<void> {
    this.#failure ??= new Error('the analysing threads were stopped');
    await this.#worker.terminate();
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const waiting of this.#pending.values()) waiting.reject(this.#failure);
    this.#pending.clear();
  }
}
