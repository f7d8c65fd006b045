import { LRUCache } from 'lru-cache';
import type { AnswerCacheStore, CachedAnswer } from './types.js';

/** Options of {@link memoryAnswerCache}. */
export interface MemoryAnswerCacheOptions {
  /** Most bytes (UTF-8 JSON of the answers) kept; the least recently used go first. Default 64 MiB. */
  maxBytes?: number;
}

export const DEFAULT_MEMORY_CACHE_BYTES = 64 * 1024 * 1024;

/** The answer cache of one process: an LRU bounded in bytes, each entry with its own lifetime. */
export function memoryAnswerCache(options: MemoryAnswerCacheOptions = {}): AnswerCacheStore {
  const lru = new LRUCache<string, { value: CachedAnswer; size: number }>({
    maxSize: Math.max(1, options.maxBytes ?? DEFAULT_MEMORY_CACHE_BYTES),
    sizeCalculation: (entry) => Math.max(1, entry.size),
  });
  return {
    async get(key) {
      return lru.get(key)?.value;
    },
    async set(key, value, ttlSeconds) {
      lru.set(key, { value, size: byteLength(JSON.stringify(value)) }, { ttl: ttlSeconds * 1000 });
    },
    async clear() {
      const count = lru.size;
      lru.clear();
      return count;
    },
  };
}

const encoder = new TextEncoder();
function byteLength(text: string): number {
  return encoder.encode(text).byteLength;
}
