// Finds the Chromium the browser tests, end-to-end tests and benchmarks drive.
// Order: $CHROME_PATH, then chromium, chromium-browser, google-chrome on PATH.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** @returns {string | undefined} the executable's path, if any is found. */
export function findChrome() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of NAMES) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Like findChrome, but prints one line saying how to get a browser and exits when none is found. */
export function requireChrome() {
  const found = findChrome();
  if (found) return found;
  const why = process.env.CHROME_PATH ? `CHROME_PATH=${process.env.CHROME_PATH} is not an executable` : 'no chromium, chromium-browser or google-chrome on PATH';
  console.error(`bot-answer: browser tests need Chromium (${why}). Install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROME_PATH to a Chrome/Chromium executable.`);
  process.exit(1);
}

/** Flags for a headless Chromium on a locked-down machine (root, no network beyond loopback). */
export const CHROME_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
