import { spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, spawnServer } from './server-process.js';

/** A throwaway PostgreSQL for tests: a fresh cluster in a temp dir, a free loopback port, no durability. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  port: number;
  /** Creates a database and returns its URL (each test its own). */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast shutdown: clients are disconnected) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data (nothing when it runs). */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

/** Debian's PostgreSQL binaries: PG_BIN, else the newest /usr/lib/postgresql/<version>/bin. */
function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('PostgreSQL is not installed: install Debian\'s postgresql package (or set PG_BIN to its bin folder)');
  return join(root, versions[0]!, 'bin');
}

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` user the Debian package creates. */
function asServerUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

function userIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const dir = await mkdtemp(join(tmpdir(), 'bot-answer-pg-'));
  const data = join(dir, 'data');
  const sockets = join(dir, 'sockets');
  await mkdir(sockets);
  const ids = userIds();
  if (ids) {
    await chown(dir, ids.uid, ids.gid);
    await chown(sockets, ids.uid, ids.gid);
  }
  const [initCommand, initArgs] = asServerUser(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const init = spawnSync(initCommand, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.error?.message ?? `exit ${init.status}`}):\n${init.stderr}`);
  }
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = async () => {
    if (child && child.exitCode === null) return;
    const settings = ['listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=100'];
    const [command, args] = asServerUser(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', sockets, ...settings.flatMap((s) => ['-c', s])]);
    child = await spawnServer({
      name: 'postgres',
      command,
      args,
      ready: 'database system is ready to accept connections',
      timeoutMs: 20_000,
      onExit: (proc) => {
        if (child === proc) child = undefined;
      },
    });
  };

  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = once(proc, 'exit');
    // The postmaster's own pid (runuser stands between): SIGINT is PostgreSQL's fast shutdown.
    const pidFile = join(data, 'postmaster.pid');
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : NaN;
    if (Number.isInteger(pid) && pid > 0) process.kill(pid, 'SIGINT');
    else proc.kill('SIGINT');
    await exited;
  };

  // A test process that dies (an uncaught error) still stops its server and removes its files.
  const onExit = () => {
    const pidFile = join(data, 'postmaster.pid');
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : NaN;
    if (child && child.exitCode === null && Number.isInteger(pid) && pid > 0) {
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  try {
    await start();
  } catch (error) {
    process.off('exit', onExit);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    async createDatabase(name: string) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(name)}`;
    },
    stop,
    start,
    async close() {
      process.off('exit', onExit);
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
