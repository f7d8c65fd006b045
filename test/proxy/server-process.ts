import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A loopback port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** How a test server process is started and known to be ready. */
export interface ServerProcess {
  /** Its name in errors ("postgres"). */
  name: string;
  command: string;
  args: string[];
  /** The line of its output that says it accepts connections. */
  ready: string;
  timeoutMs: number;
  /** Added to the error when it cannot run at all (how to install it). */
  hint?: string;
  /** Called when it exits, whenever that is. */
  onExit?: (proc: ChildProcess) => void;
}

/** Spawns a server and resolves once its output says it is ready; rejects with its output if it exits or times out first. */
export async function spawnServer({ name, command, args, ready, timeoutMs, hint, onExit }: ServerProcess): Promise<ChildProcess> {
  const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.once('exit', () => onExit?.(proc));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${name} could not run (${error.message})${hint ? `; ${hint}` : ''}`));
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${output}`));
    });
  });
  proc.stdout!.resume();
  proc.stderr!.resume();
  return proc;
}
