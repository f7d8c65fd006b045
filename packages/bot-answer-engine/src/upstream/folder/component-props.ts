/**
 * The data a reference component keeps in its attributes, as Markdown text a reader (and the
 * index) can use. API references written in MDX keep their parameter tables in components:
 * the AI SDK's `<PropertiesTable content={[{ name, type, description }]} />`, Fumadocs'
 * `<TypeTable type={{ name: { type, description, default } }} />`, Mintlify's
 * `<ParamField path="limit" type="number" required>` and `<ResponseField name=... type=...>`.
 * They are read by the shape of their data, not by component name:
 *
 * - an attribute holding an array of objects with a name-like key (`name`, `path`, `key`, ...)
 *   and a type or description (or a `note`: a file tree's `{ path, note }`, a data model's
 *   entities and fields): one list item per object, `` `name` (type, optional): text``,
 *   nested arrays of the same shape (`properties`, `parameters`) as nested items, two levels down;
 * - an attribute holding an object whose values are such objects (keyed by name): the same;
 * - a tag whose own attributes name a field and its type: `` `limit` (number, required):``
 *   in its place, before the text it wraps;
 * - a grid: an attribute holding rows of cells and one holding as many headers
 *   (`<Table columns={[...]} rows={[[...]]} />`): a GFM table.
 *
 * Attribute expressions are parsed as JavaScript (`acorn`) and only a literal's syntax tree is
 * read: objects, arrays, strings, numbers, booleans. What is more than a literal (a variable, a
 * call, string concatenation, an interpolating template, JSX) is no data: the tag is dropped as
 * before, and no code is ever run or turned into text.
 */

import { parse, type Expression, type Program } from 'acorn';

/** The attributes of a component tag as written: a string, `true` for a bare name, or the source of a `{...}` expression. */
export type TagAttributes = Map<string, { text: string } | { expression: string } | true>;

// Keys naming a field, by the frameworks' spellings (Mintlify's ParamField names the field by where it goes).
const NAME_KEYS = ['name', 'path', 'query', 'body', 'header', 'key', 'prop', 'property', 'param', 'parameter', 'field', 'option'];
const TYPE_KEYS = ['type'];
const TEXT_KEYS = ['description', 'desc', 'summary', 'doc', 'details', 'note'];
const DEFAULT_KEYS = ['default', 'defaultValue'];
// A key is a field's name as the table shows it: an identifier, or a quoted one naming a path or a
// call (Fumadocs' `'options.fallbackToDM'`, `'event.user'`, `'fetchMessage()'`); one line, not long.
const SAFE_KEY = /^[^\s\u0000-\u001f\u007f](?:[^\n\r\u0000-\u001f\u007f]{0,118}[^\s\u0000-\u001f\u007f])?$/;
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
  const values: unknown[] = [];
  for (const [key, value] of attributes) {
    if (value === true) own[key] = true;
    else if ('text' in value) own[key] = value.text;
    else {
      const data = readExpression(value.expression);
      if (data !== undefined) {
        values.push(data);
        lines.push(...rows(data, 0));
      }
    }
  }
  if (lines.length === 0) lines.push(...gridTable(values));
  const lead = isField(own) ? fieldLine(own) : undefined;
  if (!lead && lines.length === 0) return undefined;
  return { ...(lines.length ? { block: lines.slice(0, MAX_ROWS).join('\n') } : {}), ...(lead ? { lead } : {}) };
}

/**
 * The string a `{...}` attribute expression spells when it is one string literal (`{"text"}`,
 * `{'text'}`, or a template literal without `${}`): JSX reads it as the same attribute written
 * in quotes (`summary={"..."}` is `summary="..."`), escapes decoded. Undefined for anything else.
 */
