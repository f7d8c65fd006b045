import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Messages a benchmark server child sends to its parent. */
export type ChildMessage = { type: 'ready'; url: string; keys?: string[] } | { type: 'reply'; id: number; value: unknown } | { type: 'error'; message: string };

/** A server running in its own Node process, so its CPU and memory are its own. */
export interface ServerChild {
  url: string;
  keys: string[];
  pid: number;
  /** Sends a request the child understands (`mem`, `arm-abort`...) and resolves with its reply. */
  ask<T>(command: string, arg?: unknown): Promise<T>;
  /** Ends the child (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `bench/servers/<name>.ts` in a child Node process (TypeScript through tsx, GC exposed
 * for memory readings) and waits for it to report its URL. `quiet` sends its standard output
 * (a server's per-request log lines) nowhere, as a log collector would take it away.
 */
export function startChild(name: string, env: Record<string, string> = {}, options: { quiet?: boolean } = {}): Promise<ServerChild> {
  const script = fileURLToPath(new URL(`../servers/${name}.ts`, import.meta.url));
  // BENCH_CPU_PROF=proxy (a server's name): that server writes a V8 CPU profile to bench/out/profiles at exit.
  const profile = process.env.BENCH_CPU_PROF === name ? ['--cpu-prof', `--cpu-prof-dir=${fileURLToPath(new URL('../out/profiles', import.meta.url))}`] : [];
  return forkServer(name, script, ['--import', 'tsx', '--expose-gc', ...profile], env, options.quiet ? 'ignore' : 'inherit');
}

/**
 * Starts `bench/servers/<name>.mjs`, plain JavaScript, in a child Node process without the
 * TypeScript loader (GC exposed), with the Node.js flags `nodeFlags` (the package CLI's:
 * `cliNodeFlags`): a server as the package runs it, whose memory is its own.
 */
export function startBuiltChild(name: string, env: Record<string, string> = {}, options: { quiet?: boolean; nodeFlags?: string[] } = {}): Promise<ServerChild> {
  const script = fileURLToPath(new URL(`../servers/${name}.mjs`, import.meta.url));
  const profile = process.env.BENCH_CPU_PROF === name ? ['--cpu-prof', `--cpu-prof-dir=${fileURLToPath(new URL('../out/profiles', import.meta.url))}`] : [];
  return forkServer(name, script, [...(options.nodeFlags ?? []), '--expose-gc', ...profile], env, options.quiet ? 'ignore' : 'inherit');
}

/**
 * Starts several children at once: a start-up is mostly one process loading its modules, and started one
 * after another they left a core idle. Each is added to `into` as soon as it is ready, so the caller's
 * clean-up stops every one that started even when another failed. Resolves with them in the order given.
 */
export function startAll(into: ServerChild[], starts: (() => Promise<ServerChild>)[]): Promise<ServerChild[]> {
  return allStarted(starts.map((start) => start().then((child) => (into.push(child), child))));
}

/**
 * Waits for every start, then fails with the first that failed (so none is left starting unseen
 * while the caller cleans up), or resolves with their values in the order given.
 */
export async function allStarted<T>(starts: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

function forkServer(
  name: string,
  script: string,
  execArgv: string[],
  env: Record<string, string>,
  stdout: 'inherit' | 'ignore',
): Promise<ServerChild> {
  const child: ChildProcess = fork(script, [], {
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'inherit', 'ipc'],
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => {
      const error = new Error(`bench server ${name} exited with ${code}`);
      reject(error);
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    };
    child.on('exit', onExit);
    child.on('error', reject);
    const handle = (url: string, keys: string[]): ServerChild => ({
      url,
      keys,
      pid: child.pid!,
      ask<T>(command: string, arg?: unknown) {
        const id = nextId++;
        return new Promise<T>((res, rej) => {
          pending.set(id, { resolve: res as (v: unknown) => void, reject: rej });
          child.send({ type: 'ask', id, command, arg });
        });
      },
      stop() {
        child.off('exit', onExit);
        if (child.exitCode !== null) return Promise.resolve();
        return new Promise<void>((res) => {
          // A graceful shutdown waits for open streams; the benchmark has none it still needs.
          const force = setTimeout(() => child.kill('SIGKILL'), 3000);
          child.once('exit', () => {
            clearTimeout(force);
            res();
          });
          child.kill('SIGTERM');
        });
      },
    });
    child.on('message', (raw) => {
      const message = raw as ChildMessage;
      if (message.type === 'ready') {
        resolve(handle(message.url, message.keys ?? []));
      } else if (message.type === 'reply') {
        pending.get(message.id)?.resolve(message.value);
        pending.delete(message.id);
      } else if (message.type === 'error') {
        reject(new Error(`bench server ${name}: ${message.message}`));
      }
    });
  });
}
