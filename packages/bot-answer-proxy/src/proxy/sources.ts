import type { Source, SourceAuthor } from '../../../bot-answer/src/protocol/types.js';

/** Field names under which upstreams put their sources, in order of preference. */
const SOURCE_FIELDS = ['sources', 'source', 'citations', 'references', 'sourceDocuments'] as const;

export type Obj = Record<string, unknown>;

/** A JSON object (not an array, not null). */
export const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `fields` without its undefined ones, or `undefined` when none is left. */
function defined<T extends object>(fields: T): T | undefined {
  for (const key of Object.keys(fields) as (keyof T)[]) if (fields[key] === undefined) delete fields[key];
  return Object.keys(fields).length > 0 ? fields : undefined;
}

function str(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === 'string' && value !== '') return value;
  return undefined;
}

/** The first candidate that is an http(s) URL; anything else (javascript:, data:, relative) is dropped. */
function httpUrl(...values: unknown[]): string | undefined {
  return values.find(
    (value): value is string => typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
  );
}

/** Seconds since the epoch as a finite number; numeric strings and ISO dates are converted, anything else dropped. */
function time(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const n = Number(value);
  if (Number.isFinite(n)) return n;
  const parsed = Date.parse(value);
  return Number.isFinite(parsed) ? Math.floor(parsed / 1000) : undefined;
}

function author(value: unknown): SourceAuthor | undefined {
  if (typeof value === 'string' && value !== '') return { name: value };
  if (!isObject(value)) return undefined;
  return defined<SourceAuthor>({ name: str(value.name, value.display_name), email: str(value.email), photo: httpUrl(value.photo, value.avatar, value.image) });
}

/** One upstream source item in the spec's shape: string fields only, `modified_time` a finite number or absent. */
export function normaliseSource(value: unknown): Source | undefined {
  if (typeof value === 'string') {
    const url = httpUrl(value);
    return url ? { url } : undefined;
  }
  if (!isObject(value)) return undefined;
  // LangChain-style documents keep their fields under `metadata`.
  const meta = isObject(value.metadata) ? value.metadata : {};
  return defined<Source>({
    url: httpUrl(value.url, value.link, value.href, meta.url, meta.source),
    title: str(value.title, value.name, meta.title),
    app_name: str(value.app_name, value.appName, meta.app_name),
    author: author(value.author ?? meta.author),
    snippet: str(value.snippet, value.excerpt, value.pageContent, value.text, meta.snippet),
    modified_time: time(value.modified_time ?? value.modifiedTime ?? meta.modified_time),
  });
}

/** A list of upstream sources (or a single one) as spec-shaped sources; unusable items are dropped. */
export function normaliseSources(value: unknown): Source[] {
  return (Array.isArray(value) ? value : [value]).map((item) => normaliseSource(item)).filter((source) => source !== undefined);
}

/** The sources an upstream object carries under any known alias (or `undefined` when none). */
export function findSources(obj: Obj): unknown {
  for (const field of SOURCE_FIELDS) {
    const value = obj[field];
    if (value === undefined || value === null) continue;
    // `{sources: {sources: [...]}}` happens when an event wraps its payload once more.
    if (isObject(value) && !('url' in value) && !('title' in value)) {
      const inner = findSources(value);
      if (inner !== undefined) return inner;
    }
    return value;
  }
  return undefined;
}
