import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { CHROME_ARGS, requireChrome } from './scripts/find-chrome.mjs';
import { stubEndpoint } from './test/widget/stub-endpoint.mjs';

const executablePath = requireChrome();

/** @type {import('@web/test-runner').TestRunnerConfig} */
export default {
  files: ['test/widget/**/*.test.ts'],
  nodeResolve: true,
  // A stand-in for the proxy's answer endpoint (POST /stub/answer), speaking its protocol, and its search (GET /stub/search).
  middleware: [stubEndpoint],
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' })],
  browsers: [chromeLauncher({ launchOptions: { executablePath, headless: true, args: CHROME_ARGS } })],
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 300000,
  // Lit's dev build announces itself in every test file; the message is noise here.
  filterBrowserLogs: ({ args }) => !String(args[0]).startsWith('Lit is in dev mode'),
};
