import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { bundleDir } from './support/browser.js';
import { findKey, KEY, KEY_FORMS } from './support/secret.js';

/**
 * Key secrecy in what ships to browsers: the bundle built with the key in the build's
 * environment (and dist/, when present) holds no form of it. Responses, log lines and pages
 * are scanned by the other test files as they go.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test('the scanner finds every form of the key it looks for (self-check)', () => {
  for (const form of KEY_FORMS) assert.notDeepEqual(findKey(`prefix ${form} suffix`, 'self-check', false), []);
  assert.deepEqual(findKey('nothing here', 'self-check', false), []);
});

test('the built bundles and their source maps never hold the key', () => {
  // The runner builds with ANSWER_API_KEY set to the key, so a build that inlined the environment would show it here.
  if (!process.env.ANSWER_API_KEY) process.env.ANSWER_API_KEY = KEY;
  const dirs = [bundleDir(), ...['bot-answer', 'bot-answer-proxy', 'bot-answer-engine'].map((name) => join(ROOT, 'packages', name, 'dist'))].filter(existsSync);
  let files = 0;
  for (const dir of dirs) {
    for (const name of readdirSync(dir)) {
      if (!/\.(js|map|mjs|html|css)$/.test(name)) continue;
      files++;
      assert.deepEqual(findKey(readFileSync(join(dir, name), 'utf8'), name), [], `${name} holds the key`);
    }
  }
  assert.ok(files >= 2, 'no bundle to scan');
});
