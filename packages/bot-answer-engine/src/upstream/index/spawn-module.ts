import { fork, type ChildProcess } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

// The modules run elsewhere sit beside this one, compiled or not: `.js` in the package, `.ts` when run from source through tsx.
const EXTENSION = extname(fileURLToPath(import.meta.url));
const FROM_SOURCE = EXTENSION === '.ts';

function moduleUrl(module: string): URL {
  return new URL(`./${module}${EXTENSION}`, import.meta.url);
}

/**
 * Runs one of the index's modules in a process of its own (IPC open, standard output and
 * error shared). From source it runs through tsx as this process does; no other option of
 * this process (an inspector port, a profiler, a test runner's) is passed on.
 */
export function forkModule(module: 'build-process'): ChildProcess {
  const execArgv = FROM_SOURCE ? ['--import', import.meta.resolve('tsx')] : [];
  return fork(fileURLToPath(moduleUrl(module)), [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
}

/**
 * Runs one of the index's modules in a worker thread. From the package (JavaScript) it is a
 * plain worker; from source (under tsx, whose loader Node 20 does not carry into workers) the
 * worker registers tsx before it imports the module.
 */
export function startThread(module: 'analyse-thread', options: WorkerOptions = {}): Worker {
  const url = moduleUrl(module);
  if (!FROM_SOURCE) return new Worker(url, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
