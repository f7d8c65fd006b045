/**
 * The three packages' boundaries, read from their sources: a relative import never leaves its
 * package (except into the protocol, which the proxy and the engine compile into their own
 * builds), and every package a module imports by name is one its package.json declares, so
 * that installing one package brings what it runs and nothing of the others.
 */
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');
const PACKAGES = join(ROOT, 'packages');
const PROTOCOL = join(PACKAGES, 'bot-answer', 'src', 'protocol') + sep;

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** The modules a file names: static imports and re-exports, `import()` and `import('x')` types (parsed, so comments never count). */
function specifiers(file: string): string[] {
  const names: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) names.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) names.push(node.arguments[0].text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) names.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  return names;
}

/** What each package's modules import: relative paths resolved, package names as written. */
function importsOf(dir: string): Array<{ file: string; name: string }> {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .flatMap((file) => specifiers(file).map((name) => ({ file, name })));
}

/** `@scope/name/sub` and `name/sub` as the package's name. */
const packageName = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

// The framework typings (bot-answer/react, /vue, /svelte) import the framework's types only, for apps that have it.
const TYPES_ONLY: Record<string, string[]> = { 'bot-answer': ['react', 'svelte', 'vue'] };

for (const folder of readdirSync(PACKAGES)) {
  const manifest = JSON.parse(readFileSync(join(PACKAGES, folder, 'package.json'), 'utf8')) as Manifest;
  const own = join(PACKAGES, folder) + sep;
  const imports = importsOf(join(own, 'src'));

  test(`${manifest.name}: relative imports stay in the package (the protocol aside)`, () => {
    assert.ok(imports.length > 20, 'the sources were found');
    const leaving = imports
      .filter(({ name }) => name.startsWith('.'))
      .filter(({ file, name }) => {
        const target = resolve(dirname(file), name);
        return !target.startsWith(own) && !target.startsWith(PROTOCOL);
      })
      .map(({ file, name }) => `${relative(ROOT, file)}: ${name}`);
    assert.deepEqual(leaving, []);
  });

  test(`${manifest.name}: every package imported by name is declared`, () => {
    const declared = new Set([manifest.name, ...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}), ...(TYPES_ONLY[manifest.name] ?? [])]);
    const undeclared = imports
      .filter(({ name }) => !name.startsWith('.') && !name.startsWith('node:') && !builtinModules.includes(name))
      .filter(({ name }) => !declared.has(packageName(name)))
      .map(({ file, name }) => `${relative(ROOT, file)}: ${name}`);
    assert.deepEqual(undeclared, []);
  });
}

test('the element depends on its four libraries and the DOM shim lit brings, nothing else', () => {
  const manifest = JSON.parse(readFileSync(join(PACKAGES, 'bot-answer', 'package.json'), 'utf8')) as Manifest;
  assert.deepEqual(Object.keys(manifest.dependencies ?? {}).sort(), ['@lit-labs/ssr-dom-shim', 'dompurify', 'eventsource-parser', 'lit', 'marked']);
  assert.equal(manifest.peerDependencies, undefined);
});
