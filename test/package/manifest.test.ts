/**
 * The Custom Elements Manifest (`npm run build` writes it) against the element itself: every
 * attribute, property, method, event, part and `--bot-answer-*` custom property the source has
 * must be in it, with a description. The lists come from the source (the element's reactive
 * properties, its templates, its styles), so one added without JSDoc fails here.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const ELEMENT = join(ROOT, 'packages', 'bot-answer');
const WIDGET = join(ELEMENT, 'src', 'widget');

interface Described {
  name: string;
  description?: string;
}
interface Attribute extends Described {
  fieldName?: string;
}
interface Member extends Described {
  kind: 'field' | 'method';
  privacy?: string;
  static?: boolean;
}
interface Declaration extends Described {
  kind: string;
  tagName?: string;
  customElement?: boolean;
  attributes?: Attribute[];
  members?: Member[];
  events?: Described[];
  cssParts?: Described[];
  cssProperties?: Described[];
}
interface Manifest {
  schemaVersion: string;
  modules: Array<{ path: string; declarations?: Declaration[]; exports?: Array<{ kind: string; name: string; declaration: { name: string } }> }>;
}

/** What the test reads of the element class: its reactive properties, declared as Lit declares them. */
interface ElementClass {
  observedAttributes: string[];
  properties: Record<string, { attribute?: boolean | string; state?: boolean }>;
}

/** The names the public contract promises (they may never go missing). */
const CONTRACT = {
  attributes: ['bot-id', 'endpoint', 'inline-sources', 'stream', 'mode', 'theme', 'placeholder', 'heading', 'suggestions', 'persist', 'lang'],
  events: ['bot-answer-submit', 'bot-answer-start', 'bot-answer-done', 'bot-answer-error', 'bot-answer-feedback', 'bot-answer-source-click'],
  parts: ['launcher', 'panel', 'thread', 'question', 'answer', 'sources', 'sources-toggle', 'source', 'input', 'send', 'stop', 'status', 'error'],
  methods: ['ask', 'stop', 'clear', 'show', 'hide'],
};

/** Every TypeScript source of the element, without its comments (JSDoc must not count as source). */
function widgetSources(dir = WIDGET): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return widgetSources(path);
    if (!entry.name.endsWith('.ts')) return [];
    return [readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')];
  });
}

const unique = (names: Iterable<string>) => [...new Set(names)].sort();
const matches = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => m[1]!);

function loadManifest(): Declaration {
  const pkg = JSON.parse(readFileSync(join(ELEMENT, 'package.json'), 'utf8')) as { customElements?: string };
  assert.ok(pkg.customElements, 'package.json names the manifest in "customElements"');
  const manifest = JSON.parse(readFileSync(join(ELEMENT, pkg.customElements), 'utf8')) as Manifest;
  assert.match(manifest.schemaVersion, /^\d+\.\d+/);
  const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.customElement);
  assert.deepEqual(elements.map((d) => d.tagName), ['bot-answer']);
  const definition = manifest.modules.flatMap((m) => m.exports ?? []).find((e) => e.kind === 'custom-element-definition');
  assert.equal(definition?.name, 'bot-answer');
  return elements[0]!;
}

/** Fails listing every name of `expected` that `listed` lacks, or lists without a description. */
function assertDocumented(what: string, expected: string[], listed: Described[] = []) {
  const byName = new Map(listed.map((d) => [d.name, d]));
  const missing = expected.filter((name) => !byName.has(name));
  assert.deepEqual(missing, [], `${what} missing from the manifest (document them on the element class)`);
  const undocumented = expected.filter((name) => !byName.get(name)!.description?.trim());
  assert.deepEqual(undocumented, [], `${what} without a description in the manifest (add JSDoc)`);
}

const sources = widgetSources().join('\n');
const element = loadManifest();

