import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** True when `error` says that package `name` itself (not one of its own dependencies) is not installed. */
function isMissing(name: string, error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && typeof message === 'string' && message.includes(`'${name}'`);
}

/** An optional peer dependency that a setting needs is not installed; the message names both and the command to run. */
export class MissingPeerError extends Error {
  /** The package to install. */
  readonly package: string;
  constructor(name: string, purpose: string, cause: unknown) {
    super(`${purpose} needs the ${name} package, which is not installed: npm install ${name}`, { cause });
    this.name = 'MissingPeerError';
    this.package = name;
  }
}

/**
 * Loads an optional peer dependency written as CommonJS (ioredis, pg) at the moment a setting needs
 * it, for the synchronous APIs that open a client. `purpose` names the setting in the error
 * thrown when the package is not installed, e.g. `REDIS_URL`.
 */
export function requirePeer<T>(name: string, purpose: string): T {
  try {
    return require(name) as T;
  } catch (error) {
    throw isMissing(name, error) ? new MissingPeerError(name, purpose, error) : error;
  }
}

/**
 * Imports an optional peer dependency at the moment a setting needs it: `load` is the
 * `import('name')` itself (so its types and bundlers see the name). A package that is not
 * installed gives an error naming the setting and the package to install.
 */
export async function importPeer<T>(name: string, purpose: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw isMissing(name, error) ? new MissingPeerError(name, purpose, error) : error;
  }
}
