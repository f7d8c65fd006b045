/**
 * The data a reference component keeps in its attributes, as Markdown text a reader (and the
 * index) can use. API references written in MDX keep their parameter tables in components:
 * the AI SDK's `<PropertiesTable content={[{ name, type, description }]} />`, Fumadocs'
 * `<TypeTable type={{ name: { type, description, default } }} />`, Mintlify's
 * `<ParamField path="limit" type="number" required>` and `<ResponseField name=... type=...>`.
 * They are read by the shape of their data, not by component name:
 *
 * - an attribute holding an array of objects with a name-like key (`name`, `path`, `key`, ...)
 *   and a type or description: one list item per object, `` `name` (type, optional): text``,
 *   nested arrays of the same shape (`properties`, `parameters`) as nested items, two levels down;
 * - an attribute holding an object whose values are such objects (keyed by name): the same;
 * - a tag whose own attributes name a field and its type: `` `limit` (number, required):``
 *   in its place, before the text it wraps.
 *
 * Attribute expressions are read as JSON once their JavaScript literal syntax is written as
 * JSON (`literalToJson`: quotes, bare keys, comments, trailing commas). What is more than a
 * literal (a variable, a call, string concatenation, an interpolating template, JSX) is no data:
 * the tag is dropped as before, and no code is ever turned into text.
 */

/** The attributes of a component tag as written: a string, `true` for a bare name, or the source of a `{...}` expression. */
export type TagAttributes = Map<string, { text: string } | { expression: string } | true>;

// Keys naming a field, by the frameworks' spellings (Mintlify's ParamField names the field by where it goes).
const NAME_KEYS = ['name', 'path', 'query', 'body', 'header', 'key', 'prop', 'property', 'param', 'parameter', 'field', 'option'];
const TYPE_KEYS = ['type'];
const TEXT_KEYS = ['description', 'desc', 'summary', 'doc', 'details'];
const DEFAULT_KEYS = ['default', 'defaultValue'];
const SAFE_KEY = /^[A-Za-z_$][\w$-]*\??$/;
// How deep nested tables are followed (a field, a group under it, the group's fields: deeper trees,
// such as callbacks' results, repeat the same fields down a page), and how many rows one attribute may give.
const MAX_DEPTH = 2;
const MAX_ROWS = 500;

/**
 * Markdown for a tag's data, or undefined when it holds none in a shape read here. `block` is
 * the list rendered from data attributes (to stand on lines of its own); `lead` the field a
 * tag's own attributes describe (to stand before the text the tag wraps).
 */
export function componentText(attributes: TagAttributes): { block?: string; lead?: string } | undefined {
  const own: Record<string, unknown> = {};
  const lines: string[] = [];
  for (const [key, value] of attributes) {
    if (value === true) own[key] = true;
    else if ('text' in value) own[key] = value.text;
    else {
      const data = readExpression(value.expression);
      if (data !== undefined) lines.push(...rows(data, 0));
    }
  }
  const lead = isField(own) ? fieldLine(own) : undefined;
  if (!lead && lines.length === 0) return undefined;
  return { ...(lines.length ? { block: lines.slice(0, MAX_ROWS).join('\n') } : {}), ...(lead ? { lead } : {}) };
}

