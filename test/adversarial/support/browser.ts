import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Launches the system Chromium the project's other browser tests use. */
export async function launchChromium(): Promise<Browser> {
  const finder = pathToFileURL(join(ROOT, 'scripts/find-chrome.mjs')).href;
  const { requireChrome, CHROME_ARGS } = (await import(finder)) as { requireChrome(): string; CHROME_ARGS: string[] };
  // Nothing may leave loopback, whatever a payload asks for.
  return chromium.launch({ executablePath: requireChrome(), args: [...CHROME_ARGS, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });
}

/**
 * The element's classic-script bundle, built from the current sources into a private folder
 * (the runner builds once and passes the folder in ADVERSARIAL_BUNDLE_DIR).
 */
export function bundleDir(): string {
  const given = process.env.ADVERSARIAL_BUNDLE_DIR;
  if (given && existsSync(join(given, 'bot-answer.iife.js'))) return given;
  const out = mkdtempSync(join(tmpdir(), 'bot-answer-adv-'));
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { cwd: join(ROOT, 'packages', 'bot-answer'), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`building the element failed:\n${result.stderr}`);
  process.env.ADVERSARIAL_BUNDLE_DIR = out;
  return out;
}

export function readBundle(): string {
  return readFileSync(join(bundleDir(), 'bot-answer.iife.js'), 'utf8');
}

/** The in-page instrumentation and the after-batch checks, as script text. */
export const PROBE = readFileSync(fileURLToPath(new URL('./page-probe.js', import.meta.url)), 'utf8');
export const CHECK = readFileSync(fileURLToPath(new URL('./page-check.js', import.meta.url)), 'utf8').trim().replace(/;$/, '');
