/**
 * One engine over one evaluation set, in a process of its own so its memory and CPU are its
 * own: start-up (cold: index built from nothing; warm: the same index reopened), every question
 * asked and timed, resident memory after a forced GC while serving, then the answerable questions
 * asked again after other answers (`subjectChanges`, untimed). Arguments: set id, engine
 * (`current` or `baseline`), index folder. Sends a `WorkerResult` to its parent.
 */
import { startEngine, type EngineName } from './engines.js';
import { evaluate, subjectChanges, type SetOutcome } from './evaluate.js';
import { heldOutSets } from './held-out.js';
import { questionSets, type QuestionSet } from './sets.js';

/** What a worker reports. */
export interface WorkerResult {
  outcome: SetOutcome;
  cold: { wallMs: number; cpuMs: number };
  warm?: { wallMs: number; cpuMs: number };
  rss: number;
  heapUsed: number;
  /** CPU time of answering all questions, divided by their number. */
  cpuPerAnswerMs: number;
}

const [setId, engineName, indexFolder] = process.argv.slice(2);
try {
  // The sealed sets are read only when the set asked for is none of the others.
  const find = (sets: QuestionSet[]): QuestionSet | undefined => sets.find((s) => s.id === setId);
  const set = find(questionSets()) ?? find(heldOutSets()) ?? find(heldOutSets({ sealed: true }));
  if (!set || !indexFolder || (engineName !== 'current' && engineName !== 'baseline')) throw new Error(`usage: worker.ts SET current|baseline INDEX_FOLDER (got ${process.argv.slice(2).join(' ')})`);
  const engine = await startEngine(engineName as EngineName, set, indexFolder);
  const cold = engine.ready;
  const warm = engine.restart ? await engine.restart() : undefined;
  const cpu = process.cpuUsage();
  const outcome = evaluate(engine, set);
  const used = process.cpuUsage(cpu);
  const asked = outcome.questions.length + outcome.offTopic.length + outcome.followUps.length * 4;
  globalThis.gc?.();
  const memory = process.memoryUsage();
  // Outside the timed and measured work: the answers of the questions asked again.
  outcome.switched = subjectChanges(engine, set, outcome);
  engine.close();
  const result: WorkerResult = { outcome, cold, ...(warm ? { warm } : {}), rss: memory.rss, heapUsed: memory.heapUsed, cpuPerAnswerMs: (used.user + used.system) / 1000 / asked };
  process.send!(result, () => process.exit(0));
} catch (error) {
  process.stderr.write(`bench: retrieval worker: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
}