/** A `{...}` expression's value when it is plain data with safe keys; undefined for anything else. */
function readExpression(source: string): unknown {
  const trimmed = source.trim();
  if (!/^[[{]/.test(trimmed)) return undefined;
  const json = literalToJson(trimmed);
  if (json === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  return plainData(value, 0) ? value : undefined;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '', b: '', f: '', v: '', '0': '' };

/**
 * A JavaScript object or array literal as JSON, for `JSON.parse` to read: its strings (single,
 * double and backtick quotes, with JavaScript's escapes) as JSON strings, its bare keys quoted,
 * `undefined` as null, comments and trailing commas out. Undefined for anything else a literal
 * may hold (a variable, a call, an operator, JSX, a template literal that interpolates): code,
 * not data, which `JSON.parse` or this refuses.
 */
function literalToJson(source: string): string | undefined {
  let out = '';
  const identifier = /[A-Za-z_$][\w$]*/y;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '/' && (source[i + 1] === '/' || source[i + 1] === '*')) {
      const end = source[i + 1] === '/' ? source.indexOf('\n', i) : source.indexOf('*/', i + 2) + 1;
      if (end <= 0) return undefined;
      i = end;
      out += ' ';
      continue;
    }
    if (char === '}' || char === ']') {
      // A trailing comma goes (looked for from the end: the text so far may be long).
      let end = out.length;
      while (end > 0 && /\s/.test(out[end - 1]!)) end--;
      if (out[end - 1] === ',') out = out.slice(0, end - 1);
      out += char;
      continue;
    }
    identifier.lastIndex = i;
    const word = /[A-Za-z_$]/.test(char) ? identifier.exec(source)?.[0] : undefined;
    if (word) {
      const key = /^\s*:/.test(source.slice(i + word.length, i + word.length + 40));
      if (key) out += JSON.stringify(word);
      else if (word === 'true' || word === 'false' || word === 'null') out += word;
      else if (word === 'undefined') out += 'null';
      else return undefined;
      i += word.length - 1;
      continue;
    }
    if (char !== '"' && char !== "'" && char !== '`') {
      out += char;
      continue;
    }
    let value = '';
    let k = i + 1;
    for (; k < source.length && source[k] !== char; k++) {
      if (source[k] === '\\') {
        const next = source[++k] ?? '';
        if (next === 'u' && /^[\da-f]{4}$/i.test(source.slice(k + 1, k + 5))) {
          value += String.fromCharCode(parseInt(source.slice(k + 1, k + 5), 16));
          k += 4;
        } else if (next !== '\n') {
          value += ESCAPES[next] ?? next;
        }
      } else if (char === '`' && source.startsWith('${', k)) {
        return undefined;
      } else {
        value += source[k];
      }
    }
    if (k >= source.length) return undefined;
    out += JSON.stringify(value);
    i = k;
  }
  return out;
}

/** Only arrays, objects with identifier keys, strings, numbers and booleans: anything else is refused. */
function plainData(value: unknown, depth: number): boolean {
  if (depth > 40) return false;
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every((item) => plainData(item, depth + 1));
  if (typeof value === 'object') return Object.entries(value).every(([key, item]) => SAFE_KEY.test(key) && plainData(item, depth + 1));
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const first = (record: Record<string, unknown>, keys: string[]): unknown => keys.map((key) => record[key]).find((value) => value !== undefined && value !== null && value !== '');
const scalar = (value: unknown): value is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof value);

/** A field: a name-like key with a string, and a type or a description. */
function isField(record: Record<string, unknown>): boolean {
  return typeof first(record, NAME_KEYS) === 'string' && (scalar(first(record, TYPE_KEYS)) || typeof first(record, TEXT_KEYS) === 'string');
}

/** Rows for a table's data: an array of fields, or an object of fields by name. */
function rows(data: unknown, depth: number): string[] {
  if (depth > MAX_DEPTH) return [];
  if (Array.isArray(data)) {
    const items = data.filter(isRecord);
    // A table, not a list of links or cards: most rows are fields.
    const fields = items.filter(isField);
    if (fields.length === 0 || fields.length * 2 < items.length) return [];
    return fields.flatMap((item) => itemRows(item, depth, undefined));
  }
  if (isRecord(data)) {
    const entries = Object.entries(data).filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]));
    const typed = entries.filter(([, item]) => scalar(first(item, TYPE_KEYS)) || typeof first(item, TEXT_KEYS) === 'string');
    if (typed.length === 0 || typed.length * 2 < Object.keys(data).length) return [];
    return typed.flatMap(([name, item]) => itemRows(item, depth, name));
  }
  return [];
}

/** One list item for a field, then its nested fields (`properties`, `parameters`, ...) indented under it. */
function itemRows(item: Record<string, unknown>, depth: number, key: string | undefined): string[] {
  const indent = '  '.repeat(depth);
  const nested: string[] = [];
  for (const [name, value] of Object.entries(item)) {
    if (typeof value === 'object' && value !== null && !NAME_KEYS.includes(name)) nested.push(...rows(value, depth + 1), ...groupRows(value, depth + 1));
  }
  const line = fieldLine(item, key);
  if (!line) return nested;
  return [`${indent}- ${line}`, ...nested];
}

/** Nested groups without a name of their own (`[{ type: 'Result', parameters: [...] }]`): the type heads its fields. */
function groupRows(value: unknown, depth: number): string[] {
  if (!Array.isArray(value) || depth > MAX_DEPTH) return [];
  const groups = value.filter((item): item is Record<string, unknown> => isRecord(item) && !isField(item) && typeof first(item, TYPE_KEYS) === 'string');
  return groups.flatMap((group) => {
    const inner = Object.values(group).flatMap((child) => (typeof child === 'object' && child !== null ? rows(child, depth + 1) : []));
    return inner.length ? [`${'  '.repeat(depth)}- ${code(String(first(group, TYPE_KEYS)))}:`, ...inner] : [];
  });
}

/** `` `name` (type, required, default: `x`): description`` on one line. */
function fieldLine(record: Record<string, unknown>, key?: string): string | undefined {
  const name = key ?? first(record, NAME_KEYS);
  if (typeof name !== 'string' || oneLine(name) === '') return undefined;
  const notes: string[] = [];
  const type = first(record, TYPE_KEYS);
  if (scalar(type)) notes.push(code(String(type)));
  if (record.required === true || record.isRequired === true) notes.push('required');
  else if (record.optional === true || record.isOptional === true || record.required === false) notes.push('optional');
  if (record.deprecated === true) notes.push('deprecated');
  const fallback = first(record, DEFAULT_KEYS);
  if (scalar(fallback)) notes.push(`default: ${code(String(fallback))}`);
  const text = first(record, TEXT_KEYS);
  const description = typeof text === 'string' ? oneLine(text) : '';
  return `${code(oneLine(name))}${notes.length ? ` (${notes.join(', ')})` : ''}:${description ? ` ${description}` : ''}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A code span holding the text as it is, whatever backticks it holds. */
function code(text: string): string {
  const value = oneLine(text);
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((run) => run[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${value}${pad}${ticks}`;
}