export function expressionString(source: string): string | undefined {
  if (!/^\s*["'`]/.test(source)) return undefined;
  const value = literalOf(source);
  return typeof value === 'string' ? value : undefined;
}

/** A `{...}` expression's value when it is an object or array literal of plain data with safe keys; undefined for anything else. */
function readExpression(source: string): unknown {
  if (!/^\s*[[{]/.test(source)) return undefined;
  const value = literalOf(source);
  return value === NOT_DATA ? undefined : value;
}

/** An attribute expression's value when it is one JavaScript literal of plain data; `NOT_DATA` for anything else. */
function literalOf(source: string): unknown {
  let program: Program;
  try {
    // Wrapped in parentheses so an object literal is an expression, not a block; the line break ends a trailing `//` comment.
    program = parse(`(${source}\n)`, { ecmaVersion: 'latest', sourceType: 'module' });
  } catch {
    return NOT_DATA;
  }
  const statement = program.body.length === 1 ? program.body[0] : undefined;
  if (statement?.type !== 'ExpressionStatement') return NOT_DATA;
  return literalValue(statement.expression, 0);
}

const NOT_DATA = Symbol('not data');

/**
 * The value a literal's syntax tree spells: objects (plain keys, identifier-like), arrays,
 * strings (any quotes; a template literal without `${}`), numbers, booleans, `null` and
 * `undefined` (as null). Anything else (a variable, a call, an operator, a spread, a computed
 * key, a method, JSX) is code, not data: `NOT_DATA`, and the tag is dropped.
 */
function literalValue(node: Expression, depth: number): unknown {
  if (depth > 40) return NOT_DATA;
  switch (node.type) {
    case 'Literal':
      // A regular expression or a BigInt is no table's data.
      if ('regex' in node || 'bigint' in node) return NOT_DATA;
      return node.value === null || scalar(node.value) ? node.value : NOT_DATA;
    case 'TemplateLiteral':
      return node.expressions.length === 0 && typeof node.quasis[0]?.value.cooked === 'string' ? node.quasis[0].value.cooked : NOT_DATA;
    case 'Identifier':
      return node.name === 'undefined' ? null : NOT_DATA;
    case 'UnaryExpression':
      return node.operator === '-' && node.argument.type === 'Literal' && typeof node.argument.value === 'number' ? -node.argument.value : NOT_DATA;
    case 'ArrayExpression': {
      const items: unknown[] = [];
      for (const element of node.elements) {
        const value = element && element.type !== 'SpreadElement' ? literalValue(element, depth + 1) : NOT_DATA;
        if (value === NOT_DATA) return NOT_DATA;
        items.push(value);
      }
      return items;
    }
    case 'ObjectExpression': {
      const entries: [string, unknown][] = [];
      for (const property of node.properties) {
        if (property.type !== 'Property' || property.kind !== 'init' || property.method || property.shorthand || property.computed) return NOT_DATA;
        const key = property.key.type === 'Identifier' ? property.key.name : property.key.type === 'Literal' ? property.key.value : undefined;
        if (typeof key !== 'string' || !SAFE_KEY.test(key)) return NOT_DATA;
        const value = literalValue(property.value as Expression, depth + 1);
        if (value === NOT_DATA) return NOT_DATA;
        entries.push([key, value]);
      }
      // Own properties whatever the key (`__proto__` included), the last of a repeated key winning, as JSON.parse does.
      return Object.fromEntries(entries);
    }
    default:
      return NOT_DATA;
  }
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

/**
 * A grid written as data: an attribute holding rows of cells (an array of arrays of strings or
 * numbers) and one holding as many headers (an array of strings), as a GFM table, each cell
 * Markdown on one line (`<Table columns={["Case", "Outcome"]} rows={[["a", "b"]]} />`). Empty
 * when the tag holds no such pair.
 */
function gridTable(values: unknown[]): string[] {
  const isRow = (row: unknown): row is Array<string | number> => Array.isArray(row) && row.length > 0 && row.every((cell) => typeof cell === 'string' || typeof cell === 'number');
  const body = values.find((value): value is Array<Array<string | number>> => Array.isArray(value) && value.length > 0 && value.every(isRow));
  const width = body?.[0]?.length;
  if (!body || !body.every((row) => row.length === width)) return [];
  const header = values.find((value): value is string[] => value !== body && Array.isArray(value) && value.length === width && value.every((cell) => typeof cell === 'string'));
  if (!header) return [];
  const line = (cells: Array<string | number>): string => `| ${cells.map((cell) => oneLine(String(cell)).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), `|${' --- |'.repeat(header.length)}`, ...body.slice(0, MAX_ROWS).map(line)];
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
  // A string's escapes may spell control characters (`\0`, `\b`): no text holds them.
  return text.replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, '').replace(/\s+/g, ' ').trim();
}

/** A code span holding the text as it is, whatever backticks it holds. */
function code(text: string): string {
  const value = oneLine(text);
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((run) => run[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${value}${pad}${ticks}`;
}
