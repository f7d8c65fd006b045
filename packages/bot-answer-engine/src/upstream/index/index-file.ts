import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const APP = 'bot-answer';

/**
 * Where index files go when `ANSWER_KB_INDEX` is not set: `node_modules/.cache/bot-answer/`
 * under the current folder when it has a `node_modules` (the convention build tools follow,
 * so `.gitignore`'s `node_modules/` covers it), else the user's cache folder
 * (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on
 * Windows) under `bot-answer/`.
 */
export function defaultIndexFolder(cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string {
  const modules = join(cwd, 'node_modules');
  if (existsSync(modules)) return join(modules, '.cache', APP);
  if (process.platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), APP, 'Cache');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', APP);
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), APP);
}

/**
 * The index file of a bot in `folder`: `<bot>-<hash>.sqlite`, the hash of the documents folder
 * and the settings it is read with, so two servers reading the same folder the same way share
 * one file, and a folder read another way gets its own.
 */
export function indexFileName(botId: string, key: string): string {
  const safeId = botId.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40) || 'bot';
  return `${safeId}-${createHash('sha256').update(key).digest('hex').slice(0, 12)}.sqlite`;
}
