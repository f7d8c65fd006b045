import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { CHROME_ARGS, requireChrome } from './scripts/find-chrome.mjs';
import { stubEndpoint } from './test/widget/stub-endpoint.mjs';

const executablePath = requireChrome();

/**
 * `executeServerCommand('tap', {x, y})`: a finger's tap at page coordinates, with Chromium's touch
 * emulation on for the tap (as a phone: pointer events of type touch, no hover, then the click), and off
 * again after it (left on, it holds up the mouse commands of later tests).
 */
const touchPlugin = {
  name: 'touch',
  async executeCommand({ command, payload, session }) {
    if (command !== 'tap') return undefined;
    const page = session.browser.getPage(session.id);
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
    try {
      await page.touchscreen.tap(payload.x, payload.y);
    } finally {
      await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: false });
      await cdp.detach();
    }
    return true;
  },
};

/** @type {import('@web/test-runner').TestRunnerConfig} */
export default {
  files: ['test/widget/**/*.test.ts'],
  nodeResolve: true,
  // A stand-in for the proxy's answer endpoint (POST /stub/answer), speaking its protocol, and its search (GET /stub/search).
  middleware: [stubEndpoint],
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' }), touchPlugin],
  browsers: [chromeLauncher({ launchOptions: { executablePath, headless: true, args: CHROME_ARGS } })],
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 300000,
  // Lit's dev build announces itself in every test file; the message is noise here.
  filterBrowserLogs: ({ args }) => !String(args[0]).startsWith('Lit is in dev mode'),
};
