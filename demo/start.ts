/**
 * `npm start`: the proxy with the demo page, configured like the `bot-answer-proxy` command
 * (same flags and environment). Without ANSWER_API_KEY it answers from the embedded local
 * Answer API and its sample knowledge base; with ANSWER_API_KEY and ANSWER_BASE_URL, from that upstream.
 * Insights are on: questions go to demo/data/insights.sqlite (git-ignored) unless INSIGHTS_DB
 * says otherwise, and the page's token is INSIGHTS_TOKEN or a new one printed at start.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { HELP, optionsFrom } from '../packages/bot-answer-proxy/src/proxy/cli-options.js';
import { startDemoServer } from './server.js';

const DEMO_DB = fileURLToPath(new URL('./data/insights.sqlite', import.meta.url));

async function main(): Promise<void> {
  let options;
  try {
    options = await optionsFrom(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`bot-answer demo: ${(error as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(HELP);
    return;
  }
  const insightsDb = options.insightsDb ?? DEMO_DB;
  const insightsToken = options.insightsToken ?? randomBytes(12).toString('hex');
  try {
    if (insightsDb === DEMO_DB) await mkdir(new URL('./data/', import.meta.url), { recursive: true });
    const running = await startDemoServer({ ...options, insightsDb, insightsToken, handleSignals: true });
    const kb = options.localAnswerApi?.kb;
    const how = running.demo ? `demo mode: answers from the local Answer API and ${kb ? `the documents in ${kb}` : 'its sample knowledge base'}` : 'answers from ANSWER_BASE_URL';
    const token = options.insightsToken ? 'the INSIGHTS_TOKEN you set' : `token ${insightsToken}`;
    console.log(`\n  bot-answer demo (${how})\n  Open ${running.url}/ in your browser. Ctrl+C stops it.\n  Insights: ${running.url}/insights (sign in with ${token})\n`);
  } catch (error) {
    const message = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${options.port} is in use: set PORT to another port` : (error as Error).message;
    console.error(`bot-answer demo: ${message}`);
    process.exit(1);
  }
}

void main();