test('every attribute and public property of the element is in the manifest, documented', async () => {
  // Through the package's exports (its Node entry), as a variable: type-checking must not need a build.
  const entry: string = 'bot-answer';
  const { BotAnswer } = (await import(entry)) as { BotAnswer: ElementClass };
  const attributes: string[] = [];
  const properties: string[] = [];
  for (const [name, options] of Object.entries(BotAnswer.properties)) {
    if (options.state || name.startsWith('_')) continue;
    properties.push(name);
    // The element's default attribute is the property's name in kebab case (botId: bot-id).
    if (options.attribute !== false) attributes.push(typeof options.attribute === 'string' ? options.attribute : name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
  }
  for (const name of CONTRACT.attributes) assert.ok(attributes.includes(name), `contract attribute ${name} is a reactive property's attribute`);
  assertDocumented('attributes', attributes, element.attributes);
  const publicFields = (element.members ?? []).filter((m) => m.kind === 'field' && !m.static && m.privacy !== 'private');
  assertDocumented('properties', properties, publicFields);
  // No internal state leaks into the manifest as an attribute or member.
  assert.deepEqual((element.attributes ?? []).filter((a) => a.name.startsWith('_')), []);
  assert.deepEqual((element.members ?? []).filter((m) => m.name.startsWith('_') || m.privacy === 'private'), []);
});

test('every public method and getter of the element is in the manifest, documented', () => {
  const source = readFileSync(join(WIDGET, 'bot-answer.ts'), 'utf8');
  const classBody = source.slice(source.search(/^export class /m));
  // A public member is declared at the class's indentation without private/protected/static/override.
  // The custom element reactions (connectedCallback...) are the platform's calls, not the element's API.
  const methods = matches(classBody, /^ {2}(?:async )?([a-z]\w*)\s*\(/gm).filter((name) => name != 'constructor' && !/^(connected|disconnected|adopted|attributeChanged)Callback$/.test(name));
  const getters = matches(classBody, /^ {2}get ([a-z]\w*)\s*\(/gm);
  for (const name of CONTRACT.methods) assert.ok(methods.includes(name), `contract method ${name} found in the source`);
  assertDocumented('methods', unique(methods), (element.members ?? []).filter((m) => m.kind === 'method'));
  assertDocumented('getters', unique(getters), element.members);
});

test('every event the element fires is in the manifest, documented', () => {
  const events = unique([
    // emit(this, 'name', ...) or emit(this.host, 'name', ...), new CustomEvent('name'), and the typed event map's keys.
    ...matches(sources, /emit\(\s*[\w.]+,\s*'([^']+)'/g),
    ...matches(sources, /new CustomEvent\(\s*'([^']+)'/g),
    ...matches(sources, /'(bot-answer-[a-z-]+)'\s*:\s*CustomEvent/g),
  ]);
  for (const name of CONTRACT.events) assert.ok(events.includes(name), `contract event ${name} found in the source`);
  assertDocumented('events', events, element.events);
});

test('every part in the templates is in the manifest, documented', () => {
  const literal = matches(sources, /\bpart="([^"]+)"/g);
  // `part=${cond ? 'a' : 'b'}`: each quoted name in the expression.
  const dynamic = matches(sources, /\bpart=\$\{([^}]*)\}/g).flatMap((expr) => matches(expr, /'([a-z-]+)'/g));
  // Parts given to elements made in code: `el.part.add('answer')`, and `h('button', { part: 'launcher' })`.
  const added = matches(sources, /\.part\.add\(([^)]*)\)/g).flatMap((args) => matches(args, /'([a-z-]+)'/g));
  const attributed = matches(sources, /\bpart: '([^']+)'/g);
  const parts = unique([...literal, ...dynamic, ...added, ...attributed].flatMap((p) => p.split(/\s+/)).filter(Boolean));
  for (const name of CONTRACT.parts) assert.ok(parts.includes(name), `contract part ${name} found in the templates`);
  assertDocumented('parts', parts, element.cssParts);
});

test('every --bot-answer-* custom property in the styles is in the manifest, documented', () => {
  const properties = unique(matches(sources, /(--bot-answer-[a-z0-9-]+)/g));
  assert.ok(properties.length >= 10, `found ${properties.length} custom properties`);
  assertDocumented('CSS custom properties', properties, element.cssProperties);
});
