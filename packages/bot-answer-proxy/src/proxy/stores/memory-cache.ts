import type { AnswerCacheStore, CachedAnswer } from './types.js';

/** Options of {@link memoryAnswerCache}. */
export interface MemoryAnswerCacheOptions {
  /** Most bytes (UTF-8 JSON of the answers) kept; the least recently used go first. Default 64 MiB. */
  maxBytes?: number;
}

const DEFAULT_MEMORY_CACHE_BYTES = 64 * 1024 * 1024;

interface Entry<T> {
  value: T;
  bytes: number;
  expiresAt: number;
}

const encoder = new TextEncoder();

/**
 * The answer cache of one process: least recently used first out beyond `maxBytes`, each entry
 * with its own lifetime. A `Map` keeps insertion order, so re-inserting on use makes its first
 * key the least recently used. (Written out rather than lru-cache: that package's default build
 * imports `node:diagnostics_channel`, which a Worker bundled without the `workerd` condition
 * cannot load, and this entry must run on edge runtimes as bundled.)
 */
export function memoryAnswerCache<T = CachedAnswer>(options: MemoryAnswerCacheOptions = {}): AnswerCacheStore<T> {
  const maxBytes = Math.max(1, options.maxBytes ?? DEFAULT_MEMORY_CACHE_BYTES);
  const entries = new Map<string, Entry<T>>();
  let total = 0;
  const remove = (key: string, entry: Entry<T>) => {
    entries.delete(key);
    total -= entry.bytes;
  };
  return {
    async get(key) {
      const entry = entries.get(key);
      if (entry) remove(key, entry);
      if (!entry || entry.expiresAt <= Date.now()) return undefined;
      entries.set(key, entry);
      total += entry.bytes;
      return entry.value;
    },
    async set(key, value, ttlSeconds) {
      const old = entries.get(key);
      if (old) remove(key, old);
      const bytes = encoder.encode(JSON.stringify(value)).byteLength;
      if (bytes > maxBytes) return;
      entries.set(key, { value, bytes, expiresAt: Date.now() + ttlSeconds * 1000 });
      total += bytes;
      for (const [oldest, entry] of entries) {
        if (total <= maxBytes) break;
        remove(oldest, entry);
      }
    },
    async clear() {
      const count = entries.size;
      entries.clear();
      total = 0;
      return count;
    },
  };
}
